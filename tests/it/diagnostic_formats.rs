//! Every output format over one fixed set of synthetic diagnostics, snapshotted with insta.
//!
//! The set covers what renderers get wrong: a multi-line span, secondary labels (one in
//! another file), a deadlock cycle, every severity, notes, and text that needs escaping
//! (`"`, `%`, `,`, `:`, a line break) in a message, a help and a file name.

use fabricc::analysis::Facts;
use fabricc::analysis::facts::{DeadlockFacts, HeadroomRow, OversubscriptionRow, Unreachable};
use fabricc::diagnostic::github::render_github;
use fabricc::diagnostic::human::{HumanStyle, cycle_chain, render_human, summary};
use fabricc::diagnostic::json::render_json;
use fabricc::diagnostic::sarif::render_sarif;
use fabricc::diagnostic::short::render_short;
use fabricc::diagnostic::{Code, CycleHop, Diagnostic, Severity, sort};
use fabricc::source::{SourceFile, Sources};
use fabricc::span::{FileId, Span};
use serde_json::Value;

const POD: &str = "\
fabric pod-a {
  class roce { dscp 26  priority 3  lossless }
  class bulk { dscp 26  priority 0  bandwidth 40% }
  switch-model s9300 { os sonic  ports 64 x 400G  buffer 64MB }
  switch L1, L2 { model s9300  tier 1 }
  switch S1 { model s9300  tier 2 }
  host h1 { nic cx7 }
  link L1 -- S1 { cable 30m }
  link L2 -- S1 {
    cable 30m
  }
  link h1 -- sw\"1 { cable 2m }
}
";

const IMPORTED: &str = "class cnp { dscp 48  priority 6  strict  cnp }\n";

/// The span of the `nth` (0-based) occurrence of `needle` in `text`.
#[track_caller]
fn find(file: FileId, text: &str, needle: &str, nth: usize) -> Span {
    let (start, _) = text
        .match_indices(needle)
        .nth(nth)
        .expect("needle in fixture");
    Span::new(file, start, start + needle.len())
}

fn fixture() -> (Sources, Vec<Diagnostic>) {
    let mut sources = Sources::new();
    // A display path with a space, a comma and a colon: SARIF must encode it, GitHub escape it.
    let pod = sources.add(SourceFile::new(
        "pods/pod a,b:c.fab",
        "pods/pod a,b:c.fab",
        POD.into(),
    ));
    let imported = sources.add(SourceFile::new(
        "classes.fab",
        "classes.fab",
        IMPORTED.into(),
    ));

    let block_start = find(pod, POD, "link L2 -- S1 {", 0);
    let block_end = find(pod, POD, "  }\n", 0);
    let multi_line = Span::new(pod, block_start.start as usize, block_end.end as usize - 1);

    let mut diags = vec![
        Diagnostic::new(
            Code::DscpOverlap,
            find(pod, POD, "dscp 26", 1),
            "DSCP 26 is claimed by `roce` and `bulk`",
        )
        .label("claimed again here")
        .with_secondary(find(pod, POD, "dscp 26", 0), "first claimed by `roce`")
        .with_secondary(
            find(imported, IMPORTED, "dscp 48", 0),
            "`cnp` uses another DSCP",
        )
        .help("give each class its own DSCP values")
        .note("switches would put DSCP 26 in priority 3 on some hops and priority 0 on others"),
        // The registry has no deadlock code yet; the renderers only care that a cycle is set.
        Diagnostic {
            cycle: Some(vec![
                CycleHop {
                    switch: "L2".into(),
                    from: "S1".into(),
                    priority: 3,
                },
                CycleHop {
                    switch: "S1".into(),
                    from: "L2".into(),
                    priority: 3,
                },
            ]),
            ..Diagnostic::new(
                Code::PriorityConflict,
                multi_line,
                "PFC can deadlock on priority 3",
            )
            .label("this link closes the cycle")
            .with_secondary(
                find(pod, POD, "link L1 -- S1", 0),
                "traffic enters the cycle here",
            )
            .help("keep valley-free routing, or move bounced traffic to another lossless priority")
        },
        Diagnostic::new(
            Code::Oversubscription,
            find(pod, POD, "switch S1", 0),
            "`S1` is wired 2:1 but declared 1:1",
        )
        .label("declared here"),
        Diagnostic::new(
            Code::IncompleteRail,
            find(pod, POD, "host h1", 0),
            "`h1` has one NIC; rail 2 has no member",
        )
        .severity(Severity::Advice),
        Diagnostic::new(
            Code::Undefined,
            find(pod, POD, "sw\"1", 0),
            "switch `sw\"1` is not declared: 100% of 2, a:b\r\nsecond line",
        )
        .label("used here")
        .help("declare it with `switch sw1 { … }`,\nor fix the name"),
    ];
    sort(&mut diags);
    (sources, diags)
}

fn facts() -> Facts {
    Facts {
        switches: 3,
        hosts: 1,
        links: 3,
        deadlock: Some(DeadlockFacts {
            scenarios: 1,
            possible: true,
            complete: true,
            unreachable_pairs: 1,
            own_cable_pairs: 0,
            destinations: "nic".into(),
            endpoints: 2,
            proven: 1,
        }),
        unreachable: vec![Unreachable {
            from: "h1".into(),
            to: "h2".into(),
            scenario: vec!["L2--S1".into()],
            from_nic: "h1.nic1".into(),
            to_nic: "h2.nic1".into(),
        }],
        oversubscription: vec![OversubscriptionRow {
            switch: "S1".into(),
            down_gbps: 800,
            up_gbps: 0,
            ratio: None,
        }],
        headroom: vec![HeadroomRow {
            switch: "L1".into(),
            peer: "S1".into(),
            priority: 3,
            speed_gbps: 400,
            cable_m: serde_json::Number::from(30),
            mtu: 9216,
            required_bytes: 91476,
            configured_bytes: 91476,
            pause_threshold_bytes: None,
        }],
        ecn: Vec::new(),
    }
}

#[test]
fn human() {
    let (sources, diags) = fixture();
    let text = render_human(
        &diags,
        &sources,
        HumanStyle {
            color: false,
            width: 80,
        },
    );
    insta::assert_snapshot!(text);
}

#[test]
fn human_summary() {
    let (_, diags) = fixture();
    assert_eq!(summary(&diags), "3 errors, 1 warning, 1 advice");
    assert_eq!(summary(&diags[..0]), "no findings");
    let one: Vec<Diagnostic> = diags
        .iter()
        .filter(|d| d.severity != Severity::Error)
        .cloned()
        .collect();
    assert_eq!(summary(&one), "1 warning, 1 advice");
    let errors: Vec<Diagnostic> = diags
        .iter()
        .filter(|d| d.is_error())
        .take(1)
        .cloned()
        .collect();
    assert_eq!(summary(&errors), "1 error");
}

#[test]
fn cycle_chain_closes_the_loop() {
    let hops = [
        CycleHop {
            switch: "L2".into(),
            from: "S1".into(),
            priority: 3,
        },
        CycleHop {
            switch: "S1".into(),
            from: "L2".into(),
            priority: 3,
        },
    ];
    assert_eq!(cycle_chain(&hops), "L2 ←S1 (p3) → S1 ←L2 (p3) → back to L2");
    assert_eq!(cycle_chain(&[]), "");
}

#[test]
fn short() {
    let (sources, diags) = fixture();
    let text = render_short(&diags, &sources);
    assert_eq!(text.lines().count(), diags.len(), "one line per diagnostic");
    insta::assert_snapshot!(text);
}

#[test]
fn json() {
    let (sources, diags) = fixture();
    let text = render_json(Some("pod-a"), &diags, Some(&facts()), &sources);
    let value: Value = serde_json::from_str(&text).expect("valid JSON");
    // The contract's fields come first and in the contract's order. `Value` sorts its keys,
    // so read the order from the text: a finding's own keys sit at six spaces of indent.
    let contract = [
        "code",
        "severity",
        "category",
        "message",
        "help",
        "file",
        "line",
        "column",
        "end_line",
        "end_column",
    ];
    let findings_text =
        &text[text.find("\"findings\"").expect("findings")..text.find("\"facts\"").expect("facts")];
    let mut keys: Vec<Vec<&str>> = Vec::new();
    for line in findings_text.lines() {
        if line == "    {" {
            keys.push(Vec::new());
        } else if let Some(key) = line
            .strip_prefix("      \"")
            .and_then(|l| l.split('"').next())
        {
            keys.last_mut().expect("inside a finding").push(key);
        }
    }
    assert_eq!(keys.len(), diags.len());
    for finding_keys in &keys {
        assert_eq!(&finding_keys[..contract.len()], contract);
    }
    for finding in value["findings"].as_array().expect("findings") {
        let is_deadlock = finding["message"]
            .as_str()
            .is_some_and(|m| m.contains("deadlock"));
        assert_eq!(finding.get("cycle").is_some(), is_deadlock);
    }
    assert!(text.ends_with("}\n"));
    insta::assert_snapshot!(text);
}

#[test]
fn json_without_fabric_or_facts() {
    let (sources, diags) = fixture();
    let text = render_json(None, &diags[..1], None, &sources);
    let value: Value = serde_json::from_str(&text).expect("valid JSON");
    assert_eq!(value["fabric"], Value::Null);
    assert!(value.get("facts").is_none());
    let empty = render_json(Some("pod-a"), &[], None, &sources);
    assert_eq!(
        empty,
        "{\n  \"fabric\": \"pod-a\",\n  \"findings\": []\n}\n"
    );
    insta::assert_snapshot!(text);
}

#[test]
fn github() {
    let (sources, diags) = fixture();
    let text = render_github(&diags, &sources);
    assert_eq!(
        text.lines().count(),
        diags.len(),
        "one command per diagnostic"
    );
    // The file name holds `,` and `:`, which would end a property value.
    assert!(
        text.lines()
            .all(|l| l.contains("file=pods/pod a%2Cb%3Ac.fab,"))
    );
    // The multi-line span keeps lines but drops columns.
    assert!(text.contains("::error file=pods/pod a%2Cb%3Ac.fab,line=9,endLine=11,title="));
    insta::assert_snapshot!(text);
}

#[test]
fn sarif() {
    let (sources, diags) = fixture();
    let text = render_sarif(&diags, &sources);
    let mut value: Value = serde_json::from_str(&text).expect("valid JSON");

    assert_eq!(value["version"], "2.1.0");
    assert!(
        value["$schema"]
            .as_str()
            .is_some_and(|s| s.contains("sarif"))
    );
    let run = &value["runs"][0];
    let driver = &run["tool"]["driver"];
    assert_eq!(driver["name"], "fabricc");
    assert_eq!(driver["version"], env!("CARGO_PKG_VERSION"));
    assert!(driver["informationUri"].is_string());

    let rules = driver["rules"].as_array().expect("rules");
    let ids: Vec<String> = rules
        .iter()
        .map(|r| r["id"].as_str().expect("id").to_string())
        .collect();
    let mut sorted = ids.clone();
    sorted.sort_unstable();
    assert_eq!(ids, sorted, "rules sorted by id");
    assert_eq!(ids.len(), Code::ALL.len(), "one rule per code");
    for rule in rules {
        for key in ["name", "helpUri"] {
            assert!(rule[key].is_string(), "{key} in {rule}");
        }
        for path in [
            "/shortDescription/text",
            "/fullDescription/text",
            "/help/text",
            "/help/markdown",
            "/defaultConfiguration/level",
        ] {
            assert!(
                rule.pointer(path).is_some_and(Value::is_string),
                "{path} in {}",
                rule["id"]
            );
        }
    }

    let results = run["results"].as_array().expect("results");
    assert_eq!(results.len(), diags.len());
    for result in results {
        let rule_index = result["ruleIndex"].as_u64().expect("ruleIndex") as usize;
        assert_eq!(rules[rule_index]["id"], result["ruleId"]);
        assert!(["error", "warning", "note"].contains(&result["level"].as_str().expect("level")));
        assert!(result["message"]["text"].is_string());
        let location = &result["locations"][0]["physicalLocation"];
        assert_eq!(
            location["artifactLocation"]["uri"],
            "pods/pod%20a%2Cb%3Ac.fab"
        );
        for key in ["startLine", "startColumn", "endLine", "endColumn"] {
            assert!(
                location["region"][key].as_u64().is_some_and(|n| n >= 1),
                "{key}"
            );
        }
    }

    // The rules are the registry with its explanations: `tests/codes.rs` covers those, so
    // the snapshot keeps only their ids and does not churn with every docs edit.
    let driver = value.pointer_mut("/runs/0/tool/driver").expect("driver");
    driver["rules"] = Value::from(ids);
    driver["version"] = Value::from("[version]");
    insta::assert_json_snapshot!(value);
}

#[test]
fn sarif_rule_help_is_the_explanation() {
    let (sources, _) = fixture();
    let value: Value = serde_json::from_str(&render_sarif(&[], &sources)).expect("valid JSON");
    let rules = value
        .pointer("/runs/0/tool/driver/rules")
        .and_then(Value::as_array)
        .expect("rules");
    for (rule, code) in rules.iter().zip(Code::ALL.iter()) {
        assert_eq!(rule["id"], code.as_str());
        assert_eq!(rule["help"]["markdown"], code.explanation());
        assert_eq!(rule["helpUri"], format!("https://fabricc.dev/codes/{code}"));
    }
    assert_eq!(
        value.pointer("/runs/0/results"),
        Some(&Value::Array(Vec::new()))
    );
}

/// Spans a buggy pass could produce — empty at the end of the file, past the end, inside a
/// multi-byte character — still render in every format instead of panicking.
#[test]
fn odd_spans_render_everywhere() {
    let text = "class römisch { dscp 26 }";
    let mut sources = Sources::new();
    let file = sources.add(SourceFile::new("odd.fab", "odd.fab", text.into()));
    let at = |start, end| Span { file, start, end };
    let end = text.len() as u32;
    let diags: Vec<Diagnostic> = [at(end, end), at(end + 5, end + 9), at(8, 9), at(0, 0)]
        .into_iter()
        .map(|span| Diagnostic::new(Code::SyntaxError, span, "expected `}`").label("here"))
        .collect();
    let human = render_human(
        &diags,
        &sources,
        HumanStyle {
            color: false,
            width: 80,
        },
    );
    assert_eq!(
        human
            .matches("run `fabricc explain FAB001` for details")
            .count(),
        diags.len()
    );
    assert_eq!(render_short(&diags, &sources).lines().count(), diags.len());
    assert_eq!(render_github(&diags, &sources).lines().count(), diags.len());
    let json: Value =
        serde_json::from_str(&render_json(None, &diags, None, &sources)).expect("json");
    assert_eq!(json["findings"].as_array().map(Vec::len), Some(diags.len()));
    let sarif: Value = serde_json::from_str(&render_sarif(&diags, &sources)).expect("sarif");
    assert_eq!(
        sarif
            .pointer("/runs/0/results")
            .and_then(Value::as_array)
            .map(Vec::len),
        Some(diags.len())
    );
}

#[test]
fn human_color_is_only_on_request() {
    let (sources, diags) = fixture();
    let plain = render_human(
        &diags,
        &sources,
        HumanStyle {
            color: false,
            width: 80,
        },
    );
    let colored = render_human(
        &diags,
        &sources,
        HumanStyle {
            color: true,
            width: 80,
        },
    );
    assert!(!plain.contains('\u{1b}'), "no escape codes without colour");
    assert!(colored.contains('\u{1b}'), "escape codes with colour");
}

/// A control character in a name or message must not reach the terminal raw.
#[test]
fn human_escapes_control_characters() {
    let mut sources = Sources::new();
    let file = sources.add(SourceFile::new("x.fab", "x.fab", "switch L1\n".into()));
    let diag = Diagnostic::new(
        Code::Undefined,
        Span::new(file, 7, 9),
        "switch `L\u{1b}[2J1` is not declared",
    )
    .help("rename `\u{7}`");
    let text = render_human(
        &[diag],
        &sources,
        HumanStyle {
            color: false,
            width: 80,
        },
    );
    assert!(
        !text.contains('\u{1b}') && !text.contains('\u{7}'),
        "{text}"
    );
    assert!(text.contains("L\\u{1b}[2J1"), "{text}");
}
