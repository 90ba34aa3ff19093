//! The name tables every resolution step looks declarations up in, and the FAB101 finding of
//! a name nothing declares. The steps (devices, links, routing) share them, so they sit below.

use std::collections::HashMap;

use crate::diagnostic::{Code, Diagnostic, did_you_mean};
use crate::model::{ClassId, NicModelId, SwitchModelId};
use crate::span::Span;
use crate::syntax::ast;

/// Name → ID tables the later steps look things up in.
pub(crate) struct Names {
    pub classes: HashMap<String, ClassId>,
    pub switch_models: HashMap<String, SwitchModelId>,
    pub nic_models: HashMap<String, NicModelId>,
}

impl Names {
    pub fn class(&self, name: &ast::Ident, diags: &mut Vec<Diagnostic>) -> Option<ClassId> {
        lookup(&self.classes, name, "class", diags)
    }
}

/// Looks `name` up, or reports FAB101 with a suggestion from `table`'s names.
pub(crate) fn lookup<T: Copy>(
    table: &HashMap<String, T>,
    name: &ast::Ident,
    what: &str,
    diags: &mut Vec<Diagnostic>,
) -> Option<T> {
    if let Some(&id) = table.get(&name.node) {
        return Some(id);
    }
    diags.push(undefined(
        what,
        &name.node,
        name.span,
        table.keys().map(String::as_str),
    ));
    None
}

pub(crate) fn undefined<'a>(
    what: &str,
    name: &str,
    span: Span,
    known: impl IntoIterator<Item = &'a str>,
) -> Diagnostic {
    let mut d = Diagnostic::new(
        Code::Undefined,
        span,
        format!("{what} `{name}` is not declared"),
    )
    .label("used here");
    let mut known: Vec<&str> = known.into_iter().collect();
    known.sort_unstable();
    d = d.help(match did_you_mean(name, known.iter().copied()) {
        Some(h) => h,
        None if known.is_empty() => format!("declare it with `{what} {name} {{ … }}`"),
        None if known.len() <= 8 => format!(
            "declared: {}",
            known
                .iter()
                .map(|k| format!("`{k}`"))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        None => format!(
            "declare it, or check the spelling ({} {what}s are declared)",
            known.len()
        ),
    });
    d
}
