//! Register-file images on disk, in two formats:
//!
//! - **raw**: the GRFs as little-endian bytes, GRF 0 first (`grf_count × grf_bytes` bytes).
//!   A shorter image (a whole number of GRFs) fills the first GRFs; the rest stay zero.
//! - **hex text**: one line per GRF, `rN: DW0 DW1 …` with each dword as 8 hex digits (dword 0
//!   first, so each dword reads as the number it holds); `#` or `//` starts a comment; GRFs not
//!   listed are zero; a line must give all dwords of its GRF. Writing lists only non-zero GRFs.

use crate::regfile::MAX_GRFS;
use crate::{RegFileError, RegisterFile};

impl RegisterFile {
    /// Loads a raw image into a register file of `grf_count` GRFs of `grf_bytes` bytes.
    pub fn from_raw(
        image: &[u8],
        grf_bytes: usize,
        grf_count: usize,
    ) -> Result<RegisterFile, RegFileError> {
        let mut rf = RegisterFile::with_grf_bytes(grf_bytes, grf_count)?;
        if !image.len().is_multiple_of(grf_bytes) || image.len() > rf.as_bytes().len() {
            return Err(RegFileError::BadRawLength {
                len: image.len(),
                grf_bytes,
                max: grf_count.min(MAX_GRFS),
            });
        }
        rf.as_bytes_mut()[..image.len()].copy_from_slice(image);
        Ok(rf)
    }

    /// The raw image of the whole file.
    pub fn to_raw(&self) -> Vec<u8> {
        self.as_bytes().to_vec()
    }

    /// Loads a hex text image into a register file of `grf_count` GRFs of `grf_bytes` bytes.
    pub fn from_hex(
        text: &str,
        grf_bytes: usize,
        grf_count: usize,
    ) -> Result<RegisterFile, RegFileError> {
        let mut rf = RegisterFile::with_grf_bytes(grf_bytes, grf_count)?;
        let dwords = grf_bytes / 4;
        for (i, raw_line) in text.lines().enumerate() {
            let line_no = i + 1;
            let bad = |message: String| RegFileError::BadHexLine {
                line: line_no,
                message,
            };
            let line = strip_comment(raw_line).trim();
            if line.is_empty() {
                continue;
            }
            let (head, rest) = line
                .split_once(':')
                .ok_or_else(|| bad("expected `rN: dword dword ...`".into()))?;
            let head = head.trim();
            let reg: usize = head
                .strip_prefix(['r', 'R'])
                .and_then(|n| n.parse().ok())
                .ok_or_else(|| bad(format!("`{head}` is not a register name rN")))?;
            if reg >= grf_count {
                return Err(bad(format!(
                    "register r{reg} does not exist (the file has {grf_count} GRFs)"
                )));
            }
            let values: Vec<&str> = rest.split_whitespace().collect();
            if values.len() != dwords {
                return Err(bad(format!(
                    "r{reg} has {} dwords; a GRF holds {dwords}",
                    values.len()
                )));
            }
            for (sub, v) in values.iter().enumerate() {
                let digits = v.strip_prefix("0x").unwrap_or(v);
                let value = u32::from_str_radix(digits, 16)
                    .map_err(|_| bad(format!("`{v}` is not a 32-bit hex number")))?;
                rf.set_dword(reg, sub, value)?;
            }
        }
        Ok(rf)
    }

    /// The hex text image: a header comment, then every non-zero GRF.
    pub fn to_hex(&self) -> String {
        let mut out = format!(
            "# spvx dpas register file: {} GRFs of {} dwords; `rN: dword0 dword1 ...`, unlisted GRFs are zero\n",
            self.grf_count(),
            self.grf_bytes() / 4
        );
        for reg in 0..self.grf_count() {
            let start = reg * self.grf_bytes();
            let bytes = &self.as_bytes()[start..start + self.grf_bytes()];
            if bytes.iter().all(|&b| b == 0) {
                continue;
            }
            out.push_str(&format!("r{reg}:"));
            for c in bytes.chunks_exact(4) {
                out.push_str(&format!(
                    " {:08x}",
                    u32::from_le_bytes([c[0], c[1], c[2], c[3]])
                ));
            }
            out.push('\n');
        }
        out
    }
}

fn strip_comment(line: &str) -> &str {
    let cut = [line.find('#'), line.find("//")]
        .into_iter()
        .flatten()
        .min()
        .unwrap_or(line.len());
    &line[..cut]
}
