//! Name → id numbering, the way spirv-as numbers: every `%name` (numeric names like `%1`
//! included) gets the next free id on its first appearance, in the order operands appear in the
//! binary (result type before result id).

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// A small multiplicative hasher (the FxHash scheme) for short id names; SipHash dominated the
/// assembler's profile. Id names come from the text being assembled, so hash flooding could only
/// slow down that one assembly.
#[derive(Default)]
struct NameHasher(u64);

impl Hasher for NameHasher {
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut b = [0u8; 8];
            b[..chunk.len()].copy_from_slice(chunk);
            self.0 =
                (self.0.rotate_left(5) ^ u64::from_le_bytes(b)).wrapping_mul(0x517c_c1b7_2722_0a95);
        }
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

/// The id table of one assembly.
#[derive(Debug, Default)]
pub struct IdTable<'t> {
    ids: HashMap<&'t str, u32, BuildHasherDefault<NameHasher>>,
    /// Line where each id was defined as a result id (0: not defined), indexed by id.
    defined_on: Vec<u32>,
}

impl std::fmt::Debug for NameHasher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("NameHasher")
    }
}

impl<'t> IdTable<'t> {
    pub fn new() -> Self {
        Self::default()
    }

    /// The id of `name` (without the `%`), numbering it if it is new.
    pub fn get_or_assign(&mut self, name: &'t str) -> u32 {
        let next = self.ids.len() as u32 + 1;
        *self.ids.entry(name).or_insert(next)
    }

    /// Records that `id` is defined on `line`; returns the earlier line if it already was.
    pub fn define(&mut self, id: u32, line: u32) -> Result<(), u32> {
        let i = id as usize;
        if self.defined_on.len() <= i {
            self.defined_on.resize(i + 1, 0);
        }
        match self.defined_on[i] {
            0 => {
                self.defined_on[i] = line.max(1);
                Ok(())
            }
            first => Err(first),
        }
    }

    /// One more than the largest id handed out (the header's bound).
    pub fn bound(&self) -> u32 {
        self.ids.len() as u32 + 1
    }
}
