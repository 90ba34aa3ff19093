//! The code registry and its explanation pages agree: every code has a page with the fixed
//! headings, every page belongs to a code, and codes are unique, sorted and parseable.

use std::collections::BTreeSet;
use std::path::Path;

use fabricc::diagnostic::Code;

const HEADINGS: [&str; 5] = [
    "## What it means",
    "## Why it matters",
    "## Example",
    "## How to fix",
    "## See also",
];

fn number(code: Code) -> u32 {
    code.as_str()[3..].parse().expect("three digits after FAB")
}

#[test]
fn codes_are_well_formed_unique_and_sorted() {
    let mut seen = BTreeSet::new();
    for code in Code::ALL {
        let s = code.as_str();
        assert!(s.len() == 6 && s.starts_with("FAB"), "{s}");
        assert!(s[3..].bytes().all(|b| b.is_ascii_digit()), "{s}");
        assert!(seen.insert(s), "{s} is registered twice");
        assert!(
            !code.summary().is_empty() && !code.summary().ends_with('.'),
            "{s} summary"
        );
    }
    let numbers: Vec<u32> = Code::ALL.iter().map(|&c| number(c)).collect();
    assert!(
        numbers.windows(2).all(|w| w[0] < w[1]),
        "codes are sorted by number: {numbers:?}"
    );
}

#[test]
fn parse_accepts_every_spelling() {
    for &code in Code::ALL {
        let s = code.as_str();
        assert_eq!(Code::parse(s), Some(code));
        assert_eq!(Code::parse(&s.to_lowercase()), Some(code));
        assert_eq!(Code::parse(&s[3..]), Some(code));
        assert_eq!(Code::parse(&format!(" {s} ")), Some(code));
    }
    for bad in [
        "", "FAB", "fab", "FAB9999", "FAB999", "FAB-E501", "E501", "x501",
    ] {
        assert_eq!(Code::parse(bad), None, "{bad:?}");
    }
}

#[test]
fn every_code_has_a_page_with_the_fixed_headings() {
    for &code in Code::ALL {
        let page = code.explanation();
        let title = format!("# {code}: {}", code.summary());
        assert_eq!(page.lines().next(), Some(title.as_str()), "title of {code}");
        let headings: Vec<&str> = page.lines().filter(|l| l.starts_with("## ")).collect();
        assert_eq!(headings, HEADINGS, "headings of {code}");
        assert!(
            page.contains("```fab\n"),
            "{code}: the example is a ```fab block"
        );
        let lines = page.lines().count();
        assert!(
            (20..=80).contains(&lines),
            "{code}: {lines} lines, keep pages 20–80 lines"
        );
        assert!(
            page.ends_with('\n') && !page.ends_with("\n\n"),
            "{code}: one final newline"
        );
    }
}

#[test]
fn see_also_names_only_registered_codes() {
    for &code in Code::ALL {
        let page = code.explanation();
        let see_also = &page[page.find("## See also").expect("see also")..];
        let mentioned: Vec<&str> = see_also
            .split(|c: char| !c.is_ascii_alphanumeric())
            .filter(|w| w.starts_with("FAB"))
            .collect();
        assert!(
            !mentioned.is_empty(),
            "{code}: See also names related codes"
        );
        for word in mentioned {
            assert!(
                Code::parse(word).is_some(),
                "{code} links to unknown {word}"
            );
            assert_ne!(word, code.as_str(), "{code} links to itself");
        }
    }
}

#[test]
fn every_page_belongs_to_a_code() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/codes");
    let codes: BTreeSet<&str> = Code::ALL.iter().map(|c| c.as_str()).collect();
    for entry in std::fs::read_dir(&dir).expect("docs/codes") {
        let name = entry
            .expect("entry")
            .file_name()
            .into_string()
            .expect("UTF-8 name");
        if name == "README.md" {
            continue;
        }
        let stem = name
            .strip_suffix(".md")
            .unwrap_or_else(|| panic!("{name} is not a page"));
        assert!(
            codes.contains(stem),
            "docs/codes/{name} has no code in the registry"
        );
    }
}

/// Every code can be seen failing: a fixture in `fixtures/check`, `fixtures/parse/err`, (for
/// the output codes `fabricc build` reports) `fixtures/build/inputs` or (for the drift and
/// wiring codes of `fabricc verify`) `fixtures/verify` or (for the import codes)
/// `fixtures/import` whose name starts with the code.
#[test]
fn every_code_has_a_fixture() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let mut names = Vec::new();
    for dir in [
        "check",
        "parse/err",
        "build/inputs",
        "verify",
        "import",
        "plan",
    ] {
        for entry in std::fs::read_dir(root.join(dir)).expect("fixture folder") {
            let entry = entry.expect("entry");
            names.push(entry.file_name().to_string_lossy().into_owned());
        }
    }
    let missing: Vec<&str> = fabricc::diagnostic::Code::ALL
        .iter()
        .map(|c| c.as_str())
        .filter(|c| !names.iter().any(|n| n.starts_with(&format!("{c}_"))))
        .collect();
    assert!(missing.is_empty(), "codes without a fixture: {missing:?}");
}
