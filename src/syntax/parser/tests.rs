use super::*;
use crate::syntax::parse;

type Outcome<T> = Result<T, (ErrorKind, usize, usize, String)>;

/// Runs one rule on `input`; on success, only spaces may be left.
fn run<T>(
    input: &str,
    rule: impl for<'a> Fn(&Parser<'a>, &'a str) -> PResult<'a, T>,
) -> Outcome<T> {
    let p = Parser::new(FileId(0), input);
    match rule(&p, input) {
        Ok((rest, v)) => {
            assert!(spaces(rest).is_empty(), "left over: {rest:?}");
            Ok(v)
        }
        Err(nom::Err::Error(e) | nom::Err::Failure(e)) => {
            Err((e.kind, input.len() - e.at.len(), e.len, e.message))
        }
        Err(nom::Err::Incomplete(_)) => unreachable!("complete parsers only"),
    }
}

#[track_caller]
fn quantity(dim: Dim, input: &str, expected: Result<u64, ErrorKind>) {
    let got = run(input, |p, i| p.quantity(i, dim))
        .map(|(v, _)| v.node)
        .map_err(|e| e.0);
    assert_eq!(got, expected, "{input}");
}

#[test]
fn units() {
    use ErrorKind::{BadQuantity, OutOfRange, Syntax};
    quantity(Dim::Speed, "400G", Ok(400_000));
    quantity(Dim::Speed, "2.5G", Ok(2_500));
    quantity(Dim::Speed, "0.001G", Ok(1));
    quantity(Dim::Speed, "0.0001G", Err(BadQuantity));
    quantity(Dim::Speed, "400g", Err(BadQuantity));
    quantity(Dim::Speed, "400", Err(BadQuantity));
    quantity(Dim::Size, "40000B", Ok(40_000));
    quantity(Dim::Size, "150KB", Ok(150_000));
    quantity(Dim::Size, "1.5MB", Ok(1_500_000));
    quantity(Dim::Size, "1500KB", Ok(1_500_000));
    quantity(Dim::Size, "2GB", Ok(2_000_000_000));
    quantity(Dim::Size, "150KiB", Ok(153_600));
    quantity(Dim::Size, "2MiB", Ok(2_097_152));
    quantity(Dim::Size, "1GiB", Ok(1_073_741_824));
    quantity(Dim::Size, "0.5KiB", Ok(512));
    quantity(Dim::Size, "0.0001B", Err(BadQuantity));
    quantity(Dim::Size, "1.5B", Err(BadQuantity));
    quantity(Dim::Size, "1.5cells", Err(BadQuantity));
    quantity(Dim::Size, "12cells", Ok(12));
    quantity(Dim::Size, "150kb", Err(BadQuantity));
    quantity(Dim::Size, "1.", Err(BadQuantity));
    quantity(Dim::Size, "1.2.3KB", Err(BadQuantity));
    quantity(Dim::Size, "99999999999999999999B", Err(OutOfRange));
    quantity(Dim::Size, "1099511627776B", Ok(1 << 40));
    quantity(Dim::Size, "1099511627777B", Err(OutOfRange));
    quantity(Dim::Size, "18446744073709551615B", Err(OutOfRange));
    quantity(Dim::Size, "4294967297cells", Err(OutOfRange));
    quantity(Dim::Speed, "0G", Err(OutOfRange));
    quantity(Dim::Speed, "10000G", Ok(10_000_000));
    quantity(Dim::Speed, "10000.001G", Err(OutOfRange));
    quantity(Dim::Length, "1000km", Ok(1_000_000_000));
    quantity(Dim::Length, "1000.001km", Err(OutOfRange));
    quantity(Dim::Time, "3600s", Ok(3_600_000_000_000));
    quantity(Dim::Time, "3601s", Err(OutOfRange));
    quantity(Dim::Percent, "100.001%", Err(OutOfRange));
    quantity(Dim::Size, "18446744073709551616B", Err(OutOfRange));
    quantity(Dim::Size, "KB", Err(Syntax));
    quantity(Dim::Size, "1.0000000000000000000000000KB", Ok(1_000));
    quantity(Dim::Size, "1.000000000000000000000001KB", Err(BadQuantity));
    quantity(Dim::Length, "3m", Ok(3_000));
    quantity(Dim::Length, "0.5m", Ok(500));
    quantity(Dim::Length, "1.2km", Ok(1_200_000));
    quantity(Dim::Length, "0.0001m", Err(BadQuantity));
    quantity(Dim::Length, "3", Err(BadQuantity));
    quantity(Dim::Time, "50us", Ok(50_000));
    quantity(Dim::Time, "200ms", Ok(200_000_000));
    quantity(Dim::Time, "1s", Ok(1_000_000_000));
    quantity(Dim::Time, "1500ns", Ok(1_500));
    quantity(Dim::Time, "1.5us", Ok(1_500));
    quantity(Dim::Time, "0.5ns", Err(BadQuantity));
    quantity(Dim::Percent, "10%", Ok(10_000));
    quantity(Dim::Percent, "12.5%", Ok(12_500));
    quantity(Dim::Percent, "0.001%", Ok(1));
    quantity(Dim::Percent, "0.0001%", Err(BadQuantity));
}

#[test]
fn exact_scaling() {
    assert_eq!(scale("1", "067", 1_000), Ok(1_067));
    assert_eq!(scale("007", "500", 1_000), Ok(7_500));
    assert_eq!(scale("0", "5", 1 << 10), Ok(512));
    assert_eq!(scale("0", "3", 1 << 10), Err(ScaleError::NotWhole));
    assert_eq!(
        scale("1", "1234567890123456789012", 1),
        Err(ScaleError::TooPrecise)
    );
    assert_eq!(
        scale("123456789012345678901", "", 1),
        Err(ScaleError::TooLarge)
    );
}

#[track_caller]
fn ratio(input: &str, expected: Result<(u64, u64), ErrorKind>) {
    let got = run(input, |p, i| p.ratio(i))
        .map(|r| (r.node.down, r.node.up))
        .map_err(|e| e.0);
    assert_eq!(got, expected, "{input}");
}

#[test]
fn ratios() {
    ratio("1:1", Ok((1_000, 1_000)));
    ratio("3:1", Ok((3_000, 1_000)));
    ratio("1.067:1", Ok((1_067, 1_000)));
    ratio("3", Err(ErrorKind::BadQuantity));
    ratio("3:", Err(ErrorKind::BadQuantity));
    ratio("0:1", Err(ErrorKind::OutOfRange));
    ratio("1.0001:1", Err(ErrorKind::BadQuantity));
    ratio("1:2x", Err(ErrorKind::BadQuantity));
}

/// A name pattern, shown as `text` and `[lo..hi/width]` parts.
#[track_caller]
fn pattern(input: &str, expected: Result<&str, ErrorKind>) {
    let got = run(input, |p, i| p.name_pattern(i, "a name")).map(|n| {
        n.segments
            .iter()
            .map(|s| match s {
                Segment::Text(t) => t.clone(),
                Segment::Range(items) => {
                    let items: Vec<String> = items
                        .iter()
                        .map(|r| format!("{}..{}/{}", r.lo, r.hi, r.width))
                        .collect();
                    format!("[{}]", items.join(","))
                }
            })
            .collect::<Vec<_>>()
            .join("|")
    });
    assert_eq!(got.as_deref().map_err(|e| e.0), expected, "{input}");
}

#[test]
fn name_patterns() {
    use ErrorKind::{BadPattern, OutOfRange, Syntax};
    pattern("L1", Ok("L1"));
    pattern("h1.nic3", Ok("h1.nic3"));
    pattern("_a-b.c", Ok("_a-b.c"));
    pattern("gpu[001..256]", Ok("gpu|[1..256/3]"));
    pattern("gpu[1..256]", Ok("gpu|[1..256/0]"));
    pattern("x[08..10]", Ok("x|[8..10/2]"));
    pattern("x[0..9]", Ok("x|[0..9/0]"));
    pattern("p[1..2]-leaf[1..8]", Ok("p|[1..2/0]|-leaf|[1..8/0]"));
    pattern("h[1..4,7]", Ok("h|[1..4/0,7..7/0]"));
    pattern("h[1, 3]", Ok("h|[1..1/0,3..3/0]"));
    pattern("a[1][2]", Ok("a|[1..1/0]|[2..2/0]"));
    pattern("leaf[8..1]", Err(BadPattern));
    pattern("leaf[]", Err(BadPattern));
    pattern("leaf[1..4", Err(BadPattern));
    pattern("leaf[1..]", Err(BadPattern));
    pattern("leaf[a]", Err(BadPattern));
    pattern("leaf[1.5]", Err(BadPattern));
    pattern("leaf[1..99999999999999999999]", Err(OutOfRange));
    pattern("1leaf", Err(BadPattern));
    pattern("[1..2]", Err(BadPattern));
    pattern("-x", Err(Syntax));
}

#[track_caller]
fn string(input: &str, expected: Result<&str, ErrorKind>) {
    let got = run(input, |p, i| p.string(i, "a string")).map(|s| s.node);
    assert_eq!(got.as_deref().map_err(|e| e.0), expected, "{input}");
}

#[test]
fn strings() {
    string(r#""""#, Ok(""));
    string(r#""rack 12""#, Ok("rack 12"));
    string(r#""a \"b\" \\ c""#, Ok(r#"a "b" \ c"#));
    string(r#""µs ok""#, Ok("µs ok"));
    string("\"open", Err(ErrorKind::UnterminatedString));
    string("\"open\nclose\"", Err(ErrorKind::UnterminatedString));
    string(r#""a\nb""#, Err(ErrorKind::Syntax));
    string("\"a\\", Err(ErrorKind::UnterminatedString));
    string("rack", Err(ErrorKind::Syntax));
}

/// A failing input: code, byte offset and length of the span, and the message.
#[track_caller]
fn err(input: &str, code: &str, start: usize, len: usize, message: &str) {
    match parse(FileId(0), input) {
        Ok(f) => panic!("{input}: parsed as {f:?}"),
        Err(d) => {
            let span = (d.primary.span.start as usize, d.primary.span.len());
            assert_eq!(
                (d.code.as_str(), span, d.message.as_str()),
                (code, (start, len), message),
                "{input}"
            );
            assert!(!d.message.ends_with('.'));
        }
    }
}

#[test]
fn pci_addresses() {
    for (text, canonical) in [
        ("0000:0c:00.0", Some("0000:0c:00.0")),
        ("0c:00.0", Some("0000:0c:00.0")),
        ("0000:0C:1F.7", Some("0000:0c:1f.7")),
        ("10000:e1:00.0", Some("10000:e1:00.0")),
        ("1:0c:00.0", Some("0001:0c:00.0")),
        ("0c:20.0", None),
        ("0c:00.8", None),
        ("c:00.0", None),
        ("0c:00", None),
        ("0c:00.0.1", None),
        ("123456789:0c:00.0", None),
        ("0g:00.0", None),
        ("", None),
    ] {
        assert_eq!(bounds::pci_address(text).as_deref(), canonical, "{text}");
    }
    err(
        "host h { pci 0c:00.0, 0c:zz.0 }",
        "FAB006",
        22,
        7,
        "`0c:zz.0` is not a PCI address",
    );
    err(
        "host h { pci 0c:20.0 }",
        "FAB006",
        13,
        7,
        "`0c:20.0` is not a PCI address",
    );
    err(
        "host h { pci eth0 }",
        "FAB006",
        13,
        4,
        "`eth0` is not a PCI address",
    );
}

#[test]
fn errors() {
    err(
        "class roce { ecn min 150 }",
        "FAB003",
        21,
        3,
        "expected a size such as `150KB`, found `150`",
    );
    err(
        "class roce { ecn min 150kb }",
        "FAB003",
        21,
        5,
        "expected a size such as `150KB`, found `150kb`",
    );
    err(
        "class roce { probabilty 10% }",
        "FAB004",
        13,
        10,
        "unknown class property `probabilty`",
    );
    err(
        "class roce { priority 8 }",
        "FAB005",
        22,
        1,
        "priority `8` is out of range",
    );
    err(
        "class roce { dscp 64 }",
        "FAB005",
        18,
        2,
        "dscp `64` is out of range",
    );
    err("mtu 67", "FAB005", 4, 2, "mtu `67` is out of range");
    err(
        "mtu 99999999999999999999",
        "FAB005",
        4,
        20,
        "number `99999999999999999999` is too large",
    );
    err(
        "roce-mtu 1000",
        "FAB005",
        9,
        4,
        "roce-mtu `1000` is not an rdma mtu",
    );
    err(
        "class a { bandwidth 100.001% }",
        "FAB005",
        20,
        8,
        "percentage `100.001%` is out of range",
    );
    err(
        "switch-model m { lossless-limit 9 }",
        "FAB005",
        32,
        1,
        "lossless-limit `9` is out of range",
    );
    err(
        "switch-model m { dynamic-threshold 8 }",
        "FAB005",
        35,
        1,
        "dynamic-threshold `8` is out of range",
    );
    err(
        "check failures 3",
        "FAB005",
        15,
        1,
        "check failures `3` is out of range",
    );
    err(
        "switch a { tier 0 }",
        "FAB005",
        16,
        1,
        "tier `0` is out of range",
    );
    err(
        "link a -- b { count 0 }",
        "FAB005",
        20,
        1,
        "count `0` is out of range",
    );
    err(
        "host h { nic n x 0 }",
        "FAB005",
        17,
        1,
        "nic count `0` is out of range",
    );
    err("switch s[8..1]", "FAB006", 9, 4, "descending range `8..1`");
    err("switch s[]", "FAB006", 8, 2, "empty range `[]`");
    err(
        "switch s[1..4294967297]",
        "FAB007",
        9,
        13,
        "range `1..4294967297` gives more than 4294967296 names",
    );
    // Large ranges parse (their printed form: `tests/it/productions.rs`).
    assert!(parse(FileId(0), "switch s[0..999999]").is_ok());
    assert!(parse(FileId(0), "switch s[1..1000001]").is_ok());
    err(
        "switch s[1..2",
        "FAB006",
        8,
        1,
        "unclosed `[` in a name pattern",
    );
    err("description \"abc", "FAB002", 12, 4, "unterminated string");
    err(
        "mtu 9216\x00",
        "FAB008",
        8,
        1,
        "the input contains the control character U+0000",
    );
    err(
        "# é\u{7f}",
        "FAB008",
        4,
        1,
        "the input contains the control character U+007F",
    );
    err(
        "mtu 1\u{85}",
        "FAB008",
        5,
        2,
        "the input contains the control character U+0085",
    );
    err(
        "mtu 100\nimport \"x\"",
        "FAB011",
        8,
        6,
        "`import` must come before every other item of the file",
    );
    err(
        "fabric a { fabric b {} }",
        "FAB011",
        11,
        6,
        "a `fabric` block cannot be inside another `fabric` block",
    );
    err("fabric a {", "FAB001", 9, 1, "unclosed `{`");
    err("class a", "FAB001", 7, 0, "expected `{`, found end of file");
    err(
        "link a--b",
        "FAB001",
        5,
        4,
        "expected two ends separated by ` -- `, found `a--b`",
    );
    err(
        "link a --b",
        "FAB001",
        7,
        2,
        "`--` needs a space on each side",
    );
    err(
        "path a ->b",
        "FAB001",
        7,
        2,
        "`->` needs a space on each side",
    );
    err("}", "FAB001", 0, 1, "expected a statement, found `}`");
    err("{", "FAB001", 0, 1, "expected a statement, found `{`");
    err(
        "mtu 100 2",
        "FAB001",
        8,
        1,
        "expected the end of the statement, found `2`",
    );
    err("routing up", "FAB004", 8, 2, "unknown routing model `up`");
    err("check failure 1", "FAB004", 6, 7, "unknown check `failure`");
    err(
        "rewrite at a from b to c priority 3 4",
        "FAB001",
        36,
        1,
        "expected `->` and the new priority, found `4`",
    );
    err(
        "bounce-tagging 3",
        "FAB001",
        16,
        0,
        "expected `->` and the next priority, found end of file",
    );
    err(
        "class a { ecn }",
        "FAB001",
        14,
        1,
        "expected `off` or an ecn parameter (`min`, `max`, `probability`), found `}`",
    );
    err(
        "host h { ecn roce on }",
        "FAB001",
        18,
        2,
        "expected `off`, found `on`",
    );
    err(
        "host h { pfc maybe }",
        "FAB004",
        13,
        5,
        "unknown pfc setting `maybe`",
    );
    err(
        "tier t { name leaf-{rail }",
        "FAB006",
        19,
        5,
        "unclosed `{` in a name template",
    );
    err(
        "tier t { name leaf-{} }",
        "FAB006",
        19,
        1,
        "expected a placeholder after `{`, such as `{rail}`",
    );
    err(
        "tier 1 { }",
        "FAB001",
        5,
        1,
        "expected a tier name, such as `leaf`, found `1`",
    );
    err(
        "switch-model m { ports 64 400G }",
        "FAB001",
        26,
        4,
        "expected `x` and a port speed, found `400G`",
    );
    err(
        "class a { import \"x\" }",
        "FAB011",
        10,
        6,
        "`import` is only allowed at the top level of a file, not in a class block",
    );
    err(
        "switch Lé",
        "FAB001",
        8,
        2,
        "expected the end of the statement, found `é`",
    );
    err(
        "x".repeat(100).as_str(),
        "FAB004",
        0,
        100,
        &format!("unknown statement `{}…`", "x".repeat(40)),
    );
}

/// The text a span covers.
fn text(input: &str, span: Span) -> &str {
    &input[span.start as usize..span.end as usize]
}

#[test]
fn spans_cover_their_tokens() {
    let input = "# c\nfabric pod-a {\n  class roce { priority 3  ecn min 150KB max 1.5MB }\n  switch L[1..2], S { model m }\n}\n";
    let f = parse(FileId(7), input).expect("parses");
    let Item::Fabric(fab) = &f.items[0] else {
        panic!("not a fabric")
    };
    assert_eq!(fab.span.file, FileId(7));
    assert_eq!(text(input, fab.span), &input[4..input.len() - 1]);
    assert_eq!(text(input, fab.name.span), "pod-a");
    let StmtKind::Class(class) = &fab.body[0].kind else {
        panic!("not a class")
    };
    assert_eq!(
        text(input, fab.body[0].span),
        "class roce { priority 3  ecn min 150KB max 1.5MB }"
    );
    assert_eq!(text(input, class.span), text(input, fab.body[0].span));
    assert_eq!(text(input, class.name.span), "roce");
    assert_eq!(text(input, class.props[0].span), "priority 3");
    let ClassProp::Priority(p) = &class.props[0].node else {
        panic!("not a priority")
    };
    assert_eq!(text(input, p.span), "3");
    assert_eq!(text(input, class.props[1].span), "ecn min 150KB max 1.5MB");
    let ClassProp::Ecn(EcnSpec::Params(args)) = &class.props[1].node else {
        panic!("not ecn")
    };
    assert_eq!(text(input, args[1].span), "max 1.5MB");
    let StmtKind::Switch(sw) = &fab.body[1].kind else {
        panic!("not a switch")
    };
    assert_eq!(text(input, sw.names[0].span), "L[1..2]");
    assert_eq!(text(input, sw.names[1].span), "S");
    assert_eq!(text(input, sw.props[0].span), "model m");

    let input = "import \"a.fab\"\npath class roce h1 -> L1\nbounce-tagging 3 -> 4\ndescription \"x\\\"y\"\ntier t { name a-{rail} }";
    let f = parse(FileId(0), input).expect("parses");
    assert_eq!(text(input, f.imports[0].span), "import \"a.fab\"");
    assert_eq!(text(input, f.imports[0].path.span), "\"a.fab\"");
    assert_eq!(f.imports[0].path.node, "a.fab");
    let Item::Stmt(Stmt {
        kind: StmtKind::Path(path),
        span,
    }) = &f.items[0]
    else {
        panic!()
    };
    assert_eq!(text(input, *span), "path class roce h1 -> L1");
    assert_eq!(text(input, path.hops[1].span), "L1");
    let Item::Stmt(Stmt {
        kind: StmtKind::BounceTagging(ps),
        ..
    }) = &f.items[1]
    else {
        panic!()
    };
    assert_eq!(text(input, ps[1].span), "4");
    let Item::Stmt(Stmt {
        kind: StmtKind::Description(d),
        ..
    }) = &f.items[2]
    else {
        panic!()
    };
    assert_eq!(
        (text(input, d.span), d.node.as_str()),
        ("\"x\\\"y\"", "x\"y")
    );
    let Item::Stmt(Stmt {
        kind: StmtKind::Tier(t),
        ..
    }) = &f.items[3]
    else {
        panic!()
    };
    let TierProp::Name(tpl) = &t.props[0].node else {
        panic!()
    };
    assert_eq!(text(input, tpl.span), "a-{rail}");
    let TemplatePart::Placeholder(ph) = &tpl.parts[1] else {
        panic!()
    };
    assert_eq!(text(input, ph.span), "rail");
}

#[test]
fn pathological_inputs_are_quick() {
    let start = std::time::Instant::now();
    let braces = "{".repeat(10 << 20);
    err(&braces, "FAB001", 0, 1, "expected a statement, found `{`");
    let nested = format!("fabric a {{\n{}", "{".repeat(1 << 20));
    assert!(parse(FileId(0), &nested).is_err());
    let line = format!("switch {}", "a".repeat(1 << 20));
    assert!(parse(FileId(0), &line).is_ok());
    let list = format!("switch a{}", ", a".repeat(1 << 18));
    assert!(parse(FileId(0), &list).is_ok());
    let comments = "# c\n".repeat(1 << 18);
    assert!(parse(FileId(0), &comments).is_ok());
    let unclosed = format!("description \"{}", "a".repeat(1 << 20));
    assert!(parse(FileId(0), &unclosed).is_err());
    assert!(start.elapsed().as_secs() < 20, "took {:?}", start.elapsed());
}
