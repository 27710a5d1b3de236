//! The general register file (GRF): `count` registers of 32 bytes (8 dwords, XeHP/DG2) or 64
//! bytes (16 dwords, PVC and later), viewed as one little-endian byte array in increasing GRF
//! order, as DPAS.md views it ("GRFs as a 1-D memory space"). `rN.sub` addresses byte
//! `N·GRF_bytes + sub·type_size`.

use crate::{Platform, RegFileError};

/// Largest number of GRFs (large-GRF mode of PVC and later; XeHP/DG2 have 128).
pub const MAX_GRFS: usize = 256;

/// Default number of GRFs.
pub const DEFAULT_GRFS: usize = 128;

/// A register file: `grf_count` GRFs of `grf_bytes` bytes each, zero-initialised.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RegisterFile {
    grf_bytes: usize,
    bytes: Vec<u8>,
}

impl RegisterFile {
    /// A zeroed register file with `grf_count` GRFs of the platform's size.
    pub fn new(platform: Platform, grf_count: usize) -> Result<RegisterFile, RegFileError> {
        RegisterFile::with_grf_bytes(platform.grf_bytes() as usize, grf_count)
    }

    /// A zeroed register file with `grf_count` GRFs of `grf_bytes` bytes (32 or 64).
    pub fn with_grf_bytes(
        grf_bytes: usize,
        grf_count: usize,
    ) -> Result<RegisterFile, RegFileError> {
        if grf_count == 0 || grf_count > MAX_GRFS {
            return Err(RegFileError::BadCount(grf_count));
        }
        Ok(RegisterFile {
            grf_bytes,
            bytes: vec![0; grf_bytes * grf_count],
        })
    }

    /// Bytes per GRF.
    pub fn grf_bytes(&self) -> usize {
        self.grf_bytes
    }

    /// Number of GRFs.
    pub fn grf_count(&self) -> usize {
        self.bytes.len() / self.grf_bytes
    }

    /// The whole file as bytes (GRF 0 first, little-endian dwords).
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// The whole file as mutable bytes.
    pub fn as_bytes_mut(&mut self) -> &mut [u8] {
        &mut self.bytes
    }

    /// Checks that bytes `start..start + len` lie in the file.
    pub fn check_range(&self, start: usize, len: usize) -> Result<(), RegFileError> {
        let end = start.checked_add(len);
        match end {
            Some(end) if end <= self.bytes.len() => Ok(()),
            _ => Err(RegFileError::OutOfBounds {
                start,
                end: end.unwrap_or(usize::MAX),
                size: self.bytes.len(),
                grfs: self.grf_count(),
            }),
        }
    }

    /// The bytes `start..start + len`.
    pub fn bytes(&self, start: usize, len: usize) -> Result<&[u8], RegFileError> {
        self.check_range(start, len)?;
        Ok(&self.bytes[start..start + len])
    }

    /// Writes `data` at byte `start`.
    pub fn write_bytes(&mut self, start: usize, data: &[u8]) -> Result<(), RegFileError> {
        self.check_range(start, data.len())?;
        self.bytes[start..start + data.len()].copy_from_slice(data);
        Ok(())
    }

    /// The little-endian dword at byte `start` (any byte alignment).
    pub fn read_u32(&self, start: usize) -> Result<u32, RegFileError> {
        let b = self.bytes(start, 4)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    /// Writes a little-endian dword at byte `start`.
    pub fn write_u32(&mut self, start: usize, value: u32) -> Result<(), RegFileError> {
        self.write_bytes(start, &value.to_le_bytes())
    }

    /// The little-endian qword at byte `start` (df elements).
    pub fn read_u64(&self, start: usize) -> Result<u64, RegFileError> {
        let b = self.bytes(start, 8)?;
        let mut q = [0u8; 8];
        q.copy_from_slice(b);
        Ok(u64::from_le_bytes(q))
    }

    /// Writes a little-endian qword at byte `start`.
    pub fn write_u64(&mut self, start: usize, value: u64) -> Result<(), RegFileError> {
        self.write_bytes(start, &value.to_le_bytes())
    }

    /// The little-endian word at byte `start`.
    pub fn read_u16(&self, start: usize) -> Result<u16, RegFileError> {
        let b = self.bytes(start, 2)?;
        Ok(u16::from_le_bytes([b[0], b[1]]))
    }

    /// Writes a little-endian word at byte `start`.
    pub fn write_u16(&mut self, start: usize, value: u16) -> Result<(), RegFileError> {
        self.write_bytes(start, &value.to_le_bytes())
    }

    /// Dword `sub` of GRF `reg` (`rN.sub:ud`).
    pub fn dword(&self, reg: usize, sub: usize) -> Result<u32, RegFileError> {
        self.read_u32(
            reg.saturating_mul(self.grf_bytes)
                .saturating_add(sub.saturating_mul(4)),
        )
    }

    /// Sets dword `sub` of GRF `reg`.
    pub fn set_dword(&mut self, reg: usize, sub: usize, value: u32) -> Result<(), RegFileError> {
        let at = reg
            .saturating_mul(self.grf_bytes)
            .saturating_add(sub.saturating_mul(4));
        self.write_u32(at, value)
    }

    /// All dwords of GRF `reg`.
    pub fn grf(&self, reg: usize) -> Result<Vec<u32>, RegFileError> {
        let b = self.bytes(reg.saturating_mul(self.grf_bytes), self.grf_bytes)?;
        Ok(b.chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect())
    }
}
