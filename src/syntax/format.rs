//! `fabricc fmt`: the canonical layout of a `.fab` file, keeping every comment.
//!
//! In: source text that parses. Out: the same program laid out canonically — the syntax tree
//! (and so the meaning) is unchanged, only whitespace moves:
//! - two spaces of indent per open block; `}` on its own line dedents;
//! - one space between the words of a statement, two between statements sharing a line
//!   (`{ dscp 26  priority 3  lossless }`), one inside the braces of a one-line block;
//! - no space before `,` or `;`; a trailing comment two spaces after its statement;
//! - at most one blank line, none just inside a block, one newline at the end;
//! - alignment: a run of one-line blocks that start with the same keyword aligns their `{`
//!   (`class roce {` / `class cnp  {`), and a run of trailing comments aligns its `#`.
//!
//! Statement boundaries come from the parsed tree (every statement and property span), so
//! the formatter never has to guess where one statement ends.

use std::collections::{HashMap, HashSet};

use crate::diagnostic::Diagnostic;
use crate::span::FileId;

use super::ast::{self, Item, StmtKind};

/// Formats `text`; a syntax error is returned as the parser reports it.
pub fn format(file: FileId, text: &str) -> Result<String, Diagnostic> {
    let tree = super::parse(file, text)?;
    let marks = Marks {
        starts: statement_starts(&tree),
        atoms: atoms(&tree),
    };
    Ok(layout(text, &marks))
}

/// What the tree tells the layout: where statements start, and spans that are one word
/// however they look (a name template such as `rail{rail}-leaf` holds braces).
struct Marks {
    starts: HashSet<usize>,
    atoms: HashMap<usize, usize>,
}

fn atoms(tree: &ast::File) -> HashMap<usize, usize> {
    let mut m = HashMap::new();
    let mut tier = |t: &ast::TierDecl| {
        for p in &t.props {
            if let ast::TierProp::Name(n) = &p.node {
                m.insert(n.span.start as usize, n.span.end as usize);
            }
        }
    };
    for item in &tree.items {
        let stmts: &[ast::Stmt] = match item {
            Item::Fabric(f) => &f.body,
            Item::Stmt(s) => std::slice::from_ref(s),
        };
        for s in stmts {
            if let StmtKind::Tier(t) = &s.kind {
                tier(t);
            }
        }
    }
    m
}

/// Byte offsets where a statement or property begins.
fn statement_starts(tree: &ast::File) -> HashSet<usize> {
    let mut s = HashSet::new();
    for i in &tree.imports {
        s.insert(i.span.start as usize);
    }
    for item in &tree.items {
        match item {
            Item::Fabric(f) => {
                s.insert(f.span.start as usize);
                for st in &f.body {
                    stmt(st, &mut s);
                }
            }
            Item::Stmt(st) => stmt(st, &mut s),
        }
    }
    s
}

fn props<T>(props: &[crate::span::Spanned<T>], s: &mut HashSet<usize>) {
    for p in props {
        s.insert(p.span.start as usize);
    }
}

fn class(c: &ast::ClassDecl, s: &mut HashSet<usize>) {
    props(&c.props, s);
}

fn stmt(st: &ast::Stmt, s: &mut HashSet<usize>) {
    s.insert(st.span.start as usize);
    match &st.kind {
        StmtKind::Class(c) => class(c, s),
        StmtKind::SwitchModel(m) => props(&m.props, s),
        StmtKind::NicModel(m) => props(&m.props, s),
        StmtKind::Switch(d) => {
            props(&d.props, s);
            for p in &d.props {
                if let ast::SwitchProp::Class(c) = &p.node {
                    class(c, s);
                }
            }
        }
        StmtKind::Host(d) => {
            props(&d.props, s);
            for p in &d.props {
                if let ast::HostProp::Class(c) = &p.node {
                    class(c, s);
                }
            }
        }
        StmtKind::Link(l) => props(&l.props, s),
        StmtKind::Tier(t) => props(&t.props, s),
        _ => {}
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Tok {
    Word { text: String, starts_stmt: bool },
    Open,
    Close,
    Semi,
    Comma,
    Comment(String),
}

/// Splits one physical line into tokens (strings and `[…]` ranges stay whole).
fn tokens(line: &str, base: usize, marks: &Marks) -> Vec<Tok> {
    let b = line.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if let Some(&end) = marks.atoms.get(&(base + i)) {
            let end = (end - base).min(b.len());
            out.push(Tok::Word {
                text: line[i..end].to_string(),
                starts_stmt: marks.starts.contains(&(base + i)),
            });
            i = end;
            continue;
        }
        let c = b[i];
        match c {
            b' ' | b'\t' | b'\r' => i += 1,
            b'#' => {
                out.push(Tok::Comment(line[i..].trim_end().to_string()));
                break;
            }
            b'{' => {
                out.push(Tok::Open);
                i += 1;
            }
            b'}' => {
                out.push(Tok::Close);
                i += 1;
            }
            b';' => {
                out.push(Tok::Semi);
                i += 1;
            }
            b',' => {
                out.push(Tok::Comma);
                i += 1;
            }
            _ => {
                let start = i;
                let mut depth = 0usize;
                while i < b.len() {
                    match b[i] {
                        b'"' => {
                            i += 1;
                            while i < b.len() && b[i] != b'"' {
                                i += if b[i] == b'\\' { 2 } else { 1 };
                            }
                            i = (i + 1).min(b.len());
                            continue;
                        }
                        b'[' => depth += 1,
                        b']' => depth = depth.saturating_sub(1),
                        b' ' | b'\t' | b'\r' | b'{' | b'}' | b';' | b',' | b'#' if depth == 0 => {
                            break;
                        }
                        _ => {}
                    }
                    i += 1;
                }
                let i_end = i.min(b.len());
                out.push(Tok::Word {
                    text: line[start..i_end].to_string(),
                    starts_stmt: marks.starts.contains(&(base + start)),
                });
                i = i_end;
            }
        }
    }
    out
}

/// One formatted line before alignment: indent, code (without trailing comment), comment.
struct Line {
    depth: usize,
    code: String,
    comment: Option<String>,
    /// A one-line block (`kw name { … }`): the keyword and where its `{` sits in `code`.
    block: Option<(String, usize)>,
}

fn render(toks: &[Tok]) -> (String, Option<String>, Option<(String, usize)>) {
    let mut code = String::new();
    let mut comment = None;
    let mut open_at = None;
    let mut prev: Option<&Tok> = None;
    for t in toks {
        let sep = match (prev, t) {
            (None, _) => "",
            (_, Tok::Comma | Tok::Semi) => "",
            (Some(Tok::Comma), _) => " ",
            (Some(Tok::Open), _) => " ",
            (_, Tok::Close) => " ",
            (Some(Tok::Semi), _) => " ",
            (
                _,
                Tok::Word {
                    starts_stmt: true, ..
                },
            ) => "  ",
            _ => " ",
        };
        match t {
            Tok::Comment(c) => {
                comment = Some(c.clone());
                continue;
            }
            Tok::Word { text, .. } => {
                code.push_str(sep);
                code.push_str(text);
            }
            Tok::Open => {
                code.push_str(sep);
                open_at.get_or_insert(code.len());
                code.push('{');
            }
            Tok::Close => {
                code.push_str(sep);
                code.push('}');
            }
            Tok::Semi => code.push(';'),
            Tok::Comma => code.push(','),
        }
        prev = Some(t);
    }
    let one_line_block = matches!(toks.first(), Some(Tok::Word { .. }))
        && toks.contains(&Tok::Open)
        && toks.iter().rposition(|t| *t == Tok::Close) > toks.iter().position(|t| *t == Tok::Open);
    let block = match (one_line_block, toks.first(), open_at) {
        (true, Some(Tok::Word { text, .. }), Some(at)) => Some((text.clone(), at)),
        _ => None,
    };
    (code, comment, block)
}

fn layout(text: &str, marks: &Marks) -> String {
    let body_offset = if text.starts_with('\u{feff}') { 3 } else { 0 };
    let mut lines: Vec<Option<Line>> = Vec::new(); // None = blank line
    let mut depth: usize = 0;
    let mut offset = 0;
    for raw in text.split_inclusive('\n') {
        let base = offset;
        offset += raw.len();
        let line = raw.trim_end_matches(['\n', '\r']);
        let line = if base == 0 {
            &line[body_offset.min(line.len())..]
        } else {
            line
        };
        let base = if base == 0 { body_offset } else { base };
        let toks = tokens(line, base, marks);
        if toks.is_empty() {
            lines.push(None);
            continue;
        }
        let leading_close = toks.iter().take_while(|t| **t == Tok::Close).count();
        let this_depth = depth.saturating_sub(leading_close);
        for t in &toks {
            match t {
                Tok::Open => depth += 1,
                Tok::Close => depth = depth.saturating_sub(1),
                _ => {}
            }
        }
        let (code, comment, block) = render(&toks);
        lines.push(Some(Line {
            depth: this_depth,
            code,
            comment,
            block,
        }));
    }
    // Blank lines: at most one, none at the start or end, none just inside a block.
    let mut kept: Vec<Option<Line>> = Vec::new();
    for l in lines {
        match l {
            None => {
                let after_open = matches!(kept.last(), Some(Some(p)) if p.code.ends_with('{'));
                if !matches!(kept.last(), None | Some(None)) && !after_open {
                    kept.push(None);
                }
            }
            Some(l) => {
                if l.code.starts_with('}') && matches!(kept.last(), Some(None)) {
                    kept.pop();
                }
                kept.push(Some(l));
            }
        }
    }
    while matches!(kept.last(), Some(None)) {
        kept.pop();
    }
    align_blocks(&mut kept);
    align_comments(&mut kept);
    let mut out = String::with_capacity(text.len());
    for l in &kept {
        match l {
            None => out.push('\n'),
            Some(l) => {
                let indent = "  ".repeat(l.depth);
                out.push_str(&indent);
                out.push_str(&l.code);
                if let Some(c) = &l.comment {
                    if !l.code.is_empty() {
                        out.push_str("  ");
                    }
                    out.push_str(c);
                }
                out.push('\n');
            }
        }
    }
    out
}

/// Consecutive one-line blocks starting with the same keyword at the same depth: pad before
/// `{` so the braces line up.
fn align_blocks(lines: &mut [Option<Line>]) {
    let mut i = 0;
    while i < lines.len() {
        let key = match &lines[i] {
            Some(Line {
                block: Some((kw, _)),
                depth,
                ..
            }) => (kw.clone(), *depth),
            _ => {
                i += 1;
                continue;
            }
        };
        let mut j = i;
        while j < lines.len()
            && matches!(&lines[j], Some(Line { block: Some((kw, _)), depth, .. }) if *kw == key.0 && *depth == key.1)
        {
            j += 1;
        }
        let width = lines[i..j]
            .iter()
            .filter_map(|l| l.as_ref().and_then(|l| l.block.as_ref().map(|b| b.1)))
            .max()
            .unwrap_or(0);
        for l in lines[i..j].iter_mut().flatten() {
            if let Some((_, at)) = l.block {
                let pad = width - at;
                if pad > 0 {
                    l.code.insert_str(at, &" ".repeat(pad));
                }
            }
        }
        i = j.max(i + 1);
    }
}

/// Consecutive lines with code and a trailing comment at the same depth: align the `#`.
fn align_comments(lines: &mut [Option<Line>]) {
    let mut i = 0;
    while i < lines.len() {
        let trailing =
            |l: &Option<Line>| matches!(l, Some(l) if !l.code.is_empty() && l.comment.is_some());
        if !trailing(&lines[i]) {
            i += 1;
            continue;
        }
        let depth = lines[i].as_ref().map_or(0, |l| l.depth);
        let mut j = i;
        while j < lines.len()
            && trailing(&lines[j])
            && lines[j].as_ref().map_or(0, |l| l.depth) == depth
        {
            j += 1;
        }
        let width = lines[i..j]
            .iter()
            .flatten()
            .map(|l| l.code.chars().count())
            .max()
            .unwrap_or(0);
        for l in lines[i..j].iter_mut().flatten() {
            let pad = width - l.code.chars().count();
            l.code.push_str(&" ".repeat(pad));
        }
        i = j;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[track_caller]
    fn case(input: &str, expected: &str) {
        let out = format(FileId(0), input).expect("parses");
        assert_eq!(out, expected);
        assert_eq!(
            format(FileId(0), &out).expect("parses"),
            out,
            "not idempotent"
        );
    }

    #[test]
    fn layout_rules() {
        case(
            "fabric a {\n    mtu   9216\n\n\n  rtt 8us   # base RTT\n}\n\n",
            "fabric a {\n  mtu 9216\n\n  rtt 8us  # base RTT\n}\n",
        );
        case(
            "fabric a {\n  class roce {dscp 26 priority 3 lossless}\n  class cnp{ dscp 48 priority 6 strict cnp }\n}\n",
            "fabric a {\n  class roce { dscp 26  priority 3  lossless }\n  class cnp  { dscp 48  priority 6  strict  cnp }\n}\n",
        );
        case(
            "# top\nfabric a {\n\n  switch A ,B { model m  tier 1 }\n\n}",
            "# top\nfabric a {\n  switch A, B { model m  tier 1 }\n}\n",
        );
        case(
            "fabric a {\n  mtu 9216 # one\n  roce-mtu 4096 # two\n}\n",
            "fabric a {\n  mtu 9216       # one\n  roce-mtu 4096  # two\n}\n",
        );
        case(
            "fabric a { mtu 9216 ;rtt 8us }\n",
            "fabric a { mtu 9216; rtt 8us }\n",
        );
    }

    #[test]
    fn keeps_strings_and_ranges_whole() {
        case(
            "fabric \"pod a\" {\n  host h[1..4, 7] { nic c x 2 }\n}\n",
            "fabric \"pod a\" {\n  host h[1..4, 7] { nic c x 2 }\n}\n",
        );
    }
}
