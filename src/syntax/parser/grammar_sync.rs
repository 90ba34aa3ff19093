//! Every rule of `grammar/fabric.ebnf` is the doc comment of a function here, word for word
//! (comments and spacing aside), so the grammar and the parser cannot drift apart.

/// Drops `(* … *)` comments and backticks, and collapses white space.
fn normalize(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(k) = rest.find("(*") {
        out.push_str(&rest[..k]);
        rest = rest[k..].find("*)").map_or("", |e| &rest[k + e + 2..]);
    }
    out.push_str(rest);
    out.replace('`', " ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// The rules of the grammar: from a line starting with a name and `=` to the next `;` that
/// ends a line.
fn rules(ebnf: &str) -> Vec<String> {
    let body = normalize(ebnf);
    body.split(" ;")
        .map(str::trim)
        .filter(|r| !r.is_empty())
        .map(|r| format!("{r} ;"))
        .collect()
}

/// Each run of `///` lines, joined.
fn doc_blocks(src: &str) -> Vec<String> {
    let mut blocks = Vec::new();
    let mut cur = String::new();
    for line in src.lines() {
        match line.trim_start().strip_prefix("///") {
            Some(doc) => {
                cur.push(' ');
                cur.push_str(doc);
            }
            None if !cur.is_empty() => blocks.push(normalize(&std::mem::take(&mut cur))),
            None => {}
        }
    }
    blocks
}

#[test]
fn every_rule_has_its_function() {
    let ebnf = include_str!("../../../grammar/fabric.ebnf");
    let mut docs = Vec::new();
    for src in [
        include_str!("mod.rs"),
        include_str!("structure.rs"),
        include_str!("settings.rs"),
        include_str!("classes.rs"),
        include_str!("models.rs"),
        include_str!("devices.rs"),
        include_str!("tiers.rs"),
        include_str!("routing.rs"),
        include_str!("names.rs"),
        include_str!("numbers.rs"),
    ] {
        docs.extend(doc_blocks(src));
    }
    docs.extend(doc_blocks(include_str!("../bounds.rs")));
    let rules = rules(ebnf);
    assert!(rules.len() > 50, "found only {} rules", rules.len());
    let missing: Vec<&String> = rules
        .iter()
        .filter(|r| !docs.iter().any(|d| d.contains(r.as_str())))
        .collect();
    assert!(
        missing.is_empty(),
        "rules without a parser function doc comment: {missing:#?}"
    );
}
