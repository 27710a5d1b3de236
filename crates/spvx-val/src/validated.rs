//! [`Validated`]: a module that passed validation, with the index validation built.
//!
//! Only [`crate::validate`] makes one, so holding a `Validated` is the proof that every rule
//! held for these instructions under the options used; consumers (the engine, the CLI) read the
//! index from it instead of building their own.

use spvx_spirv::index::ModuleIndex;

/// A valid module: its index (which holds the instructions).
pub struct Validated {
    index: ModuleIndex,
}

impl Validated {
    pub(crate) fn new(index: ModuleIndex) -> Self {
        Validated { index }
    }

    /// The module index.
    pub fn index(&self) -> &ModuleIndex {
        &self.index
    }

    /// The module index, by value.
    pub fn into_index(self) -> ModuleIndex {
        self.index
    }
}

impl std::ops::Deref for Validated {
    type Target = ModuleIndex;

    fn deref(&self) -> &ModuleIndex {
        &self.index
    }
}
