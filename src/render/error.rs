//! Why a device could not be rendered. Every target's view and the template step report it,
//! and the render step collects it, so it sits below all of them.

use std::fmt;

use super::SwitchOs;

/// Why a device could not be rendered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RenderError {
    /// A template failed to parse or render.
    Template {
        template: String,
        line: Option<usize>,
        message: String,
    },
    /// A value that would be printed is not acceptable (bad name, out of range).
    Invalid { device: String, message: String },
    /// The target cannot express what the context asks for.
    Unsupported {
        device: String,
        target: String,
        message: String,
    },
    /// An override template could not be read.
    Override { path: String, message: String },
}

impl fmt::Display for RenderError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RenderError::Template {
                template,
                line: Some(line),
                message,
            } => {
                write!(f, "template `{template}` line {line}: {message}")
            }
            RenderError::Template {
                template,
                line: None,
                message,
            } => {
                write!(f, "template `{template}`: {message}")
            }
            RenderError::Invalid { device, message } => write!(f, "device `{device}`: {message}"),
            RenderError::Unsupported {
                device,
                target,
                message,
            } => {
                write!(
                    f,
                    "device `{device}`: target `{target}` cannot express this: {message}"
                )
            }
            RenderError::Override { path, message } => {
                write!(f, "cannot read template override `{path}`: {message}")
            }
        }
    }
}

impl std::error::Error for RenderError {}

pub(crate) fn invalid(device: &str, message: impl Into<String>) -> RenderError {
    RenderError::Invalid {
        device: device.to_string(),
        message: message.into(),
    }
}

pub(crate) fn unsupported(device: &str, os: SwitchOs, message: impl Into<String>) -> RenderError {
    RenderError::Unsupported {
        device: device.to_string(),
        target: os.as_str().to_string(),
        message: message.into(),
    }
}
