//! Test support shared by the spvx crates: finding the SPIRV-Tools executables (spirv-as,
//! spirv-dis, spirv-val) that tests and benchmarks use as the independent oracle.
//!
//! One policy for every test, resolved once per process:
//! 1. `$SPVX_SPIRV_TOOLS`, a bin directory (scripts/test sets it to SPIRV-Tools 2025.5), when
//!    it holds all three tools;
//! 2. else the directory of the real `spirv-val` behind the one on `PATH` (a pyenv shim costs
//!    ~0.5 s per call; spirv-val prints its own path first in `--help`);
//! 3. else the first `PATH` directory holding all three.
//!
//! When none is found, [`tools_dir`] prints a note and returns `None` (the caller skips its
//! comparison), unless `SPVX_REQUIRE_TOOLS=1`, which turns a missing tool into a test failure.
//! Nothing here belongs in a release build: it is a dev-dependency only.
//!
//! Scratch space: [`temp_dir`] gives every test a fresh directory that is removed, with what
//! the test wrote in it, when the returned [`TempDir`] is dropped (also when the test panics).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

pub use tempfile::TempDir;

/// The tools every comparison needs.
const TOOLS: [&str; 3] = ["spirv-as", "spirv-dis", "spirv-val"];

fn has_tools(dir: &Path) -> bool {
    TOOLS.iter().all(|t| dir.join(t).is_file())
}

fn find() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("SPVX_SPIRV_TOOLS").map(PathBuf::from)
        && has_tools(&dir)
    {
        return Some(dir);
    }
    if let Ok(out) = Command::new("spirv-val").arg("--help").output() {
        let text = String::from_utf8_lossy(&out.stdout);
        if let Some(dir) = text
            .split_whitespace()
            .next()
            .map(PathBuf::from)
            .filter(|real| real.is_absolute())
            .and_then(|real| real.parent().map(Path::to_path_buf))
            .filter(|dir| has_tools(dir))
        {
            return Some(dir);
        }
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path).find(|d| has_tools(d))
}

/// Whether `SPVX_REQUIRE_TOOLS=1` asks for the tools to be present.
pub fn tools_required() -> bool {
    std::env::var("SPVX_REQUIRE_TOOLS").as_deref() == Ok("1")
}

/// The directory holding spirv-as, spirv-dis and spirv-val, or `None` (after a note on stderr)
/// when there is none. Panics when the tools are missing and `SPVX_REQUIRE_TOOLS=1`.
pub fn tools_dir() -> Option<PathBuf> {
    static DIR: OnceLock<Option<PathBuf>> = OnceLock::new();
    let dir = DIR.get_or_init(find).clone();
    if dir.is_none() {
        assert!(
            !tools_required(),
            "SPIRV-Tools (spirv-as, spirv-dis, spirv-val) not found in $SPVX_SPIRV_TOOLS or on \
             PATH, and SPVX_REQUIRE_TOOLS=1"
        );
        eprintln!("note: SPIRV-Tools not found; skipping the comparison with it");
    }
    dir
}

/// The path of one tool (`"spirv-as"`, `"spirv-dis"` or `"spirv-val"`), as [`tools_dir`].
pub fn tool(name: &str) -> Option<PathBuf> {
    tools_dir().map(|d| d.join(name))
}

/// A fresh, uniquely named directory `spvx-{name}-XXXXXX` in the system temp directory,
/// removed with its contents when the returned value is dropped: hold it for as long as any
/// path into it is used (`dir.path()`). Panics when it cannot be created.
pub fn temp_dir(name: &str) -> TempDir {
    tempfile::Builder::new()
        .prefix(&format!("spvx-{name}-"))
        .tempdir()
        .unwrap_or_else(|e| panic!("cannot create a temp dir spvx-{name}-*: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_directory_counts_only_with_all_three_tools() {
        let tmp = temp_dir("testtools");
        let dir = tmp.path();
        std::fs::write(dir.join("spirv-as"), b"").expect("write");
        std::fs::write(dir.join("spirv-dis"), b"").expect("write");
        assert!(!has_tools(dir));
        std::fs::write(dir.join("spirv-val"), b"").expect("write");
        assert!(has_tools(dir));
    }

    #[test]
    fn a_temp_dir_is_fresh_and_removed_when_dropped() {
        let (a, b) = (temp_dir("testtools"), temp_dir("testtools"));
        assert_ne!(a.path(), b.path());
        let name = a.path().file_name().and_then(|n| n.to_str()).unwrap_or("");
        assert!(name.starts_with("spvx-testtools-"), "{name}");
        std::fs::write(a.path().join("f"), b"x").expect("write");
        let path = a.path().to_path_buf();
        assert!(path.is_dir());
        drop(a);
        assert!(!path.exists());
    }
}
