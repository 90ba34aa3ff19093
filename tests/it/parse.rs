//! The parser against its fixtures: every `.fab` under `fixtures/` and `grammar/` parses,
//! except those under an `err/` folder, which must fail with the code their name starts with
//! (`FAB004_misspelled_probability.fab`). Err files get a snapshot of the rendered error; ok
//! files a snapshot of their canonical printed form, and must survive print → parse → print.
//! Property tests: the parser never panics and keeps its spans inside the input; random trees
//! print and parse back to themselves.

use std::path::Path;

use fabricc::diagnostic::Diagnostic;
use fabricc::source::SourceFile;
use fabricc::span::FileId;
use fabricc::syntax::{self, ast};

/// `code: message`, the place, the source line and a caret under the span, then help: a stable
/// text form for snapshots (the real renderer lives in `diagnostic`).
fn render(d: &Diagnostic, src: &SourceFile) -> String {
    let start = src.line_col(d.primary.span.start as usize);
    let end = src.line_col(d.primary.span.end as usize);
    // Control characters (FAB008 files) would make the snapshot binary.
    let line: String = src
        .line_text(start.line)
        .chars()
        .map(|c| {
            if c.is_control() && c != '\t' {
                '\u{fffd}'
            } else {
                c
            }
        })
        .collect();
    let pad: String = line
        .chars()
        .take(start.column - 1)
        .map(|c| if c == '\t' { '\t' } else { ' ' })
        .collect();
    let width = if end.line == start.line {
        end.column.saturating_sub(start.column).max(1)
    } else {
        line.chars().count().saturating_sub(start.column - 1).max(1)
    };
    let mut out = format!(
        "{}: {}\n --> {}:{}\n",
        d.code, d.message, start.line, start.column
    );
    out.push_str(&format!("  | {line}\n  | {pad}{}", "^".repeat(width)));
    if !d.primary.text.is_empty() {
        out.push_str(&format!(" {}", d.primary.text));
    }
    out.push('\n');
    if let Some(help) = &d.help {
        out.push_str(&format!(" help: {help}\n"));
    }
    out
}

/// Debug text of a tree with every span blanked, to compare trees modulo spans.
fn without_spans(file: &ast::File) -> String {
    let text = format!("{file:#?}");
    let mut out = String::with_capacity(text.len());
    let mut rest = text.as_str();
    while let Some(k) = rest.find("Span {") {
        out.push_str(&rest[..k]);
        out.push_str("Span");
        let after = &rest[k..];
        let end = after.find('}').map_or(after.len(), |e| e + 1);
        rest = &after[end..];
    }
    out.push_str(rest);
    out
}

/// Every span of a tree (read from its Debug text) lies inside the input, on characters.
#[track_caller]
fn assert_spans_inside(tree: &ast::File, text: &str) {
    let debug = format!("{tree:?}");
    for piece in debug.split("Span { ").skip(1) {
        let num = |key: &str| -> usize {
            let k = piece.find(key).map_or(0, |k| k + key.len());
            piece[k..]
                .split(|c: char| !c.is_ascii_digit())
                .next()
                .and_then(|n| n.parse().ok())
                .unwrap_or(usize::MAX)
        };
        let (start, end) = (num("start: "), num("end: "));
        assert!(
            start <= end && end <= text.len(),
            "span {start}..{end} outside {}",
            text.len()
        );
        assert!(
            text.is_char_boundary(start) && text.is_char_boundary(end),
            "span {start}..{end} not on chars"
        );
    }
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

/// print → parse → print is stable, and the reparsed tree equals the tree modulo spans.
#[track_caller]
fn assert_round_trip(tree: &ast::File, what: &str) -> String {
    let printed = crate::printer::print(tree);
    let again = match syntax::parse(FileId(0), &printed) {
        Ok(t) => t,
        Err(d) => {
            let src = SourceFile::new("printed", "printed", printed.clone());
            panic!(
                "{what}: the printed form does not parse:\n{}\n{printed}",
                render(&d, &src)
            )
        }
    };
    assert_eq!(
        crate::printer::print(&again),
        printed,
        "{what}: print is not stable"
    );
    assert_eq!(
        without_spans(&again),
        without_spans(tree),
        "{what}: the tree changed"
    );
    printed
}

fn is_err_fixture(path: &Path) -> bool {
    path.components().any(|c| c.as_os_str() == "err")
}

#[test]
fn fixtures() {
    insta::glob!("../../fixtures/parse", "**/*.fab", check_file);
}

/// The example fabrics and the check fixtures are valid syntax too (their errors are semantic).
#[test]
fn fabric_fixtures() {
    insta::glob!("../../fixtures", "{fabrics,check}/**/*.fab", check_file);
}

#[test]
fn grammar_examples() {
    insta::glob!("../../grammar", "**/*.fab", check_file);
}

fn check_file(path: &Path) {
    let text = read(path);
    let src = SourceFile::new(path, path.display().to_string(), text.clone());
    let result = syntax::parse(FileId(0), &text);
    if is_err_fixture(path) {
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default();
        let expected = name.split('_').next().unwrap_or_default();
        match result {
            Ok(_) => panic!(
                "{}: parsed, but should fail with {expected}",
                path.display()
            ),
            Err(d) => {
                assert_eq!(
                    d.code.as_str(),
                    expected,
                    "{}: wrong code\n{}",
                    path.display(),
                    render(&d, &src)
                );
                assert!(d.primary.span.end as usize <= text.len());
                assert!(!d.message.ends_with('.'), "message ends with a period");
                assert!(
                    !d.message.starts_with(char::is_uppercase),
                    "message starts upper case"
                );
                assert!(d.help.is_some(), "{}: no help line", path.display());
                insta::assert_snapshot!(render(&d, &src));
            }
        }
    } else {
        match result {
            Ok(tree) => {
                assert_spans_inside(&tree, &text);
                let printed = assert_round_trip(&tree, &path.display().to_string());
                insta::assert_snapshot!(printed);
            }
            Err(d) => panic!("{}: does not parse\n{}", path.display(), render(&d, &src)),
        }
    }
}

// ---------------------------------------------------------------- property tests

/// The error, if any, points inside the input, on character boundaries; and whatever parses
/// prints and parses back to itself.
fn check_any(text: &str) {
    match syntax::parse(FileId(0), text) {
        Ok(tree) => {
            assert_spans_inside(&tree, text);
            assert_round_trip(&tree, "generated input");
        }
        Err(d) => {
            let (start, end) = (d.primary.span.start as usize, d.primary.span.end as usize);
            assert!(
                start <= end && end <= text.len(),
                "span {start}..{end} outside {}",
                text.len()
            );
            assert!(
                text.is_char_boundary(start) && text.is_char_boundary(end),
                "span not on chars"
            );
            assert!(
                !d.message.is_empty() && !d.message.ends_with('.'),
                "{}",
                d.message
            );
        }
    }
}

/// The texts of the fixtures that parse, to mutate.
fn ok_texts() -> Vec<String> {
    let mut texts = Vec::new();
    for dir in ["fixtures/parse/ok", "grammar/examples"] {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        let mut paths: Vec<_> = entries.filter_map(|e| e.ok()).map(|e| e.path()).collect();
        paths.sort();
        texts.extend(paths.iter().filter_map(|p| std::fs::read_to_string(p).ok()));
    }
    texts
}

/// The nearest character boundary at or below `k`.
fn floor_char(text: &str, k: usize) -> usize {
    let mut k = k.min(text.len());
    while !text.is_char_boundary(k) {
        k -= 1;
    }
    k
}

const TOKENS: &[&str] = &[
    "fabric",
    "import",
    "class",
    "switch",
    "host",
    "link",
    "tier",
    "switch-model",
    "nic-model",
    "mtu",
    "roce-mtu",
    "rtt",
    "pfc-watchdog",
    "routing",
    "route",
    "fail",
    "check",
    "path",
    "rewrite",
    "bounce-tagging",
    "allow",
    "dscp",
    "priority",
    "lossless",
    "lossy",
    "ecn",
    "min",
    "max",
    "probability",
    "off",
    "on",
    "other",
    "bandwidth",
    "strict",
    "cnp",
    "model",
    "nic",
    "x",
    "ports",
    "os",
    "sonic",
    "name",
    "at",
    "to",
    "via",
    "from",
    "failures",
    "speed",
    "cable",
    "count",
    "{",
    "}",
    ";",
    "\n",
    " ",
    "--",
    "->",
    ",",
    "[1..4]",
    "[",
    "]",
    "..",
    "150KB",
    "150",
    "3m",
    "50us",
    "10%",
    "1.067:1",
    "400G",
    "-2",
    "26",
    "24-31",
    "{rail}",
    "# c\n",
    "\"s\"",
    "\"",
    "\\",
    "a",
    "L1",
    "h1.nic3",
    "µ",
    "\r\n",
    "\t",
    "0.5",
    "9216",
];

fn token_soup() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(TOKENS), 0..60).prop_map(|ts| {
        let mut out = String::new();
        for t in ts {
            out.push_str(t);
            out.push(' ');
        }
        out
    })
}

#[derive(Debug, Clone)]
enum Mutation {
    Delete(usize, usize),
    Insert(usize, String),
    Truncate(usize),
    Duplicate(usize, usize),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        (any::<usize>(), 0..20usize).prop_map(|(k, n)| Mutation::Delete(k, n)),
        (any::<usize>(), prop_oneof![token_soup(), any::<String>()])
            .prop_map(|(k, s)| Mutation::Insert(k, s)),
        any::<usize>().prop_map(Mutation::Truncate),
        (any::<usize>(), 0..40usize).prop_map(|(k, n)| Mutation::Duplicate(k, n)),
    ]
}

fn mutate(text: &str, mutations: &[Mutation]) -> String {
    let mut t = text.to_string();
    for m in mutations {
        let len = t.len().max(1);
        match m {
            Mutation::Delete(k, n) => {
                let a = floor_char(&t, k % len);
                let b = floor_char(&t, a + n);
                t.replace_range(a..b, "");
            }
            Mutation::Insert(k, s) => {
                let a = floor_char(&t, k % len);
                t.insert_str(a, s);
            }
            Mutation::Truncate(k) => {
                let a = floor_char(&t, k % len);
                t.truncate(a);
            }
            Mutation::Duplicate(k, n) => {
                let a = floor_char(&t, k % len);
                let b = floor_char(&t, a + n);
                let piece = t[a..b].to_string();
                t.insert_str(b, &piece);
            }
        }
    }
    t
}

use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn never_panics_on_any_string(text in any::<String>()) {
        check_any(&text);
    }

    #[test]
    fn never_panics_on_printable_text(text in "[ -~\n\tµ]{0,200}") {
        check_any(&text);
    }

    #[test]
    fn never_panics_on_token_soup(text in token_soup()) {
        check_any(&text);
    }

    #[test]
    fn never_panics_on_mutated_fixtures(
        pick in any::<prop::sample::Index>(),
        mutations in prop::collection::vec(mutation(), 1..4),
    ) {
        let texts = ok_texts();
        prop_assume!(!texts.is_empty());
        let text = mutate(&texts[pick.index(texts.len())], &mutations);
        check_any(&text);
    }

    #[test]
    fn random_trees_round_trip(tree in trees::file()) {
        let printed = crate::printer::print(&tree);
        let refused = syntax::bounds::check_tree(&tree);
        let parsed = match syntax::parse(FileId(0), &printed) {
            Ok(t) => t,
            Err(d) if !refused.is_empty() => {
                // Out of a bound: the parser and the tree check (the YAML form's) agree.
                prop_assert_eq!(d.code.as_str(), "FAB005", "{}", printed);
                prop_assert!(refused.iter().all(|r| r.code.as_str() == "FAB005"));
                return Ok(());
            }
            Err(d) => {
                let src = SourceFile::new("printed", "printed", printed.clone());
                panic!("the printed tree does not parse:\n{}\n{printed}", render(&d, &src));
            }
        };
        prop_assert!(refused.is_empty(), "the parser took what check_tree refuses: {:?}\n{}", refused, printed);
        prop_assert_eq!(without_spans(&parsed), without_spans(&tree));
        prop_assert_eq!(crate::printer::print(&parsed), printed);
    }
}

/// Strategies for syntax trees with valid names and values (spans all zero).
mod trees {
    use fabricc::span::{Span, Spanned};
    use fabricc::syntax::ast::*;
    use fabricc::syntax::bounds;
    use proptest::collection::vec;
    use proptest::prelude::*;

    fn s<T>(node: T) -> Spanned<T> {
        Spanned::new(node, Span::default())
    }

    fn name() -> impl Strategy<Value = String> {
        "[A-Za-z_][A-Za-z0-9_.-]{0,6}"
    }

    fn ident() -> impl Strategy<Value = Ident> {
        name().prop_map(s)
    }

    fn text() -> impl Strategy<Value = String> {
        "[ -~µ]{0,10}"
    }

    /// Mostly inside the grammar's bound, sometimes any u64: a value outside must be refused
    /// by the parser and by `bounds::check_tree` alike.
    fn quantity(b: bounds::Bound) -> impl Strategy<Value = u64> {
        prop_oneof![9 => b.lo..=b.hi, 1 => any::<u64>()]
    }

    fn size() -> impl Strategy<Value = Size> {
        prop_oneof![
            quantity(bounds::SIZE_BYTES).prop_map(Size::Bytes),
            quantity(bounds::SIZE_CELLS).prop_map(Size::Cells)
        ]
    }

    fn speed() -> impl Strategy<Value = Speed> {
        quantity(bounds::SPEED).prop_map(Speed)
    }

    fn time() -> impl Strategy<Value = Time> {
        quantity(bounds::TIME).prop_map(Time)
    }

    fn length() -> impl Strategy<Value = Length> {
        quantity(bounds::LENGTH).prop_map(Length)
    }

    fn percent() -> impl Strategy<Value = Percent> {
        (0..=100_000u64).prop_map(Percent)
    }

    fn priority() -> impl Strategy<Value = Spanned<u8>> {
        (0..=7u8).prop_map(s)
    }

    fn range_item() -> impl Strategy<Value = RangeItem> {
        (0..2000u64, 0..50u64, 0..3usize).prop_map(|(lo, extra, pad)| {
            // A width only shows when the low bound gets a leading zero.
            let width = if pad == 0 {
                0
            } else {
                lo.to_string().len() + pad
            };
            RangeItem {
                lo,
                hi: lo + extra,
                width,
            }
        })
    }

    fn pattern() -> impl Strategy<Value = NamePattern> {
        (
            name(),
            vec(
                (
                    vec(range_item(), 1..3),
                    prop::option::of("[A-Za-z0-9_.-]{1,4}"),
                ),
                0..3,
            ),
        )
            .prop_map(|(first, rest)| {
                let mut segments = vec![Segment::Text(first)];
                for (items, text) in rest {
                    segments.push(Segment::Range(items));
                    if let Some(t) = text {
                        segments.push(Segment::Text(t));
                    }
                }
                NamePattern {
                    segments,
                    span: Span::default(),
                }
            })
    }

    fn patterns() -> impl Strategy<Value = Vec<NamePattern>> {
        vec(pattern(), 1..4)
    }

    fn placeholder() -> impl Strategy<Value = TemplatePart> {
        prop::sample::select(&["tier", "n", "rail", "group", "pod", "plane", "index"][..])
            .prop_map(|p| TemplatePart::Placeholder(s(p.to_string())))
    }

    fn template() -> impl Strategy<Value = NameTemplate> {
        (
            prop_oneof![name().prop_map(TemplatePart::Text), placeholder()],
            vec(
                (placeholder(), prop::option::of("[A-Za-z0-9_.-]{1,4}")),
                0..3,
            ),
        )
            .prop_map(|(first, rest)| {
                let mut parts = vec![first];
                for (p, text) in rest {
                    parts.push(p);
                    if let Some(t) = text {
                        parts.push(TemplatePart::Text(t));
                    }
                }
                NameTemplate {
                    parts,
                    span: Span::default(),
                }
            })
    }

    /// Thresholds all sizes or all fill levels (a mix is a syntax error), fill levels with
    /// every `min` below every `max` (else a syntax error).
    fn ecn_spec() -> impl Strategy<Value = EcnSpec> {
        let sized = prop_oneof![
            size().prop_map(|v| EcnArg::Min(EcnLevel::Size(v))),
            size().prop_map(|v| EcnArg::Max(EcnLevel::Size(v))),
            percent().prop_map(EcnArg::Probability),
        ];
        let filled = prop_oneof![
            (1..50_000u64).prop_map(|v| EcnArg::Min(EcnLevel::Fill(Percent(v)))),
            (50_001..=100_000u64).prop_map(|v| EcnArg::Max(EcnLevel::Fill(Percent(v)))),
            percent().prop_map(EcnArg::Probability),
        ];
        prop_oneof![
            Just(EcnSpec::Off),
            vec(sized.prop_map(s), 1..4).prop_map(EcnSpec::Params),
            vec(filled.prop_map(s), 1..4).prop_map(EcnSpec::Params)
        ]
    }

    fn watchdog() -> impl Strategy<Value = Watchdog> {
        let action = prop_oneof![
            Just(WatchdogAction::Drop),
            Just(WatchdogAction::Forward),
            Just(WatchdogAction::Alert)
        ];
        let arg = prop_oneof![
            time().prop_map(WatchdogArg::Detect),
            time().prop_map(WatchdogArg::Restore),
            time().prop_map(WatchdogArg::Poll),
            action.prop_map(WatchdogArg::Action),
        ];
        prop_oneof![
            Just(WatchdogSetting::Off),
            vec(arg.prop_map(s), 0..4).prop_map(WatchdogSetting::On)
        ]
        .prop_map(|setting| Watchdog {
            setting,
            span: Span::default(),
        })
    }

    fn class_prop() -> impl Strategy<Value = ClassProp> {
        let dscp = prop_oneof![
            Just(DscpSpec::Other),
            vec(
                (0..=63u8, 0..=63u8).prop_map(|(a, b)| s((a.min(b), a.max(b)))),
                1..4
            )
            .prop_map(DscpSpec::Values),
        ];
        prop_oneof![
            dscp.prop_map(ClassProp::Dscp),
            priority().prop_map(ClassProp::Priority),
            any::<bool>().prop_map(ClassProp::Lossless),
            prop_oneof![Just(Congestion::Dcqcn), Just(Congestion::None)]
                .prop_map(ClassProp::Congestion),
            ecn_spec().prop_map(ClassProp::Ecn),
            percent().prop_map(|p| ClassProp::Bandwidth(s(p))),
            Just(ClassProp::Strict),
            size().prop_map(|v| ClassProp::PfcThreshold(s(v))),
            Just(ClassProp::Cnp),
        ]
    }

    fn class() -> impl Strategy<Value = ClassDecl> {
        (ident(), vec(class_prop().prop_map(s), 0..5)).prop_map(|(name, props)| ClassDecl {
            name,
            props,
            span: Span::default(),
        })
    }

    fn switch_model() -> impl Strategy<Value = SwitchModelDecl> {
        let os = prop::sample::select(&Os::ALL[..]);
        let breakout = prop::option::of(
            (2..=8u64, speed()).prop_map(|(ways, speed)| Breakout { ways, speed }),
        );
        let group = (1..=u64::MAX, speed(), breakout).prop_map(|(count, speed, breakout)| {
            s(PortGroup {
                count,
                speed,
                breakout,
            })
        });
        let buffer_model = prop::sample::select(&BufferModel::ALL[..]);
        let prop = prop_oneof![
            platform().prop_map(SwitchModelProp::Platform),
            buffer_model.prop_map(SwitchModelProp::BufferModel),
            os.prop_map(|o| SwitchModelProp::Os(o, None)),
            (0..=99u16, 0..=99u16).prop_map(|(major, minor)| SwitchModelProp::Os(
                Os::Cumulus,
                Some(OsRelease { major, minor })
            )),
            vec(group, 1..3).prop_map(SwitchModelProp::Ports),
            size().prop_map(SwitchModelProp::Buffer),
            (1..=8u8).prop_map(SwitchModelProp::LosslessLimit),
            size().prop_map(SwitchModelProp::Cell),
            (-8..=7i8).prop_map(SwitchModelProp::DynamicThreshold),
            text().prop_map(SwitchModelProp::Description),
        ];
        (ident(), vec(prop.prop_map(s), 0..5)).prop_map(|(name, props)| SwitchModelDecl {
            name,
            props,
            span: Span::default(),
        })
    }

    /// A platform name: one of the catalogue's, or any name (the parser does not look it up).
    fn platform() -> impl Strategy<Value = Spanned<String>> {
        let known: Vec<String> = fabricc::catalogue::catalogue()
            .names()
            .map(str::to_string)
            .collect();
        prop_oneof![prop::sample::select(known).prop_map(s), ident()]
    }

    fn nic_model() -> impl Strategy<Value = NicModelDecl> {
        let prop = prop_oneof![
            platform().prop_map(NicModelProp::Platform),
            ident().prop_map(NicModelProp::Driver),
            speed().prop_map(NicModelProp::Speed),
            size().prop_map(NicModelProp::Buffer),
        ];
        (ident(), vec(prop.prop_map(s), 0..4)).prop_map(|(name, props)| NicModelDecl {
            name,
            props,
            span: Span::default(),
        })
    }

    fn switch() -> impl Strategy<Value = SwitchDecl> {
        let prop = prop_oneof![
            ident().prop_map(SwitchProp::Model),
            (1..=255u8).prop_map(|t| SwitchProp::Tier(s(t))),
            (68..=9216u64).prop_map(|m| SwitchProp::Mtu(s(m))),
            text().prop_map(|d| SwitchProp::Description(s(d))),
            class().prop_map(SwitchProp::Class),
            (ident(), ecn_spec()).prop_map(|(class, spec)| SwitchProp::Ecn { class, spec }),
            (ident(), size()).prop_map(|(class, v)| SwitchProp::Headroom { class, size: s(v) }),
            (ident(), size()).prop_map(|(class, v)| SwitchProp::PfcThreshold { class, size: s(v) }),
            watchdog().prop_map(SwitchProp::Watchdog),
        ];
        (patterns(), vec(prop.prop_map(s), 0..4)).prop_map(|(names, props)| SwitchDecl {
            names,
            props,
            span: Span::default(),
        })
    }

    fn host() -> impl Strategy<Value = HostDecl> {
        let prop = prop_oneof![
            (
                ident(),
                prop::option::of((1..=u64::MAX).prop_map(s)),
                prop::option::of(
                    prop::sample::select(vec![
                        NicRole::Backend,
                        NicRole::Storage,
                        NicRole::Frontend
                    ])
                    .prop_map(s)
                ),
            )
                .prop_map(|(model, count, role)| HostProp::Nic { model, count, role }),
            patterns().prop_map(HostProp::Netdev),
            patterns().prop_map(HostProp::RdmaDevice),
            class().prop_map(HostProp::Class),
            any::<bool>().prop_map(HostProp::Pfc),
            prop::option::of(ident()).prop_map(|class| HostProp::EcnOff { class }),
        ];
        (patterns(), vec(prop.prop_map(s), 0..4)).prop_map(|(names, props)| HostDecl {
            names,
            props,
            span: Span::default(),
        })
    }

    fn link() -> impl Strategy<Value = LinkDecl> {
        let prop = prop_oneof![
            speed().prop_map(LinkProp::Speed),
            length().prop_map(LinkProp::Cable),
            (1..=u64::MAX).prop_map(LinkProp::Count),
        ];
        (pattern(), pattern(), vec(prop.prop_map(s), 0..3)).prop_map(|(a, b, props)| LinkDecl {
            a,
            b,
            props,
            span: Span::default(),
        })
    }

    fn tier() -> impl Strategy<Value = TierDecl> {
        let ratio = (1..=u64::MAX, 1..=u64::MAX).prop_map(|(down, up)| Ratio { down, up });
        let prop = prop_oneof![
            ident().prop_map(TierProp::Model),
            ratio.prop_map(TierProp::Oversubscription),
            length().prop_map(TierProp::Cable),
            template().prop_map(TierProp::Name),
            any::<u64>().prop_map(TierProp::Downlinks),
            any::<u64>().prop_map(TierProp::Uplinks),
            any::<u64>().prop_map(TierProp::Switches),
            (1..=16u64).prop_map(TierProp::Planes),
            prop::sample::select(&[WiringStyle::Rail, WiringStyle::Rack][..])
                .prop_map(TierProp::Wiring),
            Just(TierProp::DualTor),
            (1..=64u64).prop_map(TierProp::PeerLink),
        ];
        (ident(), vec(prop.prop_map(s), 0..4)).prop_map(|(name, props)| TierDecl {
            name,
            props,
            span: Span::default(),
        })
    }

    /// `load-balance { … }` with any properties (issue 20 item 4).
    fn load_balance() -> impl Strategy<Value = LoadBalanceDecl> {
        let field = prop::sample::select(&HashField::ALL[..]).prop_map(s);
        let mode = prop::sample::select(
            &[
                LbMode::Ecmp,
                LbMode::Flowlet,
                LbMode::PerPacket,
                LbMode::Adaptive,
            ][..],
        );
        let prop = prop_oneof![
            vec(field, 1..4).prop_map(LbProp::Hash),
            mode.prop_map(LbProp::Mode),
            time().prop_map(LbProp::FlowletGap),
            Just(LbProp::Seed(LbSeed::PerTier)),
            (0..=u64::from(u32::MAX)).prop_map(|n| LbProp::Seed(LbSeed::Fixed(n))),
            (1..=128u64).prop_map(LbProp::QpsPerConnection),
            any::<bool>().prop_map(LbProp::SplitDataOnQps),
        ];
        vec(prop.prop_map(s), 1..5).prop_map(|props| LoadBalanceDecl {
            props,
            span: Span::default(),
        })
    }

    fn stmt_kind() -> impl Strategy<Value = StmtKind> {
        let settings = prop_oneof![
            (68..=9216u64).prop_map(|v| StmtKind::Mtu(s(v))),
            prop::sample::select(&[256u64, 512, 1024, 2048, 4096][..])
                .prop_map(|v| StmtKind::RoceMtu(s(v))),
            time().prop_map(|t| StmtKind::Rtt(s(t))),
            text().prop_map(|d| StmtKind::Description(s(d))),
            watchdog().prop_map(StmtKind::Watchdog),
            class().prop_map(StmtKind::Class),
            prop::sample::select(&BufferModel::ALL[..]).prop_map(|m| StmtKind::BufferModel(s(m))),
            load_balance().prop_map(StmtKind::LoadBalance),
        ];
        let devices = prop_oneof![
            switch_model().prop_map(StmtKind::SwitchModel),
            nic_model().prop_map(StmtKind::NicModel),
            switch().prop_map(StmtKind::Switch),
            host().prop_map(StmtKind::Host),
            link().prop_map(StmtKind::Link),
            tier().prop_map(StmtKind::Tier),
        ];
        let routing = prop_oneof![
            prop_oneof![
                Just(RoutingModel::Updown),
                Just(RoutingModel::Shortest),
                Just(RoutingModel::None)
            ]
            .prop_map(|r| StmtKind::Routing(s(r))),
            (ident(), ident(), ident()).prop_map(|(at, to, via)| StmtKind::Route(RouteStmt {
                at,
                to,
                via
            })),
            (pattern(), pattern()).prop_map(|(a, b)| StmtKind::Fail(FailStmt { a, b })),
            (0..=2u64).prop_map(|n| StmtKind::CheckFailures(s(n))),
            (prop::option::of(ident()), vec(ident(), 2..5))
                .prop_map(|(class, hops)| StmtKind::Path(PathStmt { class, hops })),
            (ident(), ident(), ident(), priority(), priority()).prop_map(
                |(at, from, to, old, new)| {
                    StmtKind::Rewrite(RewriteStmt {
                        at,
                        from,
                        to,
                        old,
                        new,
                    })
                }
            ),
            vec(priority(), 2..4).prop_map(StmtKind::BounceTagging),
        ];
        prop_oneof![settings, devices, routing]
    }

    fn stmt() -> impl Strategy<Value = Stmt> {
        stmt_kind().prop_map(|kind| Stmt {
            kind,
            span: Span::default(),
        })
    }

    fn item() -> impl Strategy<Value = Item> {
        let fabric = (
            prop_oneof![
                name().prop_map(|n| (n, false)),
                text().prop_map(|t| (t, true))
            ],
            vec(stmt(), 0..4),
        )
            .prop_map(|((name, quoted), body)| {
                Item::Fabric(FabricBlock {
                    name: s(name),
                    quoted,
                    body,
                    span: Span::default(),
                })
            });
        prop_oneof![1 => fabric, 3 => stmt().prop_map(Item::Stmt)]
    }

    pub fn file() -> impl Strategy<Value = File> {
        let import = text().prop_map(|p| Import {
            path: s(p),
            span: Span::default(),
        });
        (vec(import, 0..3), vec(item(), 0..6)).prop_map(|(imports, items)| File { imports, items })
    }
}
