//! Places in an Amber script and the ways a script does not run: a parse error, something
//! outside the supported subset (the script is skipped as "unsupported: <what>"), a requirement
//! the engine or device lacks (skipped), or an error while running it.

use std::fmt;

/// A place in a script: `file:line:column`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Place {
    pub file: String,
    pub line: u32,
    pub col: u32,
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}", self.file, self.line, self.col)
    }
}

/// Why a script does not run to its verdict.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AmberError {
    /// The script is not valid AmberScript or VkScript.
    #[error("{at}: {msg}")]
    Parse { at: Place, msg: String },
    /// The script uses something outside the compute subset.
    #[error("{at}: unsupported: {what}")]
    Unsupported { at: Place, what: String },
    /// A `DEVICE_FEATURE`, `DEVICE_EXTENSION` or `[require]` line the target lacks.
    #[error("{at}: {what}")]
    Lacks { at: Place, what: String },
    /// An error while running (shader compilation, the engine, the device).
    #[error("{at}: {msg}")]
    Run { at: Place, msg: String },
}

impl AmberError {
    pub fn parse(at: Place, msg: impl Into<String>) -> AmberError {
        AmberError::Parse {
            at,
            msg: msg.into(),
        }
    }

    pub fn unsupported(at: Place, what: impl Into<String>) -> AmberError {
        AmberError::Unsupported {
            at,
            what: what.into(),
        }
    }

    pub fn run(at: Place, msg: impl Into<String>) -> AmberError {
        AmberError::Run {
            at,
            msg: msg.into(),
        }
    }

    /// True for the kinds that skip a script rather than fail it.
    pub fn is_skip(&self) -> bool {
        matches!(
            self,
            AmberError::Unsupported { .. } | AmberError::Lacks { .. }
        )
    }
}
