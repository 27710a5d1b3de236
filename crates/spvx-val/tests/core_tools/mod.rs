//! The SPIRV-Tools directory for the core tests: `support::tools_dir()`, with a wrapper such as
//! a pyenv shim (half a second per call) resolved to the real executables' directory, found
//! from the path spirv-val prints first in `--help`.

use std::path::PathBuf;
use std::process::Command;

/// The directory holding the real spirv-as and spirv-val, or `None` when SPIRV-Tools is
/// absent.
pub fn tools_dir() -> Option<PathBuf> {
    let dir = crate::support::tools_dir()?;
    let Ok(out) = Command::new(dir.join("spirv-val")).arg("--help").output() else {
        return Some(dir);
    };
    let text = String::from_utf8_lossy(&out.stdout);
    let real = text.split_whitespace().next().map(PathBuf::from);
    match real.as_ref().and_then(|r| r.parent()) {
        Some(parent)
            if real
                .as_ref()
                .is_some_and(|r| r.is_absolute() && r.is_file())
                && parent.join("spirv-as").is_file() =>
        {
            Some(parent.to_path_buf())
        }
        _ => Some(dir),
    }
}
