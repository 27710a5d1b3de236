//! Progress bars on long work: `spvx bench` and `spvx amber` (several scripts) draw
//! indicatif's bar on standard error when it is a terminal (run here under a pseudo-terminal
//! by util-linux's `script`), with the step count `done/total`, and draw nothing when it is
//! not (a pipe: no control characters in logs).

use std::path::PathBuf;
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Runs `spvx ARGS` under a pseudo-terminal; everything it wrote (stdout and stderr share
/// the terminal). `None` when `script` is missing (it is in Debian's essential bsdutils) or
/// cannot make a pseudo-terminal.
fn on_a_terminal(args: &str) -> Option<String> {
    let cmd = format!("{} {args}", env!("CARGO_BIN_EXE_spvx"));
    let o = Command::new("script")
        .args(["-qec", &cmd, "/dev/null"])
        .current_dir(root())
        .output()
        .ok()?;
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    let err = String::from_utf8_lossy(&o.stderr);
    // `script` itself failing (no pseudo-terminal in this environment) speaks as "script:".
    if !o.status.success() && (err.starts_with("script:") || out.starts_with("script:")) {
        eprintln!("skipped: `script` cannot make a pseudo-terminal here: {err}{out}");
        return None;
    }
    assert!(o.status.success(), "{out}{err}");
    Some(out)
}

const BENCH: &str = "bench --filter histogram --rounds 1 --warmup 0";
const AMBER: &str =
    "amber crates/spvx/tests/amber/aliasing.amber crates/spvx/tests/amber/dynamic_array.amber";

#[test]
fn bench_and_amber_draw_a_bar_on_a_terminal() {
    let Some(out) = on_a_terminal(BENCH) else {
        eprintln!("skipped: no `script` command");
        return;
    };
    // The bar's last state (indicatif erases lines with ESC [2K) and the log line above it.
    assert!(out.contains("\x1b[2K"), "{out}");
    assert!(out.contains(" 1/1 "), "{out}");
    assert!(
        out.contains("histogram_atomics_4M: loading bench/histogram.toml"),
        "{out}"
    );
    let out = on_a_terminal(AMBER).unwrap_or_default();
    assert!(out.contains("\x1b[2K") && out.contains(" 2/2 "), "{out}");
}

#[test]
fn no_bar_without_a_terminal() {
    for args in [BENCH, AMBER] {
        let o = Command::new(env!("CARGO_BIN_EXE_spvx"))
            .args(args.split(' '))
            .current_dir(root())
            .output()
            .expect("spawn spvx");
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(!err.contains('\x1b'), "{err}");
    }
}
