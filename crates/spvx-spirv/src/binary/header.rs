//! The five-word module header.

use crate::grammar::Version;

/// The SPIR-V magic number.
pub const MAGIC: u32 = 0x0723_0203;

/// The module header (the magic number is implied).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Header {
    /// The version word (`0x00MMmm00`), kept as read.
    pub version: u32,
    /// The generator's magic number (tool id in the high 16 bits, tool version in the low 16).
    pub generator: u32,
    /// One more than the largest id.
    pub bound: u32,
    /// Reserved; 0.
    pub schema: u32,
}

/// The generator word spvx writes: tool id 0 in the high half (the SPIR-V spec reserves 0 for
/// tools without a registered id; spvx has none yet) and spvx's generator version 1 in the low.
pub const SPVX_GENERATOR: u32 = 0x0000_0001;

impl Header {
    /// A header for a module of `version` with the given id bound, written by spvx.
    pub fn new(version: Version, bound: u32) -> Self {
        Header {
            version: version.word(),
            generator: SPVX_GENERATOR,
            bound,
            schema: 0,
        }
    }

    /// The version as `major.minor`.
    pub fn version(&self) -> Version {
        Version::new((self.version >> 16) as u8, (self.version >> 8) as u8)
    }

    /// The header's five words.
    pub fn words(&self) -> [u32; 5] {
        [MAGIC, self.version, self.generator, self.bound, self.schema]
    }
}
