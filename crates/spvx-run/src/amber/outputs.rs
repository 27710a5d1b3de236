//! Writing a script's buffers after its last command (`spvx amber --out DIR`): each buffer as
//! `DIR/STEM/NAME.bin` (its bytes) or `NAME.npy` (an array of its data type, laid out as the
//! script says: std430 padding as NumPy padding fields, [`crate::npy::view`]), STEM being the
//! script's file name without its extension.

use super::exec::OutBuffer;
use crate::npy::view::View;
use crate::outputs::OutputError;
use crate::plan::OutFormat;
use std::path::{Path, PathBuf};

/// The directory of a script's buffers: `dir/STEM`.
pub fn script_dir(dir: &Path, script: &Path) -> PathBuf {
    let stem = script
        .file_stem()
        .map_or_else(|| "script".into(), |s| s.to_string_lossy().into_owned());
    dir.join(stem)
}

/// A buffer name as a file name: characters other than letters, digits, `.`, `-` and `_`
/// become `_`.
fn file_name(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_') {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// Writes every buffer into `dir` (created if needed); the names written, in order.
pub fn write_buffers(
    dir: &Path,
    buffers: &[OutBuffer],
    format: OutFormat,
) -> Result<Vec<String>, OutputError> {
    std::fs::create_dir_all(dir).map_err(|source| OutputError::CreateDir {
        dir: dir.to_path_buf(),
        source,
    })?;
    let mut written = Vec::new();
    for b in buffers {
        let stem = file_name(&b.name);
        let (name, bytes) = match format {
            OutFormat::Bin => (format!("{stem}.bin"), b.bytes.clone()),
            OutFormat::Npy => {
                let view = View::of(&b.layout, b.bytes.len() as u64).map_err(|source| {
                    OutputError::NamedView {
                        buffer: b.name.clone(),
                        source,
                    }
                })?;
                let file = view.write(&b.bytes).map_err(|source| OutputError::Npy {
                    stem: stem.clone(),
                    source,
                })?;
                (format!("{stem}.npy"), file)
            }
        };
        let path = dir.join(&name);
        std::fs::write(&path, bytes).map_err(|source| OutputError::Write { path, source })?;
        written.push(name);
    }
    Ok(written)
}
