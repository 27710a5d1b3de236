//! Reading the batch forms' standard input: in blocks of [`BLOCK`] bytes, each line handed on
//! without its `\n` (a last line without one too), so that no line is copied into a `String`.

use std::io::Read;

/// Bytes read at a time.
const BLOCK: usize = 1 << 20;

/// Why [`each_line`] stopped.
pub(super) enum Stop {
    /// Reading the input failed.
    Read(std::io::Error),
    /// A line's handler returned this error.
    Line(String),
}

/// Calls `line` on every line of `input` in order, until the input ends, reading fails or
/// `line` returns an error.
pub(super) fn each_line(
    input: &mut impl Read,
    mut line: impl FnMut(&[u8]) -> Result<(), String>,
) -> Result<(), Stop> {
    let mut pending: Vec<u8> = Vec::with_capacity(BLOCK);
    let mut block = vec![0u8; BLOCK];
    loop {
        let n = match input.read(&mut block) {
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(Stop::Read(e)),
        };
        if n == 0 {
            break;
        }
        pending.extend_from_slice(&block[..n]);
        if let Some(last) = pending.iter().rposition(|&b| b == b'\n') {
            for l in pending[..last].split(|&b| b == b'\n') {
                line(l).map_err(Stop::Line)?;
            }
            pending.drain(..=last);
        }
    }
    if !pending.is_empty() {
        line(&pending).map_err(Stop::Line)?;
    }
    Ok(())
}
