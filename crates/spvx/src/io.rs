//! Reading inputs and writing outputs for the subcommands, with `-` meaning stdin/stdout.

use std::io::{Read, Write};
use std::path::Path;

/// Reads all bytes of `path`, or of standard input when `path` is `-`.
pub fn read_input(path: &Path) -> Result<Vec<u8>, String> {
    if path.as_os_str() == "-" {
        let mut buf = Vec::new();
        std::io::stdin()
            .read_to_end(&mut buf)
            .map_err(|e| format!("error: cannot read standard input: {e}"))?;
        Ok(buf)
    } else {
        std::fs::read(path).map_err(|e| format!("error: cannot read {}: {e}", path.display()))
    }
}

/// Writes `bytes` to `path`, or to standard output when `path` is `-`.
pub fn write_output(path: &Path, bytes: &[u8]) -> Result<(), String> {
    if path.as_os_str() == "-" {
        let mut out = std::io::stdout().lock();
        out.write_all(bytes)
            .and_then(|_| out.flush())
            .map_err(|e| format!("error: cannot write standard output: {e}"))
    } else {
        std::fs::write(path, bytes)
            .map_err(|e| format!("error: cannot write {}: {e}", path.display()))
    }
}
