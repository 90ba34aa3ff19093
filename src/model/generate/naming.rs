//! Names of generated switches: a tier's `name` template and its placeholders.

use crate::diagnostic::{Code, Diagnostic, did_you_mean};
use crate::syntax::ast::{NameTemplate, TemplatePart};

/// Values of the placeholders for one generated switch.
#[derive(Default, Clone, Copy)]
pub(super) struct Place {
    pub(super) n: u64,
    pub(super) rail: u64,
    pub(super) group: u64,
    pub(super) pod: u64,
    pub(super) plane: u64,
    pub(super) index: u64,
    /// The independent plane (`planes N`), 1-based.
    pub(super) fabric: u64,
}

pub(super) struct Namer<'a> {
    pub(super) tier: &'a str,
    pub(super) template: Option<&'a NameTemplate>,
    pub(super) allowed: &'static [&'static str],
    pub(super) max: Place,
}

impl Namer<'_> {
    pub(super) fn check(&self, diags: &mut Vec<Diagnostic>) -> bool {
        let Some(t) = self.template else { return true };
        let mut ok = true;
        for part in &t.parts {
            if let TemplatePart::Placeholder(p) = part
                && !self.allowed.contains(&p.node.as_str())
            {
                let mut d = Diagnostic::new(
                    Code::BadNameTemplate,
                    p.span,
                    format!(
                        "`{{{}}}` is not a placeholder of tier `{}`",
                        p.node, self.tier
                    ),
                )
                .label("unknown placeholder");
                d = d.help(match did_you_mean(&p.node, self.allowed.iter().copied()) {
                    Some(h) => h,
                    None => format!(
                        "this tier knows {}",
                        self.allowed
                            .iter()
                            .map(|a| format!("{{{a}}}"))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                });
                diags.push(d);
                ok = false;
            }
        }
        ok
    }

    pub(super) fn name(&self, p: Place) -> String {
        let width = |v: u64| v.max(1).to_string().len();
        let value = |word: &str| -> (u64, usize) {
            match word {
                "n" => (p.n, width(self.max.n)),
                "rail" => (p.rail, width(self.max.rail)),
                "group" => (p.group, width(self.max.group)),
                "pod" => (p.pod, width(self.max.pod)),
                "plane" => (p.plane, width(self.max.plane)),
                "fabric" => (p.fabric, width(self.max.fabric)),
                _ => (p.index, width(self.max.index)),
            }
        };
        let mut s = String::new();
        match self.template {
            None => {
                s.push_str(self.tier);
                let (v, w) = value("n");
                s.push_str(&format!("{v:0w$}"));
            }
            Some(t) => {
                for part in &t.parts {
                    match part {
                        TemplatePart::Text(x) => s.push_str(x),
                        TemplatePart::Placeholder(ph) if ph.node == "tier" => s.push_str(self.tier),
                        TemplatePart::Placeholder(ph) => {
                            let (v, w) = value(&ph.node);
                            s.push_str(&format!("{v:0w$}"));
                        }
                    }
                }
            }
        }
        s
    }
}
