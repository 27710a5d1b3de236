//! Replays every input of a corpus directory through the `exec` check in a release build (no
//! sanitizer) and prints the slowest ones: `cargo run --release --example replay_timed --
//! corpus/exec [N]` from `fuzz/` (N: how many to print, default 10). A libFuzzer "slow unit"
//! under AddressSanitizer is then easy to tell from a real slowdown.

use std::time::{Duration, Instant};

fn main() {
    let mut args = std::env::args().skip(1);
    let Some(dir) = args.next() else {
        eprintln!("usage: replay_timed DIR [N]");
        std::process::exit(2);
    };
    let show: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(10);
    let entries = match std::fs::read_dir(&dir) {
        Ok(e) => e,
        Err(e) => {
            eprintln!("replay_timed: {dir}: {e}");
            std::process::exit(2);
        }
    };
    let mut times: Vec<(Duration, String)> = Vec::new();
    let start = Instant::now();
    for entry in entries.flatten() {
        let path = entry.path();
        let Ok(data) = std::fs::read(&path) else {
            continue;
        };
        let t = Instant::now();
        spvx_fuzz::exec::exec(&data);
        times.push((t.elapsed(), path.display().to_string()));
    }
    times.sort_by_key(|t| std::cmp::Reverse(t.0));
    println!(
        "{} inputs in {:.1} s",
        times.len(),
        start.elapsed().as_secs_f64()
    );
    for (d, p) in times.iter().take(show) {
        println!("{:>9.3} s  {p}", d.as_secs_f64());
    }
}
