//! The parser's rules for file structure: methods of `Parser` (see the module docs of
//! `syntax::parser` for how every rule is written).

use super::*;

impl<'a> Parser<'a> {
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
    pub(super) fn import(&self, i: &'a str) -> PResult<'a, Import> {
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
    pub(super) fn item(&self, i: &'a str) -> PResult<'a, Item> {
        match word(i) {
            Some(("fabric", _)) => self.fabric(i).map(|(r, f)| (r, Item::Fabric(f))),
            _ => self.statement(i, false).map(|(r, s)| (r, Item::Stmt(s))),
        }
    }

    /// `fabric = "fabric" ( NAME | STRING ) block(statement) ;`
    pub(super) fn fabric(&self, i: &'a str) -> PResult<'a, FabricBlock> {
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

    /// `KEYWORD NAME block(prop)`: a declaration named once whose block is required
    /// (`class`, `switch-model`, `nic-model`, `tier`).
    pub(super) fn named_decl<T>(
        &self,
        i: &'a str,
        decl: &Declaration,
        prop: impl FnMut(&'a str) -> PResult<'a, T>,
    ) -> PResult<'a, Declared<Ident, T>> {
        let Declaration {
            keyword,
            name_hint,
            what,
            example,
        } = *decl;
        let (r, ()) = self.keyword(i, keyword)?;
        let (r, name) = cut(|i| self.name(i, name_hint)).parse(r)?;
        let help = format!(
            "{what} needs a block: `{keyword} {} {{ {example} }}`",
            name.node
        );
        let (r, props) = self.block(r, &help, prop)?;
        let span = self.span(i, r);
        Ok((r, Declared { name, props, span }))
    }

    /// `KEYWORD name_list [ block(prop) ]`: devices, declared by name patterns, whose block
    /// may be left out (`switch L[1..4]`).
    pub(super) fn listed_decl<T>(
        &self,
        i: &'a str,
        keyword: &'static str,
        name_hint: &str,
        prop: impl FnMut(&'a str) -> PResult<'a, T>,
    ) -> PResult<'a, Declared<Vec<NamePattern>, T>> {
        let (r, ()) = self.keyword(i, keyword)?;
        let (r, names) = cut(|i| self.name_list(i, name_hint)).parse(r)?;
        let (r, props) = self.opt_block(r, prop)?;
        let span = self.span(i, r);
        Ok((
            r,
            Declared {
                name: names,
                props,
                span,
            },
        ))
    }

    /// An optional block: present when `{` follows on the same line.
    pub(super) fn opt_block<T>(
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

    /// `block(rule) = "{" sep* [ rule { ( sep+ | inline ) rule } ] sep* "}" ;`
    pub(super) fn block<T>(
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
    ///            | buffer_model | load_balance | allow ;`
    pub(super) fn statement(&self, i: &'a str, in_fabric: bool) -> PResult<'a, Stmt> {
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
            "allow" => self.allow(i).map(|(r, v)| (r, StmtKind::Allow(v)))?,
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
}

/// What `named_decl` and `listed_decl` read: the name (or name patterns), the block's
/// properties and the span of the whole declaration; each rule moves them into its own
/// AST node.
pub(super) struct Declared<N, T> {
    pub(super) name: N,
    pub(super) props: Vec<T>,
    pub(super) span: Span,
}
