//! Name → id numbering, the way spirv-as numbers: every `%name` (numeric names like `%1`
//! included) gets the next free id on its first appearance, in the order operands appear in the
//! binary (result type before result id).

use std::collections::HashMap;

/// The id table of one assembly.
#[derive(Debug, Default)]
pub struct IdTable<'t> {
    ids: HashMap<&'t str, u32>,
    /// Line where each id was defined (as a result id), by id.
    defined_on: HashMap<u32, u32>,
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
        match self.defined_on.insert(id, line) {
            Some(first) => {
                self.defined_on.insert(id, first);
                Err(first)
            }
            None => Ok(()),
        }
    }

    /// One more than the largest id handed out (the header's bound).
    pub fn bound(&self) -> u32 {
        self.ids.len() as u32 + 1
    }
}
