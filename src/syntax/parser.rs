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

    // ------------------------------------------------------------ file structure

    /// `file = sep* { import sep+ } sep* { item ( sep+ | EOF ) } sep* EOF ;`
    pub fn file(&self, i: &'a str) -> PResult<'a, File> {
        let mut imports = Vec::new();
        let mut items = Vec::new();
        let mut rest = i;
        loop {
            rest = seps(rest);
            if rest.is_empty() {
                return Ok((rest, File { imports, items }));
            }
            if let Some(("import", _)) = word(rest) {
                if !items.is_empty() {
                    return fail(
                        SyntaxError::new(
                            ErrorKind::Misplaced,
                            rest,
                            6,
                            "`import` must come before every other item of the file",
                        )
                        .help("move it to the top of the file"),
                    );
                }
                let (r, import) = self.import(rest)?;
                imports.push(import);
                rest = self.end_of_statement(r)?.0;
                continue;
            }
            let (r, item) = self.item(rest)?;
            items.push(item);
            rest = self.end_of_statement(r)?.0;
        }
    }

    /// `import = "import" STRING ;`
    fn import(&self, i: &'a str) -> PResult<'a, Import> {
        let (r, ()) = self.keyword(i, "import")?;
        let (r, path) =
            cut(|i| self.string(i, "a file path in quotes, such as `\"classes.fab\"`")).parse(r)?;
        Ok((
            r,
            Import {
                path,
                span: self.span(i, r),
            },
        ))
    }

    /// `item = fabric | statement ;`
    fn item(&self, i: &'a str) -> PResult<'a, Item> {
        match word(i) {
            Some(("fabric", _)) => self.fabric(i).map(|(r, f)| (r, Item::Fabric(f))),
            _ => self.statement(i, false).map(|(r, s)| (r, Item::Stmt(s))),
        }
    }

    /// `fabric = "fabric" ( NAME | STRING ) block(statement) ;`
    fn fabric(&self, i: &'a str) -> PResult<'a, FabricBlock> {
        let (r, ()) = self.keyword(i, "fabric")?;
        let r = spaces(r);
        let (r, name, quoted) = if r.starts_with('"') {
            let (r, name) = self.string(r, "a fabric name")?;
            (r, name, true)
        } else {
            let (r, name) = self.name(r, "a fabric name, such as `pod-a`")?;
            (r, name, false)
        };
        let (r, body) = self.block(r, "a fabric needs a block: `fabric pod-a { … }`", |i| {
            self.statement(i, true)
        })?;
        Ok((
            r,
            FabricBlock {
                name,
                quoted,
                body,
                span: self.span(i, r),
            },
        ))
    }

    /// `block(rule) = "{" sep* [ rule { ( sep+ | inline ) rule } ] sep* "}" ;`
    fn block<T>(
        &self,
        i: &'a str,
        open_help: &str,
        mut rule: impl FnMut(&'a str) -> PResult<'a, T>,
    ) -> PResult<'a, Vec<T>> {
        let i = spaces(i);
        let Some(mut rest) = i.strip_prefix('{') else {
            return fail(SyntaxError::expected(i, "`{`").help(open_help));
        };
        let mut items = Vec::new();
        loop {
            rest = seps(rest);
            if let Some(r) = rest.strip_prefix('}') {
                return Ok((r, items));
            }
            if rest.is_empty() {
                return fail(
                    SyntaxError::new(ErrorKind::Syntax, i, 1, "unclosed `{`")
                        .label("this block is never closed")
                        .help("add a `}` at the end of the block"),
                );
            }
            let (r, item) = rule(rest)?;
            items.push(item);
            rest = r;
        }
    }

    /// `statement = mtu | roce_mtu | class | watchdog | rtt | description
    ///            | switch_model | nic_model | switch | host | link | tier
    ///            | routing | route | fail | check | path | rewrite | bounce_tagging
    ///            | buffer_model | load_balance ;`
    fn statement(&self, i: &'a str, in_fabric: bool) -> PResult<'a, Stmt> {
        let (_, kw) = self.block_keyword(i, &STATEMENT_BLOCK)?;
        let (r, kind) = match kw {
            "mtu" => self.mtu(i).map(|(r, v)| (r, StmtKind::Mtu(v)))?,
            "roce-mtu" => self.roce_mtu(i).map(|(r, v)| (r, StmtKind::RoceMtu(v)))?,
            "rtt" => self.rtt(i).map(|(r, v)| (r, StmtKind::Rtt(v)))?,
            "description" => self
                .description(i)
                .map(|(r, v)| (r, StmtKind::Description(v)))?,
            "pfc-watchdog" => self.watchdog(i).map(|(r, v)| (r, StmtKind::Watchdog(v)))?,
            "class" => self.class(i).map(|(r, v)| (r, StmtKind::Class(v)))?,
            "switch-model" => self
                .switch_model(i)
                .map(|(r, v)| (r, StmtKind::SwitchModel(v)))?,
            "nic-model" => self.nic_model(i).map(|(r, v)| (r, StmtKind::NicModel(v)))?,
            "switch" => self.switch(i).map(|(r, v)| (r, StmtKind::Switch(v)))?,
            "host" => self.host(i).map(|(r, v)| (r, StmtKind::Host(v)))?,
            "link" => self.link(i).map(|(r, v)| (r, StmtKind::Link(v)))?,
            "tier" => self.tier(i).map(|(r, v)| (r, StmtKind::Tier(v)))?,
            "routing" => self.routing(i).map(|(r, v)| (r, StmtKind::Routing(v)))?,
            "route" => self.route(i).map(|(r, v)| (r, StmtKind::Route(v)))?,
            "fail" => self.fail_stmt(i).map(|(r, v)| (r, StmtKind::Fail(v)))?,
            "check" => self
                .check(i)
                .map(|(r, v)| (r, StmtKind::CheckFailures(v)))?,
            "path" => self.path(i).map(|(r, v)| (r, StmtKind::Path(v)))?,
            "rewrite" => self.rewrite(i).map(|(r, v)| (r, StmtKind::Rewrite(v)))?,
            "bounce-tagging" => self
                .bounce_tagging(i)
                .map(|(r, v)| (r, StmtKind::BounceTagging(v)))?,
            "buffer-model" => {
                let (r, ()) = self.keyword(i, "buffer-model")?;
                self.buffer_model(r)
                    .map(|(r, v)| (r, StmtKind::BufferModel(v)))?
            }
            "load-balance" => self
                .load_balance(i)
                .map(|(r, v)| (r, StmtKind::LoadBalance(v)))?,
            "fabric" if in_fabric => {
                return fail(
                    SyntaxError::new(
                        ErrorKind::Misplaced,
                        i,
                        kw.len(),
                        "a `fabric` block cannot be inside another `fabric` block",
                    )
                    .help("close the first `fabric` block before opening the next"),
                );
            }
            "import" => {
                return fail(
                    SyntaxError::new(
                        ErrorKind::Misplaced,
                        i,
                        kw.len(),
                        "`import` is only allowed at the top of a file",
                    )
                    .help("move it to the top of the file"),
                );
            }
            _ => return fail(self.unknown(i, kw, &STATEMENT_BLOCK)),
        };
        Ok((
            r,
            Stmt {
                kind,
                span: self.span(i, r),
            },
        ))
    }

    // ------------------------------------------------------------ fabric settings

    /// `mtu = "mtu" INT ;`
    fn mtu(&self, i: &'a str) -> PResult<'a, Spanned<u64>> {
        let (r, ()) = self.keyword(i, "mtu")?;
        cut(|i| self.int_in(i, "mtu", MTU.lo, MTU.hi)).parse(r)
    }

    /// `roce_mtu = "roce-mtu" INT ;`
    fn roce_mtu(&self, i: &'a str) -> PResult<'a, Spanned<u64>> {
        let (r, ()) = self.keyword(i, "roce-mtu")?;
        let at = spaces(r);
        let (r, v) = self.int(r, "`roce-mtu`")?;
        if !ROCE_MTUS.contains(&v.node) {
            return fail(
                SyntaxError::new(
                    ErrorKind::OutOfRange,
                    at,
                    v.span.len(),
                    format!("roce-mtu `{}` is not an rdma mtu", v.node),
                )
                .help("`roce-mtu` is one of 256, 512, 1024, 2048 and 4096"),
            );
        }
        Ok((r, v))
    }

    /// `rtt = "rtt" TIME ;`
    fn rtt(&self, i: &'a str) -> PResult<'a, Spanned<Time>> {
        let (r, ()) = self.keyword(i, "rtt")?;
        cut(|i| self.time(i)).parse(r)
    }

    /// `description = "description" STRING ;`
    fn description(&self, i: &'a str) -> PResult<'a, Spanned<String>> {
        let (r, ()) = self.keyword(i, "description")?;
        cut(|i| self.string(i, "a description in quotes, such as `\"rack 12\"`")).parse(r)
    }

    /// `watchdog = "pfc-watchdog" ( "off" | { watchdog_arg } ) ;`
    fn watchdog(&self, i: &'a str) -> PResult<'a, Watchdog> {
        let (mut r, ()) = self.keyword(i, "pfc-watchdog")?;
        if peek_word(r) == Some("off") {
            let (r, ()) = self.keyword(r, "off")?;
            return Ok((
                r,
                Watchdog {
                    setting: WatchdogSetting::Off,
                    span: self.span(i, r),
                },
            ));
        }
        let mut args = Vec::new();
        loop {
            match peek_word(r) {
                Some(w) if WATCHDOG_ARGS.contains(&w) => {
                    let (next, arg) = self.watchdog_arg(r)?;
                    args.push(arg);
                    r = next;
                }
                // A misspelled parameter, not the next property of the block.
                Some(w)
                    if !is_any_keyword(w)
                        && did_you_mean(w, WATCHDOG_ARGS.iter().copied()).is_some() =>
                {
                    let at = spaces(r);
                    return fail(
                        SyntaxError::new(
                            ErrorKind::UnknownKeyword,
                            at,
                            w.len(),
                            format!("unknown pfc-watchdog parameter `{w}`"),
                        )
                        .help_opt(did_you_mean(w, WATCHDOG_ARGS.iter().copied())),
                    );
                }
                _ => break,
            }
        }
        Ok((
            r,
            Watchdog {
                setting: WatchdogSetting::On(args),
                span: self.span(i, r),
            },
        ))
    }

    /// `watchdog_arg = "detect" TIME | "restore" TIME | "poll" TIME | "action" ( "drop" | "forward" | "alert" ) ;`
    fn watchdog_arg(&self, i: &'a str) -> PResult<'a, Spanned<WatchdogArg>> {
        let start = spaces(i);
        let Some((kw, r)) = word(start) else {
            return fail(SyntaxError::expected(start, "a pfc-watchdog parameter"));
        };
        let (r, arg) = match kw {
            "detect" => self
                .time(r)
                .map(|(r, t)| (r, WatchdogArg::Detect(t.node)))?,
            "restore" => self
                .time(r)
                .map(|(r, t)| (r, WatchdogArg::Restore(t.node)))?,
            "poll" => self.time(r).map(|(r, t)| (r, WatchdogArg::Poll(t.node)))?,
            "action" => {
                let (r, w) =
                    self.choice(r, "pfc-watchdog action", &["drop", "forward", "alert"])?;
                let action = match w.node {
                    "drop" => WatchdogAction::Drop,
                    "forward" => WatchdogAction::Forward,
                    _ => WatchdogAction::Alert,
                };
                (r, WatchdogArg::Action(action))
            }
            _ => {
                return fail(
                    SyntaxError::new(
                        ErrorKind::UnknownKeyword,
                        start,
                        kw.len(),
                        format!("unknown pfc-watchdog parameter `{kw}`"),
                    )
                    .help(format!(
                        "pfc-watchdog parameters are {}",
                        list_words(WATCHDOG_ARGS)
                    )),
                );
            }
        };
        Ok((r, Spanned::new(arg, self.span(start, r))))
    }

    /// One word out of `options`: FAB004 with a suggestion otherwise.
    fn choice(
        &self,
        i: &'a str,
        what: &str,
        options: &'static [&'static str],
    ) -> PResult<'a, Spanned<&'static str>> {
        let at = spaces(i);
        let Some((w, r)) = word(at) else {
            return fail(
                SyntaxError::expected(at, &format!("a {what}"))
                    .help(format!("a {what} is one of {}", list_words(options))),
            );
        };
        match options.iter().find(|o| **o == w) {
            Some(o) => Ok((r, Spanned::new(*o, self.span(at, r)))),
            None => fail(
                SyntaxError::new(
                    ErrorKind::UnknownKeyword,
                    at,
                    w.len(),
                    format!("unknown {what} `{}`", shorten(w)),
                )
                .help(
                    did_you_mean(w, options.iter().copied())
                        .unwrap_or_else(|| format!("a {what} is one of {}", list_words(options))),
                ),
            ),
        }
    }

    // ------------------------------------------------------------ classes

    /// `class = "class" NAME block(class_prop) ;`
    fn class(&self, i: &'a str) -> PResult<'a, ClassDecl> {
        let (r, ()) = self.keyword(i, "class")?;
        let (r, name) = cut(|i| self.name(i, "a class name, such as `roce`")).parse(r)?;
        let help = format!(
            "a class needs a block: `class {} {{ priority 3 }}`",
            name.node
        );
        let (r, props) = self.block(r, &help, |i| self.class_prop(i))?;
        Ok((
            r,
            ClassDecl {
                name,
                props,
                span: self.span(i, r),
            },
        ))
    }

    /// `class_prop = "dscp" dscp_spec
    ///             | "priority" INT
    ///             | "lossless" [ "on" | "off" ]
    ///             | "lossy"
    ///             | "congestion" ( "dcqcn" | "none" )
    ///             | "ecn" ecn_spec
    ///             | "ecn" SPEED ecn_arg { ecn_arg }
    ///             | "bandwidth" PERCENT
    ///             | "strict"
    ///             | "pfc-threshold" SIZE
    ///             | "cnp"
    ///             | "queue" INT
    ///             | "traffic-class" INT
    ///             | "rate" PERCENT ;`
    fn class_prop(&self, i: &'a str) -> PResult<'a, Spanned<ClassProp>> {
        let (r, kw) = self.block_keyword(i, &CLASS_BLOCK)?;
        let (r, prop) = match kw {
            "dscp" => self.dscp_spec(r).map(|(r, v)| (r, ClassProp::Dscp(v)))?,
            "priority" => self.priority(r).map(|(r, v)| (r, ClassProp::Priority(v)))?,
            "lossless" => match peek_word(r) {
                Some("on") => (self.keyword(r, "on")?.0, ClassProp::Lossless(true)),
                Some("off") => (self.keyword(r, "off")?.0, ClassProp::Lossless(false)),
                _ => (r, ClassProp::Lossless(true)),
            },
            "lossy" => (r, ClassProp::Lossless(false)),
            "congestion" => {
                let (r, w) = self.choice(r, "congestion control", &["dcqcn", "none"])?;
                let c = if w.node == "dcqcn" {
                    Congestion::Dcqcn
                } else {
                    Congestion::None
                };
                (r, ClassProp::Congestion(c))
            }
            "ecn" if spaces(r).starts_with(|c: char| c.is_ascii_digit()) => {
                let (r, speed) = self.speed(r)?;
                let (r, spec) = self.ecn_spec(r)?;
                match spec {
                    EcnSpec::Params(args) => (r, ClassProp::EcnAt { speed, args }),
                    EcnSpec::Off => {
                        return fail(
                            SyntaxError::new(
                                ErrorKind::Syntax,
                                spaces(r),
                                0,
                                "`ecn SPEED` takes thresholds, not `off`".to_string(),
                            )
                            .help("write `ecn 400G min 750KB max 3MB`; turn marking off for the whole class with `ecn off`"),
                        );
                    }
                }
            }
            "ecn" => self.ecn_spec(r).map(|(r, v)| (r, ClassProp::Ecn(v)))?,
            "bandwidth" => self.percent(r).map(|(r, v)| (r, ClassProp::Bandwidth(v)))?,
            "strict" => (r, ClassProp::Strict),
            "pfc-threshold" => self.size(r).map(|(r, v)| (r, ClassProp::PfcThreshold(v)))?,
            "cnp" => (r, ClassProp::Cnp),
            "queue" => {
                let (r, v) = self.int_in(r, "queue", QUEUE.lo, QUEUE.hi)?;
                (r, ClassProp::Queue(v.map(|v| v as u8)))
            }
            "traffic-class" => {
                let (r, v) = self.int_in(r, "traffic-class", QUEUE.lo, QUEUE.hi)?;
                (r, ClassProp::TrafficClass(v.map(|v| v as u8)))
            }
            "rate" => self.percent(r).map(|(r, v)| (r, ClassProp::Rate(v)))?,
            _ => return fail(self.unknown(i, kw, &CLASS_BLOCK)),
        };
        Ok((r, Spanned::new(prop, self.span(i, r))))
    }

    /// A priority, `0..7`.
    fn priority(&self, i: &'a str) -> PResult<'a, Spanned<u8>> {
        let (r, v) = self.int_in(i, "priority", PRIORITY.lo, PRIORITY.hi)?;
        Ok((r, v.map(|v| v as u8)))
    }

    /// `dscp_spec = "other" | "none" | dscp_item { "," dscp_item } ;`
    fn dscp_spec(&self, i: &'a str) -> PResult<'a, DscpSpec> {
        if peek_word(i) == Some("other") {
            let (r, ()) = self.keyword(i, "other")?;
            return Ok((r, DscpSpec::Other));
        }
        if peek_word(i) == Some("none") {
            let (r, ()) = self.keyword(i, "none")?;
            return Ok((r, DscpSpec::Values(Vec::new())));
        }
        let mut values = Vec::new();
        let mut rest = i;
        loop {
            let (r, v) = self.dscp_item(rest)?;
            values.push(v);
            match spaces(r).strip_prefix(',') {
                Some(next) => rest = next,
                None => return Ok((r, DscpSpec::Values(values))),
            }
        }
    }

    /// `dscp_item = INT [ "-" INT ] ;`
    fn dscp_item(&self, i: &'a str) -> PResult<'a, Spanned<(u8, u8)>> {
        let start = spaces(i);
        if !start.starts_with(|c: char| c.is_ascii_digit()) {
            return fail(
                SyntaxError::expected(start, "a dscp value (0..63)").help(
                    "write `dscp 26`, `dscp 24,26`, `dscp 24-31`, `dscp other` or `dscp none`",
                ),
            );
        }
        let (r, lo) = self.int_in(start, "dscp", DSCP.lo, DSCP.hi)?;
        let (r, hi) = match r.strip_prefix('-') {
            Some(after) if after.starts_with(|c: char| c.is_ascii_digit()) => {
                let (r, hi) = self.int_in(after, "dscp", DSCP.lo, DSCP.hi)?;
                if hi.node < lo.node {
                    let text = &start[..start.len() - r.len()];
                    return fail(
                        SyntaxError::new(
                            ErrorKind::OutOfRange,
                            start,
                            text.len(),
                            format!("dscp range `{text}` is descending"),
                        )
                        .help(format!("write `{}-{}`", hi.node, lo.node)),
                    );
                }
                (r, hi.node)
            }
            _ => (r, lo.node),
        };
        Ok((
            r,
            Spanned::new((lo.node as u8, hi as u8), self.span(start, r)),
        ))
    }

    /// `ecn_spec = "off" | ecn_arg { ecn_arg } ;`
    fn ecn_spec(&self, i: &'a str) -> PResult<'a, EcnSpec> {
        if peek_word(i) == Some("off") {
            let (r, ()) = self.keyword(i, "off")?;
            return Ok((r, EcnSpec::Off));
        }
        let mut args = Vec::new();
        let mut r = i;
        loop {
            match peek_word(r) {
                Some(w) if ECN_ARGS.contains(&w) => {
                    let (next, arg) = self.ecn_arg(r)?;
                    args.push(arg);
                    r = next;
                }
                Some(w) if args.is_empty() => {
                    let at = spaces(r);
                    return fail(
                        SyntaxError::new(
                            ErrorKind::UnknownKeyword,
                            at,
                            w.len(),
                            format!("unknown ecn parameter `{}`", shorten(w)),
                        )
                        .help(
                            did_you_mean(w, ECN_ARGS.iter().copied()).unwrap_or_else(|| {
                                "write `ecn off` or `ecn min 150KB max 1500KB probability 10%`"
                                    .into()
                            }),
                        ),
                    );
                }
                _ if args.is_empty() => {
                    let at = spaces(r);
                    let e = SyntaxError::expected(
                        at,
                        "`off` or an ecn parameter (`min`, `max`, `probability`)",
                    );
                    let e = if at.starts_with('{') {
                        e.help("write the parameters without braces: `ecn min 150KB max 1500KB`")
                    } else {
                        e.help("write `ecn off` or `ecn min 150KB max 1500KB probability 10%`")
                    };
                    return fail(e);
                }
                _ => return Ok((r, EcnSpec::Params(args))),
            }
        }
    }

    /// `ecn_arg = "min" SIZE | "max" SIZE | "probability" PERCENT ;`
    fn ecn_arg(&self, i: &'a str) -> PResult<'a, Spanned<EcnArg>> {
        let start = spaces(i);
        let Some((kw, r)) = word(start) else {
            return fail(SyntaxError::expected(start, "an ecn parameter"));
        };
        let (r, arg) = match kw {
            "min" => self.size(r).map(|(r, s)| (r, EcnArg::Min(s.node)))?,
            "max" => self.size(r).map(|(r, s)| (r, EcnArg::Max(s.node)))?,
            "probability" => self
                .percent(r)
                .map(|(r, p)| (r, EcnArg::Probability(p.node)))?,
            _ => {
                return fail(
                    SyntaxError::new(
                        ErrorKind::UnknownKeyword,
                        start,
                        kw.len(),
                        format!("unknown ecn parameter `{kw}`"),
                    )
                    .help(format!("ecn parameters are {}", list_words(ECN_ARGS))),
                );
            }
        };
        Ok((r, Spanned::new(arg, self.span(start, r))))
    }

    // ------------------------------------------------------------ models

    /// `switch_model = "switch-model" NAME block(switch_model_prop) ;`
    fn switch_model(&self, i: &'a str) -> PResult<'a, SwitchModelDecl> {
        let (r, ()) = self.keyword(i, "switch-model")?;
        let (r, name) = cut(|i| self.name(i, "a switch model name, such as `s9300`")).parse(r)?;
        let help = format!(
            "a switch model needs a block: `switch-model {} {{ os sonic }}`",
            name.node
        );
        let (r, props) = self.block(r, &help, |i| self.switch_model_prop(i))?;
        Ok((
            r,
            SwitchModelDecl {
                name,
                props,
                span: self.span(i, r),
            },
        ))
    }

    /// `RELEASE = DIGITS "." DIGITS ;` after an OS name (`5.14`), optional.
    fn os_release(&self, i: &'a str) -> PResult<'a, Option<OsRelease>> {
        let at = spaces(i);
        let len = number_len(at);
        if len == 0 {
            return Ok((i, None));
        }
        let tok = &at[..len];
        let parsed = tok.split_once('.').and_then(|(a, b)| {
            let ok = |s: &str| !s.is_empty() && s.bytes().all(|c| c.is_ascii_digit());
            if !ok(a) || !ok(b) {
                return None;
            }
            Some(OsRelease {
                major: a.parse().ok()?,
                minor: b.parse().ok()?,
            })
        });
        match parsed {
            Some(r) => Ok((&at[len..], Some(r))),
            None => fail(
                SyntaxError::new(
                    ErrorKind::OutOfRange,
                    at,
                    len,
                    format!("`{}` is not a release", shorten(tok)),
                )
                .help("a release is MAJOR.MINOR, e.g. `os cumulus 5.14`"),
            ),
        }
    }

    /// `buffer_model = "buffer-model" ( "dynamic" | "traditional" ) ;` (after the keyword)
    fn buffer_model(&self, i: &'a str) -> PResult<'a, Spanned<BufferModel>> {
        let (r, w) = self.choice(i, "buffer model", BUFFER_MODELS)?;
        let model = if w.node == "dynamic" {
            BufferModel::Dynamic
        } else {
            BufferModel::Traditional
        };
        Ok((r, Spanned::new(model, w.span)))
    }

    /// `switch_model_prop
    ///   = "platform" NAME
    ///   | "os" ( "sonic" | "cumulus" | "eos" | "nxos" | "junos" ) [ RELEASE ]
    ///   | "ports" port_group { "," port_group }
    ///   | "buffer" SIZE
    ///   | "lossless-limit" INT
    ///   | "cell" SIZE
    ///   | "dynamic-threshold" SIGNED_INT
    ///   | "description" STRING
    ///   | "buffer-model" ( "dynamic" | "traditional" )
    ///   | linecard ;`
    fn switch_model_prop(&self, i: &'a str) -> PResult<'a, Spanned<SwitchModelProp>> {
        let (r, kw) = self.block_keyword(i, &SWITCH_MODEL_BLOCK)?;
        let (r, prop) = match kw {
            "platform" => self
                .name(
                    r,
                    "a platform name, such as `nvidia-sn5600` (`fabricc platforms` lists them)",
                )
                .map(|(r, n)| (r, SwitchModelProp::Platform(n)))?,
            "buffer-model" => self
                .buffer_model(r)
                .map(|(r, m)| (r, SwitchModelProp::BufferModel(m.node)))?,
            "linecard" => self
                .linecard(r)
                .map(|(r, l)| (r, SwitchModelProp::Linecard(l)))?,
            "os" => {
                let names: &'static [&'static str] = &["sonic", "cumulus", "eos", "nxos", "junos"];
                let (r, w) = self.choice(r, "os", names)?;
                let os = Os::ALL
                    .iter()
                    .copied()
                    .find(|o| o.as_str() == w.node)
                    .unwrap_or(Os::Sonic);
                let (r, release) = self.os_release(r)?;
                (r, SwitchModelProp::Os(os, release))
            }
            "ports" => {
                let mut groups = Vec::new();
                let mut rest = r;
                loop {
                    let (next, g) = self.port_group(rest)?;
                    groups.push(g);
                    match spaces(next).strip_prefix(',') {
                        Some(after) => rest = after,
                        None => break (next, SwitchModelProp::Ports(groups)),
                    }
                }
            }
            "buffer" => self
                .size(r)
                .map(|(r, s)| (r, SwitchModelProp::Buffer(s.node)))?,
            "lossless-limit" => {
                let (r, v) =
                    self.int_in(r, "lossless-limit", LOSSLESS_LIMIT.lo, LOSSLESS_LIMIT.hi)?;
                (r, SwitchModelProp::LosslessLimit(v.node as u8))
            }
            "cell" => self
                .size(r)
                .map(|(r, s)| (r, SwitchModelProp::Cell(s.node)))?,
            "dynamic-threshold" => {
                let (r, v) = self.signed_int(
                    r,
                    "dynamic-threshold",
                    DYNAMIC_THRESHOLD.0,
                    DYNAMIC_THRESHOLD.1,
                )?;
                (r, SwitchModelProp::DynamicThreshold(v.node as i8))
            }
            "description" => {
                let (r, s) = self.string(r, "a description in quotes")?;
                (r, SwitchModelProp::Description(s.node))
            }
            _ => return fail(self.unknown(i, kw, &SWITCH_MODEL_BLOCK)),
        };
        Ok((r, Spanned::new(prop, self.span(i, r))))
    }

    /// `port_group = INT "x" SPEED [ "breakout" INT "x" SPEED ] ;`
    fn port_group(&self, i: &'a str) -> PResult<'a, Spanned<PortGroup>> {
        let start = spaces(i);
        let tok = &start[..number_len(start)];
        if let Some((count, speed)) = tok.split_once(['x', 'X'])
            && !count.is_empty()
            && count.bytes().all(|b| b.is_ascii_digit())
        {
            return fail(
                SyntaxError::new(
                    ErrorKind::Syntax,
                    start,
                    tok.len(),
                    format!(
                        "expected a port group such as `64 x 400G`, found `{}`",
                        shorten(tok)
                    ),
                )
                .help(format!(
                    "put a space on each side of `x`: `{count} x {speed}`"
                )),
            );
        }
        let (r, count) = self.int_in(start, "port count", COUNT.lo, COUNT.hi)?;
        let (r, ()) = match self.keyword(r, "x") {
            Ok(ok) => ok,
            Err(_) => {
                let at = spaces(r);
                return fail(
                    SyntaxError::expected(at, "`x` and a port speed")
                        .help(format!("write the ports as `{} x 400G`", count.node)),
                );
            }
        };
        let (r, speed) = self.speed(r)?;
        let (r, breakout) = match self.keyword(r, "breakout") {
            Ok((r, ())) => {
                let (r, ways) =
                    self.int_in(r, "sub-ports per cage", BREAKOUT_WAYS.lo, BREAKOUT_WAYS.hi)?;
                let (r, ()) = match self.keyword(r, "x") {
                    Ok(ok) => ok,
                    Err(_) => {
                        return fail(
                            SyntaxError::expected(spaces(r), "`x` and a sub-port speed")
                                .help("write the breakout as `breakout 2 x 400G`"),
                        );
                    }
                };
                let (r, sub) = self.speed(r)?;
                (
                    r,
                    Some(Breakout {
                        ways: ways.node,
                        speed: sub.node,
                    }),
                )
            }
            Err(_) => (r, None),
        };
        Ok((
            r,
            Spanned::new(
                PortGroup {
                    count: count.node,
                    speed: speed.node,
                    breakout,
                },
                self.span(start, r),
            ),
        ))
    }

    /// `nic_model = "nic-model" NAME block(nic_model_prop) ;`
    fn nic_model(&self, i: &'a str) -> PResult<'a, NicModelDecl> {
        let (r, ()) = self.keyword(i, "nic-model")?;
        let (r, name) = cut(|i| self.name(i, "a NIC model name, such as `cx7`")).parse(r)?;
        let help = format!(
            "a NIC model needs a block: `nic-model {} {{ speed 400G }}`",
            name.node
        );
        let (r, props) = self.block(r, &help, |i| self.nic_model_prop(i))?;
        Ok((
            r,
            NicModelDecl {
                name,
                props,
                span: self.span(i, r),
            },
        ))
    }

    /// `nic_model_prop = "platform" NAME | "driver" NAME | "speed" SPEED | "buffer" SIZE
    ///                | "ports" port_group ;`
    fn nic_model_prop(&self, i: &'a str) -> PResult<'a, Spanned<NicModelProp>> {
        let (r, kw) = self.block_keyword(i, &NIC_MODEL_BLOCK)?;
        let (r, prop) = match kw {
            "platform" => self
                .name(
                    r,
                    "a NIC platform name, such as `nvidia-cx7` (`fabricc platforms` lists them)",
                )
                .map(|(r, n)| (r, NicModelProp::Platform(n)))?,
            "driver" => self
                .name(r, "a driver name, such as `mlx5`")
                .map(|(r, n)| (r, NicModelProp::Driver(n)))?,
            "speed" => self
                .speed(r)
                .map(|(r, s)| (r, NicModelProp::Speed(s.node)))?,
            "buffer" => self
                .size(r)
                .map(|(r, s)| (r, NicModelProp::Buffer(s.node)))?,
            "ports" => self
                .port_group(r)
                .map(|(r, g)| (r, NicModelProp::Ports(g.node)))?,
            _ => return fail(self.unknown(i, kw, &NIC_MODEL_BLOCK)),
        };
        Ok((r, Spanned::new(prop, self.span(i, r))))
    }

    /// `load_balance = "load-balance" block(lb_prop) ;`
    fn load_balance(&self, i: &'a str) -> PResult<'a, LoadBalanceDecl> {
        let (r, ()) = self.keyword(i, "load-balance")?;
        let help = "load-balance needs a block: `load-balance { hash src-ip dst-ip roce-qp }`";
        let (r, props) = self.block(r, help, |i| self.lb_prop(i))?;
        Ok((
            r,
            LoadBalanceDecl {
                props,
                span: self.span(i, r),
            },
        ))
    }

    /// `lb_prop = "hash" hash_field { hash_field }
    ///          | "mode" ( "ecmp" | "flowlet" | "per-packet" | "adaptive" )
    ///          | "flowlet-gap" TIME | "seed" ( "per-tier" | INT )
    ///          | "qps-per-connection" INT | "split-data-on-qps" ( "on" | "off" ) ;`
    fn lb_prop(&self, i: &'a str) -> PResult<'a, Spanned<LbProp>> {
        let (r, kw) = self.block_keyword(i, &LOAD_BALANCE_BLOCK)?;
        let (r, prop) = match kw {
            "hash" => {
                let mut fields = Vec::new();
                let (mut r, first) = self.hash_field(r)?;
                fields.push(first);
                while let Some(w) = peek_word(r) {
                    if !HASH_FIELDS.contains(&w) {
                        break;
                    }
                    let (next, f) = self.hash_field(r)?;
                    fields.push(f);
                    r = next;
                }
                (r, LbProp::Hash(fields))
            }
            "mode" => {
                let (r, w) = self.choice(r, "load-balance mode", LB_MODES)?;
                let mode = match w.node {
                    "ecmp" => LbMode::Ecmp,
                    "flowlet" => LbMode::Flowlet,
                    "per-packet" => LbMode::PerPacket,
                    _ => LbMode::Adaptive,
                };
                (r, LbProp::Mode(mode))
            }
            "flowlet-gap" => self.time(r).map(|(r, t)| (r, LbProp::FlowletGap(t.node)))?,
            "seed" => {
                if peek_word(r) == Some("per-tier") {
                    let (r, ()) = self.keyword(r, "per-tier")?;
                    (r, LbProp::Seed(LbSeed::PerTier))
                } else {
                    self.int_in(r, "seed", 0, u64::from(u32::MAX))
                        .map(|(r, n)| (r, LbProp::Seed(LbSeed::Fixed(n.node))))?
                }
            }
            "qps-per-connection" => self
                .int_in(r, "qps-per-connection", 1, 128)
                .map(|(r, n)| (r, LbProp::QpsPerConnection(n.node)))?,
            "split-data-on-qps" => {
                let (r, w) = self.choice(r, "split-data-on-qps setting", &["on", "off"])?;
                (r, LbProp::SplitDataOnQps(w.node == "on"))
            }
            _ => return fail(self.unknown(i, kw, &LOAD_BALANCE_BLOCK)),
        };
        Ok((r, Spanned::new(prop, self.span(i, r))))
    }

    /// `hash_field = "src-ip" | "dst-ip" | "src-port" | "dst-port" | "protocol" | "roce-qp" ;`
    fn hash_field(&self, i: &'a str) -> PResult<'a, Spanned<HashField>> {
        let (r, w) = self.choice(i, "hash field", HASH_FIELDS)?;
        let field = HashField::ALL
            .into_iter()
            .find(|f| f.keyword() == w.node)
            .unwrap_or(HashField::SrcIp);
        Ok((r, Spanned::new(field, w.span)))
    }

    // ------------------------------------------------------------ devices

    /// An optional block: present when `{` follows on the same line.
    fn opt_block<T>(
        &self,
        i: &'a str,
        rule: impl FnMut(&'a str) -> PResult<'a, T>,
    ) -> PResult<'a, Vec<T>> {
        if spaces(i).starts_with('{') {
            self.block(i, "", rule)
        } else {
            Ok((i, Vec::new()))
        }
    }

    /// `switch = "switch" name_list [ block(switch_prop) ] ;`
    fn switch(&self, i: &'a str) -> PResult<'a, SwitchDecl> {
        let (r, ()) = self.keyword(i, "switch")?;
        let (r, names) = cut(|i| self.name_list(i, "a switch name")).parse(r)?;
        let (r, props) = self.opt_block(r, |i| self.switch_prop(i))?;
        Ok((
            r,
            SwitchDecl {
                names,
                props,
                span: self.span(i, r),
            },
        ))
    }

    /// `switch_prop = "model" NAME
    ///              | "tier" INT
    ///              | "mtu" INT
    ///              | "description" STRING
    ///              | class
    ///              | "ecn" NAME ecn_spec
    ///              | "headroom" NAME SIZE
    ///              | "pfc-threshold" NAME SIZE
    ///              | watchdog ;`
    fn switch_prop(&self, i: &'a str) -> PResult<'a, Spanned<SwitchProp>> {
        let (r, kw) = self.block_keyword(i, &SWITCH_BLOCK)?;
        let (r, prop) = match kw {
            "model" => self
                .name(r, "a switch model name")
                .map(|(r, n)| (r, SwitchProp::Model(n)))?,
            "tier" => {
                let (r, v) = self.int_in(r, "tier", TIER.lo, TIER.hi)?;
                (r, SwitchProp::Tier(v.map(|v| v as u8)))
            }
            "mtu" => self.mtu(i).map(|(r, v)| (r, SwitchProp::Mtu(v)))?,
            "description" => self
                .description(i)
                .map(|(r, v)| (r, SwitchProp::Description(v)))?,
            "class" => self.class(i).map(|(r, v)| (r, SwitchProp::Class(v)))?,
            "ecn" => {
                let (r, class) = self.name(r, "a class name, as in `ecn roce min 150KB`")?;
                let (r, spec) = self.ecn_spec(r)?;
                (r, SwitchProp::Ecn { class, spec })
            }
            "headroom" => {
                let (r, class) = self.name(r, "a class name, as in `headroom roce 20KB`")?;
                let (r, size) = self.size(r)?;
                (r, SwitchProp::Headroom { class, size })
            }
            "pfc-threshold" => {
                let (r, class) = self.name(r, "a class name, as in `pfc-threshold roce 60KB`")?;
                let (r, size) = self.size(r)?;
                (r, SwitchProp::PfcThreshold { class, size })
            }
            "pfc-watchdog" => self
                .watchdog(i)
                .map(|(r, v)| (r, SwitchProp::Watchdog(v)))?,
            _ => return fail(self.unknown(i, kw, &SWITCH_BLOCK)),
        };
        Ok((r, Spanned::new(prop, self.span(i, r))))
    }

    /// `host = "host" name_list [ block(host_prop) ] ;`
    fn host(&self, i: &'a str) -> PResult<'a, HostDecl> {
        let (r, ()) = self.keyword(i, "host")?;
        let (r, names) = cut(|i| self.name_list(i, "a host name")).parse(r)?;
        let (r, props) = self.opt_block(r, |i| self.host_prop(i))?;
        Ok((
            r,
            HostDecl {
                names,
                props,
                span: self.span(i, r),
            },
        ))
    }

    /// `host_prop = "nic" NAME [ "x" INT ] [ "role" nic_role ]
    ///            | "netdev" name_list
    ///            | "rdma-device" name_list
    ///            | "pci" pci_list
    ///            | "plane" INT { "," INT }
    ///            | "bond" ( "lacp" | "active-backup" | "balance-xor" )
    ///            | "spare"
    ///            | class
    ///            | "pfc" ( "on" | "off" )
    ///            | "ecn" [ NAME ] "off" ;`
    ///
    /// `nic_role = "backend" | "storage" | "frontend" ;`
    fn host_prop(&self, i: &'a str) -> PResult<'a, Spanned<HostProp>> {
        let (r, kw) = self.block_keyword(i, &HOST_BLOCK)?;
        let (r, prop) = match kw {
            "nic" => {
                let (r, model) = self.name(r, "a NIC model name, as in `nic cx7 x 8`")?;
                let at = spaces(r);
                if at.starts_with(|c: char| c.is_ascii_digit()) {
                    return fail(
                        SyntaxError::expected(at, "`x` before the number of NICs").help(format!(
                            "write `nic {} x {}`",
                            model.node,
                            shorten(&at[..number_len(at)])
                        )),
                    );
                }
                let (r, count) = match spaces(r).strip_prefix('x').and_then(word_boundary) {
                    Some(after) => {
                        let (r, n) = self.int_in(after, "nic count", COUNT.lo, COUNT.hi)?;
                        (r, Some(n))
                    }
                    None => (r, None),
                };
                let (r, role) = if peek_word(r) == Some("role") {
                    let (r, ()) = self.keyword(r, "role")?;
                    let (r, w) = self.choice(r, "NIC role", NicRole::WORDS)?;
                    let role = NicRole::from_word(w.node).unwrap_or_default();
                    (r, Some(Spanned::new(role, w.span)))
                } else {
                    (r, None)
                };
                (r, HostProp::Nic { model, count, role })
            }
            "netdev" => self
                .name_list(r, "a netdev name")
                .map(|(r, v)| (r, HostProp::Netdev(v)))?,
            "rdma-device" => self
                .name_list(r, "an rdma device name")
                .map(|(r, v)| (r, HostProp::RdmaDevice(v)))?,
            "pci" => self.pci_list(r).map(|(r, v)| (r, HostProp::Pci(v)))?,
            "plane" => self.plane_list(r)?,
            "bond" => self.bond_mode(r)?,
            "spare" => (r, HostProp::Spare),
            "class" => self.class(i).map(|(r, v)| (r, HostProp::Class(v)))?,
            "pfc" => {
                let (r, w) = self.choice(r, "pfc setting", &["on", "off"])?;
                (r, HostProp::Pfc(w.node == "on"))
            }
            "ecn" => {
                let at = spaces(r);
                let class_given = match word(at) {
                    Some(("off", after)) => peek_word(after) == Some("off"),
                    Some(_) => true,
                    None => false,
                };
                let (r, class) = if class_given {
                    let (r, c) = self.name(r, "a class name")?;
                    (r, Some(c))
                } else {
                    (r, None)
                };
                let at = spaces(r);
                if peek_word(r) != Some("off") {
                    return fail(
                        SyntaxError::expected(at, "`off`")
                            .help("a host can only turn ecn off: `ecn off` or `ecn roce off`"),
                    );
                }
                let (r, ()) = self.keyword(r, "off")?;
                (r, HostProp::EcnOff { class })
            }
            _ => return fail(self.unknown(i, kw, &HOST_BLOCK)),
        };
        Ok((r, Spanned::new(prop, self.span(i, r))))
    }

    /// `link = "link" endpoint "--" endpoint [ block(link_prop) ] ;`
    fn link(&self, i: &'a str) -> PResult<'a, LinkDecl> {
        let (r, ()) = self.keyword(i, "link")?;
        let (r, a) = cut(|i| self.endpoint(i)).parse(r)?;
        let (r, ()) = self.dash_dash(r, &a)?;
        let (r, b) = self.endpoint(r)?;
        let (r, props) = self.opt_block(r, |i| self.link_prop(i))?;
        Ok((
            r,
            LinkDecl {
                a,
                b,
                props,
                span: self.span(i, r),
            },
        ))
    }

    /// `endpoint = name_pattern ;`
    fn endpoint(&self, i: &'a str) -> PResult<'a, NamePattern> {
        self.name_pattern(i, "a link end, such as `L1` or `h1.nic3`")
    }

    /// `--` with a space on each side, after the first end `a`.
    fn dash_dash(&self, i: &'a str, a: &NamePattern) -> PResult<'a, ()> {
        let at = spaces(i);
        if let Some(r) = at.strip_prefix("--") {
            if r.starts_with([' ', '\t']) {
                return Ok((r, ()));
            }
            return fail(
                SyntaxError::new(ErrorKind::Syntax, at, 2, "`--` needs a space on each side")
                    .help("write `A -- B`"),
            );
        }
        let text = pattern_text(a);
        if let Some((x, y)) = text.split_once("--") {
            let start = self.at(a.span.start as usize);
            return fail(
                SyntaxError::new(
                    ErrorKind::Syntax,
                    start,
                    a.span.len(),
                    format!(
                        "expected two ends separated by ` -- `, found `{}`",
                        shorten(&text)
                    ),
                )
                .help(format!("`-` is a name character: write `{x} -- {y}`")),
            );
        }
        fail(SyntaxError::expected(at, "`--` and the other end").help("write `A -- B`"))
    }

    /// `link_prop = "speed" SPEED | "cable" LENGTH | "count" INT | "zip"
    ///           | "ecn" NAME ecn_arg { ecn_arg } ;`
    fn link_prop(&self, i: &'a str) -> PResult<'a, Spanned<LinkProp>> {
        let (r, kw) = self.block_keyword(i, &LINK_BLOCK)?;
        let (r, prop) = match kw {
            "speed" => self.speed(r).map(|(r, s)| (r, LinkProp::Speed(s.node)))?,
            "cable" => self.length(r).map(|(r, s)| (r, LinkProp::Cable(s.node)))?,
            "count" => self
                .int_in(r, "count", COUNT.lo, COUNT.hi)
                .map(|(r, n)| (r, LinkProp::Count(n.node)))?,
            "zip" => (r, LinkProp::Zip),
            "ecn" => {
                let (r, class) =
                    self.name(r, "a class name, as in `ecn roce min 1.5MB max 6MB`")?;
                let (r, spec) = self.ecn_spec(r)?;
                match spec {
                    EcnSpec::Params(args) => (r, LinkProp::Ecn { class, args }),
                    EcnSpec::Off => {
                        return fail(
                            SyntaxError::new(
                                ErrorKind::Syntax,
                                spaces(r),
                                0,
                                "a link's `ecn` takes thresholds, not `off`".to_string(),
                            )
                            .help("write `ecn roce min 1.5MB max 6MB`; turn marking off for a switch with `ecn roce off` in its block"),
                        );
                    }
                }
            }
            _ => return fail(self.unknown(i, kw, &LINK_BLOCK)),
        };
        Ok((r, Spanned::new(prop, self.span(i, r))))
    }

    // ------------------------------------------------------------ generated tiers

    /// `tier = "tier" NAME block(tier_prop) ;`
    fn tier(&self, i: &'a str) -> PResult<'a, TierDecl> {
        let (r, ()) = self.keyword(i, "tier")?;
        let at = spaces(r);
        if at.starts_with(|c: char| c.is_ascii_digit()) {
            return fail(
                SyntaxError::expected(at, "a tier name, such as `leaf`").help(
                    "`tier 1` sets the tier of a switch inside its block: `switch L1 { tier 1 }`",
                ),
            );
        }
        let (r, name) = cut(|i| self.name(i, "a tier name, such as `leaf`")).parse(r)?;
        let help = format!(
            "a tier needs a block: `tier {} {{ model s9300  switches 8 }}`",
            name.node
        );
        let (r, props) = self.block(r, &help, |i| self.tier_prop(i))?;
        Ok((
            r,
            TierDecl {
                name,
                props,
                span: self.span(i, r),
            },
        ))
    }

    /// `tier_prop = "model" NAME
    ///            | "oversubscription" RATIO
    ///            | "cable" LENGTH
    ///            | "name" NAME_TEMPLATE
    ///            | "downlinks" INT
    ///            | "uplinks" INT
    ///            | "switches" INT
    ///            | "planes" INT
    ///            | "wiring" ( "rail" | "rack" )
    ///            | "dual-tor" ;`
    fn tier_prop(&self, i: &'a str) -> PResult<'a, Spanned<TierProp>> {
        let (r, kw) = self.block_keyword(i, &TIER_BLOCK)?;
        let (r, prop) = match kw {
            "model" => self
                .name(r, "a switch model name")
                .map(|(r, n)| (r, TierProp::Model(n)))?,
            "oversubscription" => self
                .ratio(r)
                .map(|(r, v)| (r, TierProp::Oversubscription(v.node)))?,
            "cable" => self.length(r).map(|(r, v)| (r, TierProp::Cable(v.node)))?,
            "name" => self.name_template(r).map(|(r, v)| (r, TierProp::Name(v)))?,
            "downlinks" => self
                .int(r, "a number of downlinks")
                .map(|(r, v)| (r, TierProp::Downlinks(v.node)))?,
            "uplinks" => self
                .int(r, "a number of uplinks")
                .map(|(r, v)| (r, TierProp::Uplinks(v.node)))?,
            "switches" => self
                .int(r, "a number of switches")
                .map(|(r, v)| (r, TierProp::Switches(v.node)))?,
            "planes" => self
                .int_in(r, "planes", 1, 16)
                .map(|(r, v)| (r, TierProp::Planes(v.node)))?,
            "wiring" => {
                let (r, w) = self.choice(r, "wiring style", &["rail", "rack"])?;
                let style = if w.node == "rack" {
                    WiringStyle::Rack
                } else {
                    WiringStyle::Rail
                };
                (r, TierProp::Wiring(style))
            }
            "dual-tor" => (r, TierProp::DualTor),
            _ => return fail(self.unknown(i, kw, &TIER_BLOCK)),
        };
        Ok((r, Spanned::new(prop, self.span(i, r))))
    }

    /// `NAME_TEMPLATE = ( NAME_START | "{" PLACEHOLDER "}" ) { NAME_CHAR | "{" PLACEHOLDER "}" } ;`
    fn name_template(&self, i: &'a str) -> PResult<'a, NameTemplate> {
        let start = spaces(i);
        if !start.starts_with(|c: char| is_name_start(c) || c == '{') {
            return fail(
                SyntaxError::expected(start, "a name template, such as `leaf-{rail}-{n}`")
                    .help(format!("placeholders are {}", placeholder_list())),
            );
        }
        let mut parts = Vec::new();
        let mut text = String::new();
        let mut rest = start;
        loop {
            if let Some(after) = rest.strip_prefix('{') {
                if !text.is_empty() {
                    parts.push(TemplatePart::Text(std::mem::take(&mut text)));
                }
                let (r, p) = self.placeholder(rest, after)?;
                parts.push(TemplatePart::Placeholder(p));
                rest = r;
                continue;
            }
            let n = rest.find(|c: char| !is_name_char(c)).unwrap_or(rest.len());
            if n == 0 {
                break;
            }
            text.push_str(&rest[..n]);
            rest = &rest[n..];
        }
        if !text.is_empty() {
            parts.push(TemplatePart::Text(text));
        }
        Ok((
            rest,
            NameTemplate {
                parts,
                span: self.span(start, rest),
            },
        ))
    }

    /// `PLACEHOLDER = "tier" | "n" | "rail" | "group" | "pod" | "plane" | "index" | "fabric" ;`
    /// (`open` is at the `{`, `i` just after it)
    fn placeholder(&self, open: &'a str, i: &'a str) -> PResult<'a, Spanned<String>> {
        let Some((w, r)) = word(i) else {
            return fail(
                SyntaxError::new(
                    ErrorKind::BadPattern,
                    open,
                    1,
                    "expected a placeholder after `{`, such as `{rail}`",
                )
                .help(format!("placeholders are {}", placeholder_list())),
            );
        };
        let Some(r) = r.strip_prefix('}') else {
            return fail(
                SyntaxError::new(
                    ErrorKind::BadPattern,
                    open,
                    1 + w.len(),
                    "unclosed `{` in a name template",
                )
                .help(format!("close it: `{{{w}}}`")),
            );
        };
        if !PLACEHOLDERS.contains(&w) {
            return fail(
                SyntaxError::new(
                    ErrorKind::BadPattern,
                    open,
                    w.len() + 2,
                    format!("unknown placeholder `{{{}}}`", shorten(w)),
                )
                .help({
                    let braced: Vec<String> =
                        PLACEHOLDERS.iter().map(|p| format!("{{{p}}}")).collect();
                    did_you_mean(&format!("{{{w}}}"), braced.iter().map(String::as_str))
                        .unwrap_or_else(|| format!("placeholders are {}", placeholder_list()))
                }),
            );
        }
        Ok((
            r,
            Spanned::new(
                w.to_string(),
                Span::new(self.file, self.pos(i), self.pos(r) - 1),
            ),
        ))
    }

    // ------------------------------------------------------------ routing

    /// `routing = "routing" ( "updown" | "shortest" | "none" ) ;`
    fn routing(&self, i: &'a str) -> PResult<'a, Spanned<RoutingModel>> {
        let (r, ()) = self.keyword(i, "routing")?;
        let (r, w) = self.choice(r, "routing model", ROUTING_MODELS)?;
        let model = match w.node {
            "updown" => RoutingModel::Updown,
            "shortest" => RoutingModel::Shortest,
            _ => RoutingModel::None,
        };
        Ok((r, Spanned::new(model, w.span)))
    }

    /// `route = "route" "at" NAME "to" NAME "via" NAME ;`
    fn route(&self, i: &'a str) -> PResult<'a, RouteStmt> {
        let help = "write `route at SWITCH to HOST via NEIGHBOUR`";
        let (r, ()) = self.keyword(i, "route")?;
        let (r, ()) = self.keyword(r, "at").map_err(|e| e.map(|e| e.help(help)))?;
        let (r, at) = self.name(r, "a switch name")?;
        let (r, ()) = self.keyword(r, "to").map_err(|e| e.map(|e| e.help(help)))?;
        let (r, to) = self.name(r, "a host or switch name")?;
        let (r, ()) = self
            .keyword(r, "via")
            .map_err(|e| e.map(|e| e.help(help)))?;
        let (r, via) = self.name(r, "a neighbour switch name")?;
        Ok((r, RouteStmt { at, to, via }))
    }

    /// `fail = "fail" name_pattern "--" name_pattern ;`
    fn fail_stmt(&self, i: &'a str) -> PResult<'a, FailStmt> {
        let (r, ()) = self.keyword(i, "fail")?;
        let (r, a) = cut(|i| self.endpoint(i)).parse(r)?;
        let (r, ()) = self.dash_dash(r, &a)?;
        let (r, b) = self.endpoint(r)?;
        Ok((r, FailStmt { a, b }))
    }

    /// `check = "check" "failures" INT ;`
    fn check(&self, i: &'a str) -> PResult<'a, Spanned<u64>> {
        let (r, ()) = self.keyword(i, "check")?;
        let (r, _) = self.choice(r, "check", &["failures"])?;
        self.int_in(r, "check failures", CHECK_FAILURES.lo, CHECK_FAILURES.hi)
    }

    /// `path = "path" [ "class" NAME ] NAME "->" NAME { "->" NAME } ;`
    fn path(&self, i: &'a str) -> PResult<'a, PathStmt> {
        let (r, ()) = self.keyword(i, "path")?;
        // `class` is the keyword unless it is the first hop (`path class -> L1`).
        let (r, class) = match word(spaces(r)) {
            Some(("class", after)) if !spaces(after).starts_with("->") => {
                let (r, c) = self.name(after, "a class name")?;
                (r, Some(c))
            }
            _ => (r, None),
        };
        let (mut r, first) = self.name(r, "a host or switch name")?;
        let mut hops = vec![first];
        loop {
            match self.arrow(r, hops.last())? {
                Some(after) => {
                    let (next, hop) = self.name(after, "a switch or host name after `->`")?;
                    hops.push(hop);
                    r = next;
                }
                None if hops.len() < 2 => {
                    return fail(
                        SyntaxError::expected(spaces(r), "`->` and the next hop")
                            .help("a path has at least two hops: `path h1 -> L1`"),
                    );
                }
                None => return Ok((r, PathStmt { class, hops })),
            }
        }
    }

    /// `->` with a space on each side; `None` when there is none. `prev` is the name before.
    fn arrow(
        &self,
        i: &'a str,
        prev: Option<&Ident>,
    ) -> Result<Option<&'a str>, nom::Err<SyntaxError<'a>>> {
        let at = spaces(i);
        if let Some(r) = at.strip_prefix("->") {
            if r.starts_with([' ', '\t']) {
                return Ok(Some(r));
            }
            return Err(nom::Err::Failure(
                SyntaxError::new(ErrorKind::Syntax, at, 2, "`->` needs a space on each side")
                    .help("write `A -> B`"),
            ));
        }
        // `h5->T2` reads as the name `h5-` and then `>`.
        if let Some(prev) = prev
            && at.starts_with('>')
            && prev.node.ends_with('-')
            && at.len() == i.len()
        {
            let name = prev.node.trim_end_matches('-');
            return Err(nom::Err::Failure(
                SyntaxError::new(ErrorKind::Syntax, at, 1, "`->` needs a space on each side")
                    .help(format!("`-` is a name character: write `{name} -> …`")),
            ));
        }
        Ok(None)
    }

    /// `rewrite = "rewrite" "at" NAME "from" NAME "to" NAME "priority" INT "->" INT ;`
    fn rewrite(&self, i: &'a str) -> PResult<'a, RewriteStmt> {
        let help = "write `rewrite at SWITCH from NEIGHBOUR to NEIGHBOUR priority 3 -> 4`";
        let (r, ()) = self.keyword(i, "rewrite")?;
        let (r, ()) = self.keyword(r, "at").map_err(|e| e.map(|e| e.help(help)))?;
        let (r, at) = self.name(r, "a switch name")?;
        let (r, ()) = self
            .keyword(r, "from")
            .map_err(|e| e.map(|e| e.help(help)))?;
        let (r, from) = self.name(r, "a neighbour name")?;
        let (r, ()) = self.keyword(r, "to").map_err(|e| e.map(|e| e.help(help)))?;
        let (r, to) = self.name(r, "a neighbour name")?;
        let (r, ()) = self
            .keyword(r, "priority")
            .map_err(|e| e.map(|e| e.help(help)))?;
        let (r, old) = self.priority(r)?;
        let Some(r) = self.arrow(r, None)? else {
            return fail(SyntaxError::expected(spaces(r), "`->` and the new priority").help(help));
        };
        let (r, new) = self.priority(r)?;
        Ok((
            r,
            RewriteStmt {
                at,
                from,
                to,
                old,
                new,
            },
        ))
    }

    /// `bounce_tagging = "bounce-tagging" INT "->" INT { "->" INT } ;`
    fn bounce_tagging(&self, i: &'a str) -> PResult<'a, Vec<Spanned<u8>>> {
        let (r, ()) = self.keyword(i, "bounce-tagging")?;
        let (mut r, first) = self.priority(r)?;
        let mut prios = vec![first];
        loop {
            match self.arrow(r, None)? {
                Some(after) => {
                    let (next, p) = self.priority(after)?;
                    prios.push(p);
                    r = next;
                }
                None if prios.len() < 2 => {
                    return fail(
                        SyntaxError::expected(spaces(r), "`->` and the next priority")
                            .help("write `bounce-tagging 3 -> 4`"),
                    );
                }
                None => return Ok((r, prios)),
            }
        }
    }

    // ------------------------------------------------------------ names

    /// `name_list = name_pattern { "," name_pattern } ;`
    fn name_list(&self, i: &'a str, what: &str) -> PResult<'a, Vec<NamePattern>> {
        let mut names = Vec::new();
        let mut rest = i;
        loop {
            let (r, n) = self.name_pattern(rest, what)?;
            names.push(n);
            match spaces(r).strip_prefix(',') {
                Some(after) => rest = after,
                None => return Ok((r, names)),
            }
        }
    }

    /// `pci_list = PCI { "," PCI } ;` (PCI: see `bounds::pci_address`)
    fn pci_list(&self, i: &'a str) -> PResult<'a, Vec<Spanned<String>>> {
        let mut out = Vec::new();
        let mut rest = i;
        loop {
            let at = spaces(rest);
            let len = at
                .find(|c: char| !(c.is_ascii_hexdigit() || c == ':' || c == '.'))
                .unwrap_or(at.len());
            let tok = &at[..len];
            let r = &at[len..];
            if tok.is_empty() {
                return fail(
                    SyntaxError::expected_kind(ErrorKind::BadPattern, at, "a PCI address")
                        .help(PCI_HELP),
                );
            }
            if r.starts_with(is_name_char) || pci_address(tok).is_none() {
                let end = r.find(|c: char| !is_name_char(c)).unwrap_or(r.len());
                return fail(
                    SyntaxError::new(
                        ErrorKind::BadPattern,
                        at,
                        len + end,
                        format!("`{}` is not a PCI address", shorten(&at[..len + end])),
                    )
                    .help(PCI_HELP),
                );
            }
            out.push(Spanned::new(tok.to_string(), self.span(at, r)));
            match spaces(r).strip_prefix(',') {
                Some(after) => rest = after,
                None => return Ok((r, out)),
            }
        }
    }

    /// `name_pattern = NAME_START { NAME_CHAR | range } ;`
    fn name_pattern(&self, i: &'a str, what: &str) -> PResult<'a, NamePattern> {
        let start = spaces(i);
        if !start.starts_with(is_name_start) {
            return fail(self.not_a_name(start, what));
        }
        let mut segments = Vec::new();
        let mut text = String::new();
        let mut rest = start;
        loop {
            if rest.starts_with('[') {
                if !text.is_empty() {
                    segments.push(Segment::Text(std::mem::take(&mut text)));
                }
                let (r, items) = self.range(rest)?;
                segments.push(Segment::Range(items));
                rest = r;
                continue;
            }
            let n = rest.find(|c: char| !is_name_char(c)).unwrap_or(rest.len());
            if n == 0 {
                break;
            }
            text.push_str(&rest[..n]);
            rest = &rest[n..];
        }
        if !text.is_empty() {
            segments.push(Segment::Text(text));
        }
        Ok((
            rest,
            NamePattern {
                segments,
                span: self.span(start, rest),
            },
        ))
    }

    /// The error for a token where a name should be.
    fn not_a_name(&self, at: &'a str, what: &str) -> SyntaxError<'a> {
        if at.starts_with(|c: char| c.is_ascii_digit()) {
            SyntaxError::expected_kind(ErrorKind::BadPattern, at, what)
                .help("a name starts with a letter or `_`")
        } else if at.starts_with('[') {
            SyntaxError::expected_kind(ErrorKind::BadPattern, at, what)
                .help("a name pattern starts with a letter or `_`, as in `gpu[1..8]`")
        } else {
            SyntaxError::expected(at, what)
                .help("a name starts with a letter or `_`, then letters, digits, `_`, `.` or `-`")
        }
    }

    /// `range = "[" range_item { "," range_item } "]" ;`
    fn range(&self, i: &'a str) -> PResult<'a, Vec<RangeItem>> {
        let unclosed = || {
            SyntaxError::new(
                ErrorKind::BadPattern,
                i,
                1,
                "unclosed `[` in a name pattern",
            )
            .help("close the range with `]`, as in `gpu[1..8]`")
        };
        let mut rest = blanks(&i[1..]);
        if rest.starts_with(']') {
            return fail(
                SyntaxError::new(
                    ErrorKind::BadPattern,
                    i,
                    i.len() - rest.len() + 1,
                    "empty range `[]`",
                )
                .help("write the numbers in the brackets, as in `gpu[1..8]` or `h[1,3,5]`"),
            );
        }
        let mut items = Vec::new();
        loop {
            if rest.is_empty() || rest.starts_with(['\n', '\r']) {
                return fail(unclosed());
            }
            let (r, item) = self.range_item(rest)?;
            items.push(item);
            let spaced = blanks(r);
            if let Some(after) = spaced.strip_prefix(',') {
                rest = blanks(after);
            } else if let Some(after) = spaced.strip_prefix(']') {
                return Ok((after, items));
            } else if spaced.len() < r.len()
                || spaced.is_empty()
                || spaced.starts_with(['\n', '\r', '#'])
            {
                // A space, the end of the line or a comment: the `]` was forgotten.
                return fail(unclosed());
            } else {
                return fail(
                    SyntaxError::expected_kind(
                        ErrorKind::BadPattern,
                        r,
                        "`,`, `..` or `]` in the range",
                    )
                    .help("a range holds numbers and `lo..hi` pairs, as in `[1..4,7]`"),
                );
            }
        }
    }

    /// `range_item = DIGITS [ ".." DIGITS ] ;`
    fn range_item(&self, i: &'a str) -> PResult<'a, RangeItem> {
        let digits = |s: &'a str| {
            let n = s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len());
            s.split_at(n)
        };
        let (lo_text, r) = digits(i);
        if lo_text.is_empty() {
            return fail(
                SyntaxError::expected_kind(ErrorKind::BadPattern, i, "a number in the range")
                    .help("a range holds numbers and `lo..hi` pairs, as in `[1..4,7]`"),
            );
        }
        let (hi_text, r) = match r.strip_prefix("..") {
            Some(after) => {
                let (hi, r) = digits(after);
                if hi.is_empty() {
                    return fail(
                        SyntaxError::expected_kind(
                            ErrorKind::BadPattern,
                            after,
                            "the end of the range after `..`",
                        )
                        .help(format!("write `{lo_text}..8`")),
                    );
                }
                (hi, r)
            }
            None => (lo_text, r),
        };
        let number = |text: &'a str| -> Result<u64, nom::Err<SyntaxError<'a>>> {
            text.parse::<u64>().map_err(|_| {
                let at = &i[text.as_ptr() as usize - i.as_ptr() as usize..];
                nom::Err::Failure(
                    SyntaxError::new(
                        ErrorKind::OutOfRange,
                        at,
                        text.len(),
                        format!("range bound `{}` is too large", shorten(text)),
                    )
                    .help(format!("the largest number is {}", u64::MAX)),
                )
            })
        };
        let lo = number(lo_text)?;
        let hi = number(hi_text)?;
        if hi < lo {
            let len = i.len() - r.len();
            return fail(
                SyntaxError::new(
                    ErrorKind::BadPattern,
                    i,
                    len,
                    format!("descending range `{}`", shorten(&i[..len])),
                )
                .help(format!("write `{hi_text}..{lo_text}`")),
            );
        }
        if hi - lo >= bounds::RANGE_NAMES {
            let len = i.len() - r.len();
            return fail(
                SyntaxError::new(
                    ErrorKind::Limit,
                    i,
                    len,
                    format!(
                        "range `{}` gives more than {} names",
                        shorten(&i[..len]),
                        bounds::RANGE_NAMES
                    ),
                )
                .help(
                    "no range may give more names than this, whatever `--max-range` says; split it",
                ),
            );
        }
        let width = [lo_text, hi_text]
            .iter()
            .filter(|t| t.len() > 1 && t.starts_with('0'))
            .map(|t| t.len())
            .max()
            .unwrap_or(0);
        Ok((r, RangeItem { lo, hi, width }))
    }

    /// `NAME = NAME_START { NAME_CHAR } ;` (where no range is allowed)
    fn name(&self, i: &'a str, what: &str) -> PResult<'a, Ident> {
        let at = spaces(i);
        let Some((w, r)) = word(at) else {
            return fail(self.not_a_name(at, what));
        };
        if r.starts_with('[') {
            return fail(
                SyntaxError::new(
                    ErrorKind::BadPattern,
                    r,
                    1,
                    format!("expected {what}, found a name pattern"),
                )
                .help("a range is not allowed here: write one name"),
            );
        }
        Ok((r, Spanned::new(w.to_string(), self.span(at, r))))
    }

    /// `STRING = '"' { any character but '"', '\' or newline | '\"' | '\\' } '"' ;`
    fn string(&self, i: &'a str, what: &str) -> PResult<'a, Spanned<String>> {
        let at = spaces(i);
        let Some(body) = at.strip_prefix('"') else {
            return fail(
                SyntaxError::expected(at, what).help("write it in double quotes: `\"…\"`"),
            );
        };
        let unterminated = || {
            let line = at.find('\n').unwrap_or(at.len());
            SyntaxError::new(
                ErrorKind::UnterminatedString,
                at,
                at[..line].trim_end_matches('\r').len(),
                "unterminated string",
            )
            .label("this string is not closed on its line")
            .help("close it with `\"` on the same line")
        };
        let mut out = String::new();
        let mut chars = body.char_indices();
        while let Some((k, c)) = chars.next() {
            match c {
                '"' => {
                    let r = &body[k + 1..];
                    return Ok((r, Spanned::new(out, self.span(at, r))));
                }
                '\n' => return fail(unterminated()),
                '\\' => match chars.next() {
                    Some((_, e @ ('"' | '\\'))) => out.push(e),
                    Some((_, '\n')) | None => return fail(unterminated()),
                    Some((_, e)) => {
                        return fail(
                            SyntaxError::new(
                                ErrorKind::Syntax,
                                &body[k..],
                                1 + e.len_utf8(),
                                format!("unknown escape `\\{e}` in a string"),
                            )
                            .help("the only escapes are `\\\"` and `\\\\`"),
                        );
                    }
                },
                c => out.push(c),
            }
        }
        fail(unterminated())
    }

    // ------------------------------------------------------------ numbers and quantities

    /// `INT = DIGITS ;`
    fn int(&self, i: &'a str, what: &str) -> PResult<'a, Spanned<u64>> {
        let at = spaces(i);
        let len = number_len(at);
        if len == 0 {
            return fail(
                SyntaxError::expected(at, &format!("a number for {what}"))
                    .help("write a whole number, such as `8`"),
            );
        }
        let tok = &at[..len];
        let digits = tok.find(|c: char| !c.is_ascii_digit()).unwrap_or(len);
        if digits < len {
            let e = if tok[digits..].starts_with('.') {
                SyntaxError::new(
                    ErrorKind::Syntax,
                    at,
                    len,
                    format!(
                        "expected a whole number for {what}, found `{}`",
                        shorten(tok)
                    ),
                )
            } else {
                SyntaxError::new(
                    ErrorKind::BadQuantity,
                    at,
                    len,
                    format!(
                        "expected a number without a unit for {what}, found `{}`",
                        shorten(tok)
                    ),
                )
                .help(format!("write `{}`", &tok[..digits]))
            };
            return fail(e);
        }
        match tok.parse::<u64>() {
            Ok(v) => Ok((&at[len..], Spanned::new(v, self.span(at, &at[len..])))),
            Err(_) => fail(
                SyntaxError::new(
                    ErrorKind::OutOfRange,
                    at,
                    len,
                    format!("number `{}` is too large", shorten(tok)),
                )
                .help(format!("the largest number is {}", u64::MAX)),
            ),
        }
    }

    /// An INT in `lo..=hi`.
    fn int_in(&self, i: &'a str, name: &str, lo: u64, hi: u64) -> PResult<'a, Spanned<u64>> {
        let help = if hi == u64::MAX {
            format!("`{name}` must be at least {lo}")
        } else {
            format!("`{name}` must be between {lo} and {hi}")
        };
        let (r, v) = self.int(i, &format!("`{name}`")).map_err(|e| {
            e.map(|e| {
                if e.kind == ErrorKind::Syntax {
                    e.help(help.clone())
                } else {
                    e
                }
            })
        })?;
        if v.node < lo || v.node > hi {
            let at = spaces(i);
            return fail(
                SyntaxError::new(
                    ErrorKind::OutOfRange,
                    at,
                    v.span.len(),
                    format!("{name} `{}` is out of range", v.node),
                )
                .help(help),
            );
        }
        Ok((r, v))
    }

    /// `SIGNED_INT = [ "-" ] DIGITS ;` in `lo..=hi`
    fn signed_int(&self, i: &'a str, name: &str, lo: i64, hi: i64) -> PResult<'a, Spanned<i64>> {
        let at = spaces(i);
        let (neg, digits) = match at.strip_prefix('-') {
            Some(r) if r.starts_with(|c: char| c.is_ascii_digit()) => (true, r),
            _ => (false, at),
        };
        let (r, v) = self.int(digits, &format!("`{name}`"))?;
        let value = i64::try_from(v.node).ok().map(|v| if neg { -v } else { v });
        match value {
            Some(v) if v >= lo && v <= hi => Ok((r, Spanned::new(v, self.span(at, r)))),
            _ => fail(
                SyntaxError::new(
                    ErrorKind::OutOfRange,
                    at,
                    at.len() - r.len(),
                    format!(
                        "{name} `{}` is out of range",
                        shorten(&at[..at.len() - r.len()])
                    ),
                )
                .help(format!("`{name}` must be between {lo} and {hi}")),
            ),
        }
    }

    /// A number with a unit of `dim`, in canonical units; `cells` is reported as the bool.
    fn quantity(&self, i: &'a str, dim: Dim) -> PResult<'a, (Spanned<u64>, bool)> {
        let at = spaces(i);
        let len = number_len(at);
        let what = format!("a {} such as `{}`", dim.noun(), dim.example());
        if len == 0 {
            return fail(SyntaxError::expected(at, &what).help(format!(
                "a {} is a number and a unit, with no space: {}",
                dim.noun(),
                dim.unit_list()
            )));
        }
        let tok = &at[..len];
        let r = &at[len..];
        let bad = |help: String| {
            fail(SyntaxError::expected_kind(ErrorKind::BadQuantity, at, &what).help(help))
        };
        let Some((int, frac, unit)) = split_decimal(tok) else {
            return bad("write the number with digits and at most one decimal point".into());
        };
        let num = &tok[..tok.len() - unit.len()];
        if unit.is_empty() {
            return bad(format!("add a unit, e.g. `{num}{}`", dim.default_unit()));
        }
        let Some(&(_, factor)) = dim.units().iter().find(|(u, _)| *u == unit) else {
            if let Some(u) = dim.suggest(unit) {
                return bad(format!("did you mean `{num}{u}`?"));
            }
            if let Some(other) = Dim::ALL
                .iter()
                .find(|d| d.units().iter().any(|(u, _)| *u == unit))
            {
                return bad(format!(
                    "`{unit}` is a {} unit; {} units are {}",
                    other.noun(),
                    dim.noun(),
                    dim.unit_list()
                ));
            }
            return bad(format!("{} units are {}", dim.noun(), dim.unit_list()));
        };
        let cells = unit == "cells";
        let base = if cells { "cells" } else { dim.base() };
        match scale(int, frac, factor) {
            Ok(v) if !dim.bound(cells).contains(v) => {
                let bound = dim.bound(cells);
                fail(
                    SyntaxError::new(
                        ErrorKind::OutOfRange,
                        at,
                        len,
                        format!("{} `{}` is out of range", bound.what, shorten(tok)),
                    )
                    .help(bound.help),
                )
            }
            Ok(v) => Ok((r, (Spanned::new(v, self.span(at, r)), cells))),
            Err(ScaleError::NotWhole) => fail(
                SyntaxError::new(
                    ErrorKind::BadQuantity,
                    at,
                    len,
                    format!("`{}` is not a whole number of {base}", shorten(tok)),
                )
                .help(format!("a {} is counted in whole {base}", dim.noun())),
            ),
            Err(ScaleError::TooPrecise) => fail(
                SyntaxError::new(
                    ErrorKind::BadQuantity,
                    at,
                    len,
                    format!("`{}` has too many decimal places", shorten(tok)),
                )
                .help(format!("a {} is counted in whole {base}", dim.noun())),
            ),
            Err(ScaleError::TooLarge) => fail(
                SyntaxError::new(
                    ErrorKind::OutOfRange,
                    at,
                    len,
                    format!("`{}` is too large", shorten(tok)),
                )
                .help(format!("the largest {} is {} {base}", dim.noun(), u64::MAX)),
            ),
        }
    }

    /// `SPEED = DECIMAL "G" ;`
    fn speed(&self, i: &'a str) -> PResult<'a, Spanned<Speed>> {
        let (r, (v, _)) = self.quantity(i, Dim::Speed)?;
        Ok((r, v.map(Speed)))
    }

    /// `SIZE = DECIMAL ( "B" | "KB" | "MB" | "GB" | "KiB" | "MiB" | "GiB" ) | INT "cells" ;`
    fn size(&self, i: &'a str) -> PResult<'a, Spanned<Size>> {
        let (r, (v, cells)) = self.quantity(i, Dim::Size)?;
        Ok((
            r,
            v.map(|v| {
                if cells {
                    Size::Cells(v)
                } else {
                    Size::Bytes(v)
                }
            }),
        ))
    }

    /// `LENGTH = DECIMAL ( "m" | "km" ) ;`
    fn length(&self, i: &'a str) -> PResult<'a, Spanned<Length>> {
        let (r, (v, _)) = self.quantity(i, Dim::Length)?;
        Ok((r, v.map(Length)))
    }

    /// `TIME = DECIMAL ( "ns" | "us" | "ms" | "s" ) ;`
    fn time(&self, i: &'a str) -> PResult<'a, Spanned<Time>> {
        let (r, (v, _)) = self.quantity(i, Dim::Time)?;
        Ok((r, v.map(Time)))
    }

    /// `PERCENT = DECIMAL "%" ;`
    fn percent(&self, i: &'a str) -> PResult<'a, Spanned<Percent>> {
        let (r, (v, _)) = self.quantity(i, Dim::Percent)?;
        Ok((r, v.map(Percent)))
    }

    /// `RATIO = DECIMAL ":" DECIMAL ;`
    fn ratio(&self, i: &'a str) -> PResult<'a, Spanned<Ratio>> {
        let at = spaces(i);
        let len = number_len(at);
        let what = "a ratio such as `3:1`";
        if len == 0 {
            return fail(
                SyntaxError::expected(at, what).help("write down:up, such as `1:1` or `1.067:1`"),
            );
        }
        let tok = &at[..len];
        let r = &at[len..];
        let Some((down, up)) = tok.split_once(':') else {
            return fail(
                SyntaxError::expected_kind(ErrorKind::BadQuantity, at, what)
                    .help(format!("write both sides: `{tok}:1`")),
            );
        };
        let side = |s: &str| -> Result<u64, SyntaxError<'a>> {
            let bad = || {
                SyntaxError::expected_kind(ErrorKind::BadQuantity, at, what)
                    .help("each side is a number such as `1` or `1.067`")
            };
            let (int, frac, unit) = split_decimal(s).ok_or_else(bad)?;
            if !unit.is_empty() {
                return Err(bad());
            }
            match scale(int, frac, 1_000) {
                Ok(0) => Err(SyntaxError::new(
                    ErrorKind::OutOfRange,
                    at,
                    len,
                    format!("ratio `{tok}` has a zero side"),
                )
                .help("each side of a ratio is greater than 0")),
                Ok(v) => Ok(v),
                Err(ScaleError::TooLarge) => Err(SyntaxError::new(
                    ErrorKind::OutOfRange,
                    at,
                    len,
                    format!("ratio `{}` is too large", shorten(tok)),
                )
                .help("write the ratio with smaller numbers, such as `3:1`")),
                Err(_) => Err(SyntaxError::new(
                    ErrorKind::BadQuantity,
                    at,
                    len,
                    format!(
                        "ratio `{}` has more than three decimal places",
                        shorten(tok)
                    ),
                )
                .help("write each side with at most three decimals, as in `1.067:1`")),
            }
        };
        let down = side(down).map_err(nom::Err::Failure)?;
        let up = side(up).map_err(nom::Err::Failure)?;
        Ok((r, Spanned::new(Ratio { down, up }, self.span(at, r))))
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

#[cfg(test)]
mod grammar_sync {
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
        let ebnf = include_str!("../../grammar/fabric.ebnf");
        let mut docs = doc_blocks(include_str!("parser.rs"));
        docs.extend(doc_blocks(include_str!("bounds.rs")));
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
}

#[cfg(test)]
mod tests {
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
}

// Issue 18 (dual-ToR bonds, spare hosts, per-port planes): host properties added after the
// file's main `impl`, kept together so the parser can later be split by function name.
impl<'a> Parser<'a> {
    /// `"plane" INT { "," INT }`: one plane per NIC port, in NIC-port order; 0 is "none",
    /// 1..16 as `planes N` allows.
    fn plane_list(&self, i: &'a str) -> PResult<'a, HostProp> {
        let mut out = Vec::new();
        let mut rest = i;
        loop {
            let (r, v) = self.int_in(rest, "plane", 0, 16)?;
            out.push(Spanned::new(v.node as u32, v.span));
            match spaces(r).strip_prefix(',') {
                Some(after) => rest = after,
                None => return Ok((r, HostProp::Planes(out))),
            }
        }
    }

    /// `"bond" ( "lacp" | "active-backup" | "balance-xor" )`
    fn bond_mode(&self, i: &'a str) -> PResult<'a, HostProp> {
        let (r, w) = self.choice(i, "bond mode", BondMode::WORDS)?;
        let mode = BondMode::from_word(w.node).unwrap_or(BondMode::Lacp);
        Ok((r, HostProp::Bond(mode)))
    }
}
