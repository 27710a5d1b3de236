//! The progress bar of long commands (`spvx amber` over many scripts, `spvx conform`,
//! `spvx bench`): indicatif's, on standard error, only when standard error is a terminal (so
//! logs and pipes get no control characters).

use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;

/// A bar of `len` steps (0: set later) showing position, elapsed time and a message, or
/// `None` when standard error is not a terminal.
pub fn bar(len: u64) -> Option<ProgressBar> {
    std::io::stderr().is_terminal().then(|| {
        let b = ProgressBar::new(len);
        if let Ok(style) =
            ProgressStyle::with_template("{bar:30} {pos}/{len} {elapsed_precise} {msg}")
        {
            b.set_style(style);
        }
        b
    })
}

/// Prints a line to standard error above the bar (or plainly without one).
pub fn say(bar: Option<&ProgressBar>, line: &str) {
    match bar {
        Some(b) => b.println(line),
        None => eprintln!("{line}"),
    }
}
