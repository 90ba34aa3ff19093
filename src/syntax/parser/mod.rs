//! The nom parser. In: the text of one `.fab` file. Out: an `ast::File` with a span on every
//! node, or the first `SyntaxError` (converted to a `Diagnostic` by `syntax::parse`).
//!
//! One method per rule of `grammar/fabric.ebnf`; the doc comment of each is the rule, word for
//! word (a test checks that). Every statement starts with a keyword and has a fixed shape, so
//! the parser decides by looking at one word and then commits (`cut`): an error inside a
//! statement points at the offending token, not at the statement. Quantities become integers
//! in canonical units here, with exact integer arithmetic.
//!
//! Spans: the input is always a suffix of the whole text, so a position is
//! `text.len() - rest.len()`.

use nom::bytes::complete::{take_till, take_while};
use nom::character::complete::{char, digit1, one_of, satisfy, space0};
use nom::combinator::{cut, opt, recognize};
use nom::multi::many0_count;
use nom::sequence::preceded;
use nom::{IResult, Parser as _};

use super::ast::*;
use super::bounds::{
    self, BREAKOUT_WAYS, Bound, CHECK_FAILURES, COUNT, DSCP, DYNAMIC_THRESHOLD, LOSSLESS_LIMIT,
    MTU, PCI_HELP, PRIORITY, QUEUE, ROCE_MTUS, TIER, pci_address,
};
use super::error::{ErrorKind, SyntaxError, shorten};
use crate::diagnostic::did_you_mean;
use crate::span::{FileId, Span, Spanned};

pub type PResult<'a, T> = IResult<&'a str, T, SyntaxError<'a>>;

/// The lexical helpers' result: their failure only means "not here", so nom's plain error
/// (cheap to make) is enough; the rule that called them builds the real `SyntaxError`.
type Lexed<'a, T> = IResult<&'a str, T, nom::error::Error<&'a str>>;

/// A committed failure: no alternative is tried after it.
fn fail<'a, T>(e: SyntaxError<'a>) -> PResult<'a, T> {
    Err(nom::Err::Failure(e))
}

// ---------------------------------------------------------------- keywords per block

pub const STATEMENTS: &[&str] = &[
    "mtu",
    "roce-mtu",
    "rtt",
    "description",
    "pfc-watchdog",
    "class",
    "switch-model",
    "nic-model",
    "switch",
    "host",
    "link",
    "tier",
    "routing",
    "route",
    "fail",
    "check",
    "path",
    "rewrite",
    "bounce-tagging",
    "buffer-model",
    "load-balance",
    "allow",
];
pub const CLASS_PROPS: &[&str] = &[
    "dscp",
    "priority",
    "lossless",
    "lossy",
    "congestion",
    "ecn",
    "bandwidth",
    "strict",
    "pfc-threshold",
    "cnp",
    "queue",
    "traffic-class",
    "rate",
];
pub const ECN_ARGS: &[&str] = &["min", "max", "probability"];
pub const WATCHDOG_ARGS: &[&str] = &["detect", "restore", "poll", "action"];
pub const SWITCH_MODEL_PROPS: &[&str] = &[
    "platform",
    "os",
    "ports",
    "buffer",
    "lossless-limit",
    "cell",
    "dynamic-threshold",
    "description",
    "buffer-model",
    "linecard",
    "sku",
];
pub const LOAD_BALANCE_PROPS: &[&str] = &[
    "hash",
    "mode",
    "flowlet-gap",
    "seed",
    "qps-per-connection",
    "split-data-on-qps",
];
pub const HASH_FIELDS: &[&str] = &[
    "src-ip", "dst-ip", "src-port", "dst-port", "protocol", "roce-qp",
];
const LB_MODES: &[&str] = &["ecmp", "flowlet", "per-packet", "adaptive"];
pub const NIC_MODEL_PROPS: &[&str] = &["platform", "driver", "speed", "buffer", "ports"];
pub const SWITCH_PROPS: &[&str] = &[
    "model",
    "tier",
    "mtu",
    "description",
    "class",
    "ecn",
    "headroom",
    "pfc-threshold",
    "pfc-watchdog",
];
pub const HOST_PROPS: &[&str] = &[
    "nic",
    "netdev",
    "rdma-device",
    "pci",
    "plane",
    "class",
    "pfc",
    "ecn",
    "bond",
    "spare",
];
pub const LINK_PROPS: &[&str] = &["speed", "cable", "count", "ecn", "zip"];
pub const TIER_PROPS: &[&str] = &[
    "model",
    "oversubscription",
    "cable",
    "name",
    "downlinks",
    "uplinks",
    "switches",
    "planes",
    "wiring",
    "dual-tor",
    "peer-link",
];
pub const PLACEHOLDERS: &[&str] = &[
    "tier", "n", "rail", "group", "pod", "plane", "index", "fabric",
];
const ROUTING_MODELS: &[&str] = &["updown", "shortest", "none"];
const BUFFER_MODELS: &[&str] = &["dynamic", "traditional"];

/// A kind of block, for "unknown … `x`" errors.
struct BlockKind {
    /// `class property`
    what: &'static str,
    /// `class properties`
    plural: &'static str,
    /// The block's keyword, for "move it into a `class` block".
    owner: &'static str,
    keywords: &'static [&'static str],
    /// Words also offered as "did you mean" (the parameters of a multi-word property).
    also: &'static [&'static str],
}

/// A declaration named once whose block is required, as its errors describe it.
#[derive(Clone, Copy)]
struct Declaration {
    keyword: &'static str,
    /// What the name should be: "a class name, such as `roce`".
    name_hint: &'static str,
    /// The declaration in the help: "a class".
    what: &'static str,
    /// The block body the help shows: `priority 3`.
    example: &'static str,
}

const CLASS_DECL: Declaration = Declaration {
    keyword: "class",
    name_hint: "a class name, such as `roce`",
    what: "a class",
    example: "priority 3",
};
const SWITCH_MODEL_DECL: Declaration = Declaration {
    keyword: "switch-model",
    name_hint: "a switch model name, such as `s9300`",
    what: "a switch model",
    example: "os sonic",
};
const NIC_MODEL_DECL: Declaration = Declaration {
    keyword: "nic-model",
    name_hint: "a NIC model name, such as `cx7`",
    what: "a NIC model",
    example: "speed 400G",
};
const TIER_DECL: Declaration = Declaration {
    keyword: "tier",
    name_hint: "a tier name, such as `leaf`",
    what: "a tier",
    example: "model s9300  switches 8",
};

const STATEMENT_BLOCK: BlockKind = BlockKind {
    what: "statement",
    plural: "statements",
    owner: "fabric",
    keywords: STATEMENTS,
    also: &["fabric", "import"],
};
const CLASS_BLOCK: BlockKind = BlockKind {
    what: "class property",
    plural: "class properties",
    owner: "class",
    keywords: CLASS_PROPS,
    also: ECN_ARGS,
};
const SWITCH_MODEL_BLOCK: BlockKind = BlockKind {
    what: "switch-model property",
    plural: "switch-model properties",
    owner: "switch-model",
    keywords: SWITCH_MODEL_PROPS,
    also: &[],
};
const NIC_MODEL_BLOCK: BlockKind = BlockKind {
    what: "nic-model property",
    plural: "nic-model properties",
    owner: "nic-model",
    keywords: NIC_MODEL_PROPS,
    also: &[],
};
const LOAD_BALANCE_BLOCK: BlockKind = BlockKind {
    what: "load-balance property",
    plural: "load-balance properties",
    owner: "load-balance",
    keywords: LOAD_BALANCE_PROPS,
    also: HASH_FIELDS,
};
const SWITCH_BLOCK: BlockKind = BlockKind {
    what: "switch property",
    plural: "switch properties",
    owner: "switch",
    keywords: SWITCH_PROPS,
    also: &[
        "min",
        "max",
        "probability",
        "detect",
        "restore",
        "poll",
        "action",
    ],
};
const HOST_BLOCK: BlockKind = BlockKind {
    what: "host property",
    plural: "host properties",
    owner: "host",
    keywords: HOST_PROPS,
    also: &[],
};
const LINK_BLOCK: BlockKind = BlockKind {
    what: "link property",
    plural: "link properties",
    owner: "link",
    keywords: LINK_PROPS,
    also: &[],
};
const TIER_BLOCK: BlockKind = BlockKind {
    what: "tier property",
    plural: "tier properties",
    owner: "tier",
    keywords: TIER_PROPS,
    also: &[],
};

/// The property blocks, in the order used to say where a stray property belongs.
const PROPERTY_BLOCKS: &[&BlockKind] = &[
    &CLASS_BLOCK,
    &LINK_BLOCK,
    &SWITCH_BLOCK,
    &HOST_BLOCK,
    &TIER_BLOCK,
    &SWITCH_MODEL_BLOCK,
    &NIC_MODEL_BLOCK,
    &LOAD_BALANCE_BLOCK,
];

/// `a`, `b` and `c`
fn list_words(words: &[&str]) -> String {
    let quoted: Vec<String> = words.iter().map(|w| format!("`{w}`")).collect();
    match quoted.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        Some((last, _)) => last.clone(),
        None => String::new(),
    }
}

// ---------------------------------------------------------------- lexical helpers

use bounds::{is_name_char, is_name_start};

mod classes;
mod devices;
#[cfg(test)]
mod grammar_sync;
mod models;
mod names;
mod numbers;
mod routing;
mod settings;
mod structure;
#[cfg(test)]
mod tests;
mod tiers;

/// Characters of a number token: digits, a decimal point, a unit, `%`, the `:` of a ratio.
fn is_number_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '.' | '%' | ':')
}

/// `inline = (* one or more spaces on the same line *) ;`
///
/// Skips spaces, tabs, carriage returns and a comment; never a newline.
fn spaces(i: &str) -> &str {
    let blank = take_while(|c| matches!(c, ' ' | '\t' | '\r'));
    let comment = preceded(char('#'), take_till(|c| c == '\n'));
    let lexed: Lexed<'_, _> = (blank, opt(comment)).parse(i);
    lexed.map_or(i, |(rest, _)| rest)
}

/// `sep = NEWLINE | ";" ;` (any number of them, with spaces and comments between)
fn seps(i: &str) -> &str {
    let sep = preceded(|i| Ok((spaces(i), ())), one_of("\n;"));
    let lexed: Lexed<'_, usize> = many0_count(sep).parse(i);
    spaces(lexed.map_or(i, |(rest, _)| rest))
}

/// Spaces and tabs only (inside brackets).
fn blanks(i: &str) -> &str {
    let lexed: Lexed<'_, &str> = space0(i);
    lexed.map_or(i, |(rest, _)| rest)
}

/// The NAME token at the start of `i` (no leading spaces) and the rest.
fn word(i: &str) -> Option<(&str, &str)> {
    let lexed: Lexed<'_, &str> =
        recognize((satisfy(is_name_start), take_while(is_name_char))).parse(i);
    lexed.ok().map(|(rest, w)| (w, rest))
}

/// The word after spaces, without consuming it.
fn peek_word(i: &str) -> Option<&str> {
    word(spaces(i)).map(|(w, _)| w)
}

/// The number token at the start of `i`: a digit, then number characters.
fn number_len(i: &str) -> usize {
    let lexed: Lexed<'_, &str> =
        recognize((satisfy(|c| c.is_ascii_digit()), take_while(is_number_char))).parse(i);
    lexed.map_or(0, |(_, tok)| tok.len())
}

/// `DECIMAL = DIGITS [ "." DIGITS ] ;`
///
/// Splits `1.5MB` into (`1`, `5`, `MB`); `None` when the number part is malformed (`1.`, `1.2.3`).
fn split_decimal(tok: &str) -> Option<(&str, &str, &str)> {
    let lexed: Lexed<'_, (&str, Option<&str>)> =
        (digit1, opt(preceded(char('.'), digit1))).parse(tok);
    let (unit, (int, frac)) = lexed.ok()?;
    // `1.` and `1.2.3` are not numbers.
    if unit.starts_with('.') {
        return None;
    }
    Some((int, frac.unwrap_or(""), unit))
}

/// Why a decimal is not a whole number of the canonical unit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScaleError {
    NotWhole,
    TooLarge,
    TooPrecise,
}

/// `int.frac × factor`, exactly, with integers only.
pub fn scale(int: &str, frac: &str, factor: u64) -> Result<u64, ScaleError> {
    let frac = frac.trim_end_matches('0');
    // Twenty decimals are more than any unit here can make whole (the largest factor is 2^30).
    if frac.len() > 20 {
        return Err(ScaleError::TooPrecise);
    }
    let int = int.trim_start_matches('0');
    if int.len() > 20 {
        return Err(ScaleError::TooLarge);
    }
    let int_v: u128 = if int.is_empty() {
        0
    } else {
        int.parse().map_err(|_| ScaleError::TooLarge)?
    };
    let frac_v: u128 = if frac.is_empty() {
        0
    } else {
        frac.parse().map_err(|_| ScaleError::TooPrecise)?
    };
    let denom = 10u128.pow(frac.len() as u32);
    let factor = u128::from(factor);
    let frac_scaled = frac_v * factor;
    if !frac_scaled.is_multiple_of(denom) {
        return Err(ScaleError::NotWhole);
    }
    let total = int_v
        .checked_mul(factor)
        .and_then(|v| v.checked_add(frac_scaled / denom))
        .ok_or(ScaleError::TooLarge)?;
    u64::try_from(total).map_err(|_| ScaleError::TooLarge)
}

/// A kind of quantity and its units.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dim {
    Speed,
    Size,
    Length,
    Time,
    Percent,
}

impl Dim {
    const ALL: [Dim; 5] = [Dim::Speed, Dim::Size, Dim::Length, Dim::Time, Dim::Percent];

    fn noun(self) -> &'static str {
        match self {
            Dim::Speed => "speed",
            Dim::Size => "size",
            Dim::Length => "length",
            Dim::Time => "time",
            Dim::Percent => "percentage",
        }
    }

    fn example(self) -> &'static str {
        match self {
            Dim::Speed => "400G",
            Dim::Size => "150KB",
            Dim::Length => "3m",
            Dim::Time => "50us",
            Dim::Percent => "10%",
        }
    }

    fn default_unit(self) -> &'static str {
        match self {
            Dim::Speed => "G",
            Dim::Size => "KB",
            Dim::Length => "m",
            Dim::Time => "us",
            Dim::Percent => "%",
        }
    }

    /// The range a value of this dimension must lie in (canonical units).
    fn bound(self, cells: bool) -> Bound {
        match self {
            Dim::Speed => bounds::SPEED,
            Dim::Size if cells => bounds::SIZE_CELLS,
            Dim::Size => bounds::SIZE_BYTES,
            Dim::Length => bounds::LENGTH,
            Dim::Time => bounds::TIME,
            Dim::Percent => bounds::PERCENT,
        }
    }

    /// The canonical unit the AST stores.
    fn base(self) -> &'static str {
        match self {
            Dim::Speed => "Mb/s",
            Dim::Size => "bytes",
            Dim::Length => "millimetres",
            Dim::Time => "nanoseconds",
            Dim::Percent => "thousandths of a percent",
        }
    }

    /// Units as written, with their factor to the canonical unit.
    fn units(self) -> &'static [(&'static str, u64)] {
        match self {
            Dim::Speed => &[("G", 1_000)],
            Dim::Size => &[
                ("B", 1),
                ("KB", 1_000),
                ("MB", 1_000_000),
                ("GB", 1_000_000_000),
                ("KiB", 1 << 10),
                ("MiB", 1 << 20),
                ("GiB", 1 << 30),
                ("cells", 1),
            ],
            Dim::Length => &[("m", 1_000), ("km", 1_000_000)],
            Dim::Time => &[
                ("ns", 1),
                ("us", 1_000),
                ("ms", 1_000_000),
                ("s", 1_000_000_000),
            ],
            Dim::Percent => &[("%", 1_000)],
        }
    }

    /// Spellings people write for a unit, mapped to the one the language uses.
    fn aliases(self) -> &'static [(&'static str, &'static str)] {
        match self {
            Dim::Speed => &[("gb", "G"), ("gbps", "G"), ("gbit", "G"), ("gbe", "G")],
            Dim::Size => &[("k", "KB"), ("m", "MB"), ("bytes", "B"), ("cell", "cells")],
            Dim::Length => &[
                ("meter", "m"),
                ("meters", "m"),
                ("metre", "m"),
                ("metres", "m"),
            ],
            Dim::Time => &[("sec", "s"), ("msec", "ms"), ("usec", "us"), ("nsec", "ns")],
            Dim::Percent => &[],
        }
    }

    /// The unit of this dimension that `unit` most likely meant.
    fn suggest(self, unit: &str) -> Option<&'static str> {
        let lower = unit.to_ascii_lowercase();
        self.units()
            .iter()
            .map(|(u, _)| *u)
            .find(|u| u.to_ascii_lowercase() == lower)
            .or_else(|| {
                self.aliases()
                    .iter()
                    .find(|(a, _)| *a == lower)
                    .map(|(_, u)| *u)
            })
    }

    fn unit_list(self) -> String {
        let units: Vec<&str> = self.units().iter().map(|(u, _)| *u).collect();
        list_words(&units)
    }
}

// ---------------------------------------------------------------- the parser

/// The parser of one file: knows the file id and the text length, to make spans.
pub struct Parser<'a> {
    file: FileId,
    text: &'a str,
    len: usize,
}

impl<'a> Parser<'a> {
    /// A parser for `text` (the whole file); pass `text` or a suffix of it to `file`.
    pub fn new(file: FileId, text: &'a str) -> Self {
        Self {
            file,
            text,
            len: text.len(),
        }
    }

    /// The input from byte `offset` of the text on.
    fn at(&self, offset: usize) -> &'a str {
        self.text.get(offset..).unwrap_or("")
    }

    fn pos(&self, i: &str) -> usize {
        self.len.saturating_sub(i.len())
    }

    /// From the start of `from` to the start of `to` (`to` is a suffix of `from`).
    fn span(&self, from: &str, to: &str) -> Span {
        Span::new(self.file, self.pos(from), self.pos(to))
    }

    /// After a statement: only spaces, a comment, then a newline, `;` or the end.
    fn end_of_statement(&self, i: &'a str) -> PResult<'a, ()> {
        let r = spaces(i);
        if r.is_empty() || r.starts_with(['\n', ';']) {
            return Ok((r, ()));
        }
        let e = SyntaxError::expected(r, "the end of the statement");
        let e = if r.starts_with('}') {
            e.help("this `}` closes no block")
        } else if r.starts_with(|c: char| !c.is_ascii()) {
            e.help("names use only ASCII letters, digits, `_`, `.` and `-`")
        } else {
            e.help("put each statement on its own line, or separate statements with `;`")
        };
        fail(e)
    }

    /// `"kw"`: the word `kw`, after spaces.
    fn keyword(&self, i: &'a str, kw: &'static str) -> PResult<'a, ()> {
        let i = spaces(i);
        match word(i) {
            Some((w, r)) if w == kw => Ok((r, ())),
            _ => fail(SyntaxError::expected(i, &format!("`{kw}`"))),
        }
    }

    /// The error for a word that is not a keyword of `block`.
    fn unknown(&self, at: &'a str, kw: &str, block: &BlockKind) -> SyntaxError<'a> {
        let len = kw.len();
        if kw == "import" || kw == "fabric" {
            return SyntaxError::new(
                ErrorKind::Misplaced,
                at,
                len,
                format!(
                    "`{kw}` is only allowed at the top level of a file, not in a {} block",
                    block.owner
                ),
            )
            .help(if kw == "import" {
                "move it to the top of the file"
            } else {
                "close this block before opening a `fabric` block"
            });
        }
        if block.owner != "fabric" && STATEMENTS.contains(&kw) {
            return SyntaxError::new(
                ErrorKind::Misplaced,
                at,
                len,
                format!("`{kw}` is a fabric statement, not a {}", block.what),
            )
            .help(format!(
                "is a `}}` missing before it, to close the `{}` block?",
                block.owner
            ));
        }
        if block.owner == "fabric"
            && let Some(owner) = PROPERTY_BLOCKS.iter().find(|b| b.keywords.contains(&kw))
        {
            return SyntaxError::new(
                ErrorKind::Misplaced,
                at,
                len,
                format!("`{kw}` is a {}, not a statement", owner.what),
            )
            .help(format!(
                "move it into a `{} NAME {{ … }}` block",
                owner.owner
            ));
        }
        let candidates = block.keywords.iter().chain(block.also).copied();
        let help = did_you_mean(kw, candidates)
            .unwrap_or_else(|| format!("{} are {}", block.plural, list_words(block.keywords)));
        SyntaxError::new(
            ErrorKind::UnknownKeyword,
            at,
            len,
            format!("unknown {} `{}`", block.what, shorten(kw)),
        )
        .help(help)
    }

    /// The keyword that starts a property or statement of `block`, or the error when there is
    /// no word here.
    fn block_keyword(&self, i: &'a str, block: &BlockKind) -> PResult<'a, &'a str> {
        match word(i) {
            Some((w, r)) => Ok((r, w)),
            None => {
                let e = SyntaxError::expected(i, &format!("a {}", block.what));
                let e = if i.starts_with('{') {
                    e.help("a block starts on the same line as its statement: `class roce {`")
                } else if i.starts_with('}') {
                    e.help("this `}` closes no block")
                } else {
                    e.help(format!(
                        "{} are {}",
                        block.plural,
                        list_words(block.keywords)
                    ))
                };
                fail(e)
            }
        }
    }
}

/// After a one-letter keyword such as the `x` of `nic cx7 x 8`: the rest when the letter is a
/// whole word.
fn word_boundary(r: &str) -> Option<&str> {
    if r.starts_with(is_name_char) {
        None
    } else {
        Some(r)
    }
}

/// Is `w` a keyword of any statement or block (so not a misspelled parameter)?
fn is_any_keyword(w: &str) -> bool {
    STATEMENTS.contains(&w) || PROPERTY_BLOCKS.iter().any(|b| b.keywords.contains(&w))
}

fn placeholder_list() -> String {
    let words: Vec<String> = PLACEHOLDERS.iter().map(|p| format!("{{{p}}}")).collect();
    let refs: Vec<&str> = words.iter().map(String::as_str).collect();
    list_words(&refs)
}

/// A pattern as written (for messages).
fn pattern_text(p: &NamePattern) -> String {
    let mut s = String::new();
    for seg in &p.segments {
        match seg {
            Segment::Text(t) => s.push_str(t),
            Segment::Range(_) => s.push_str("[…]"),
        }
    }
    s
}

/// Parsers added with the modular chassis (issue 18 item 3).
impl<'a> Parser<'a> {
    /// `linecard = "linecard" INT [ ".." INT ] CARD ;` (after the keyword), `CARD` a card
    /// model as the catalogue names it (`7800r3a-36d`: letters, digits and `-`).
    fn linecard(&self, i: &'a str) -> PResult<'a, LinecardSlots> {
        let (r, first) = self.slot(i)?;
        let (r, last) = match r.strip_prefix("..") {
            Some(after) => self.slot(after)?,
            None => (r, first),
        };
        let (r, card) = self.card_name(r)?;
        Ok((r, LinecardSlots { first, last, card }))
    }

    /// A slot number: digits only (so `3..8` splits at the dots), 1 to 64; the order of a
    /// range is checked with the chassis (FAB140).
    fn slot(&self, i: &'a str) -> PResult<'a, u64> {
        let at = spaces(i);
        let len = at.find(|c: char| !c.is_ascii_digit()).unwrap_or(at.len());
        match at[..len].parse::<u64>() {
            Ok(v) if (1..=64).contains(&v) => Ok((&at[len..], v)),
            _ => fail(
                SyntaxError::expected(at, "a line-card slot from 1 to 64")
                    .help("write the slots as `3` or `3..8`"),
            ),
        }
    }

    /// A line-card model, as the catalogue writes it:
    /// `CARD = ( "a".."z" | "0".."9" ) { "a".."z" | "0".."9" | "-" } ;`
    fn card_name(&self, i: &'a str) -> PResult<'a, Ident> {
        let at = spaces(i);
        let card_char = |c: char| c.is_ascii_lowercase() || c.is_ascii_digit();
        let len = at
            .find(|c: char| !(card_char(c) || c == '-'))
            .unwrap_or(at.len());
        if len == 0 || !at.starts_with(card_char) || at[len..].starts_with(is_name_char) {
            return fail(
                SyntaxError::expected(at, "a line-card model, such as `7800r3a-36d`")
                    .help("`fabricc platforms NAME` lists the line cards of a chassis"),
            );
        }
        let r = &at[len..];
        Ok((r, Spanned::new(at[..len].to_string(), self.span(at, r))))
    }
}
