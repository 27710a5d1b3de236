//! Replays saved fuzz inputs through a check function: every file of
//! `<crate>/tests/regressions/<target>/` is passed to the check the fuzz target of that name
//! calls; all failures are collected and reported together, each with its file name. Included
//! by path by each crate's `tests/fuzz_regressions.rs`.

use std::path::Path;

/// Runs `check` on every file under `dir/<target>`; panics listing the files that failed.
pub fn replay(dir: &Path, target: &str, check: fn(&[u8])) -> usize {
    let dir = dir.join(target);
    let mut files: Vec<_> = match std::fs::read_dir(&dir) {
        Ok(entries) => entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.is_file())
            .collect(),
        Err(_) => Vec::new(),
    };
    files.sort();
    let mut failed = Vec::new();
    for f in &files {
        let Ok(data) = std::fs::read(f) else {
            failed.push(format!("{}: unreadable", f.display()));
            continue;
        };
        if let Err(e) = std::panic::catch_unwind(|| check(&data)) {
            let msg = e
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            failed.push(format!("{}: {msg}", f.display()));
        }
    }
    assert!(
        failed.is_empty(),
        "{} input(s) failed:\n{}",
        failed.len(),
        failed.join("\n")
    );
    files.len()
}
