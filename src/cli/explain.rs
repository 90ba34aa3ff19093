//! `fabricc explain CODE` / `fabricc explain --all`

use serde::Serialize;

use crate::diagnostic::Code;

use super::{ExitStatus, ExplainArgs, ExplainFormat, err, out};

#[derive(Serialize)]
struct Explanation {
    code: &'static str,
    category: &'static str,
    severity: &'static str,
    summary: &'static str,
    explanation: &'static str,
}

fn explanation(c: Code) -> Explanation {
    Explanation {
        code: c.as_str(),
        category: c.category().as_str(),
        severity: c.default_severity().as_str(),
        summary: c.summary(),
        explanation: c.explanation(),
    }
}

pub fn run(args: &ExplainArgs) -> ExitStatus {
    if args.all {
        match args.format {
            ExplainFormat::Text => {
                let mut s = String::new();
                for &c in Code::ALL {
                    s.push_str(&format!(
                        "{}  {:<8} {:<8} {}\n",
                        c,
                        c.category().as_str(),
                        c.default_severity().as_str(),
                        c.summary()
                    ));
                }
                out(&s);
            }
            ExplainFormat::Json => {
                let all: Vec<Explanation> = Code::ALL.iter().map(|&c| explanation(c)).collect();
                out(&(serde_json::to_string_pretty(&all).unwrap_or_default() + "\n"));
            }
        }
        return ExitStatus::Success;
    }
    let text = args.code.as_deref().unwrap_or_default();
    let Some(code) = Code::parse(text) else {
        err(&format!(
            "error: `{text}` is not a fabricc code; `fabricc explain --all` lists them\n"
        ));
        return ExitStatus::Error;
    };
    match args.format {
        ExplainFormat::Text => out(code.explanation()),
        ExplainFormat::Json => {
            out(&(serde_json::to_string_pretty(&explanation(code)).unwrap_or_default() + "\n"))
        }
    }
    ExitStatus::Success
}
