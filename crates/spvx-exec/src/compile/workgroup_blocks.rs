//! Workgroup memory with explicit layout (SPV_KHR_workgroup_memory_explicit_layout): the
//! Workgroup variables whose type is a `Block`-decorated struct are views of one underlying
//! storage ("All the Workgroup blocks share the same underlying storage"), so they all start at
//! the same byte of the workgroup's shared memory and their members sit at their Offsets.
//!
//! The shared region is as large as the largest such variable and is reserved once, when the
//! first one is laid out. A Block variable not decorated `Aliased` in a module declaring
//! UntypedPointersKHR (which lifts spirv-val's "all of them must be Aliased" rule) gets memory
//! of its own, as Mesa does (docs/semantics/memory-and-resources.md, "Workgroup blocks").

use super::Compiler;
use super::globals::{reserve, sc};
use super::types::{MatrixDeco, deco};
use crate::error::ExecError;
use spvx_spirv::index::Type;
use spvx_spirv::instruction::Id;
use spvx_spirv::op::Op;

/// Decoration Aliased.
const ALIASED: u32 = 20;
/// Capability UntypedPointersKHR.
const CAP_UNTYPED_POINTERS: u32 = 4473;

impl Compiler<'_> {
    /// True when Workgroup variable `var` of type `pointee` lives in the shared region of the
    /// Workgroup blocks.
    fn in_block_region(&self, var: Id, pointee: Id) -> bool {
        self.deco(pointee, deco::BLOCK).is_some()
            && (self.deco(var, ALIASED).is_some()
                || !self.ix.enabled_capabilities.contains(&CAP_UNTYPED_POINTERS))
    }

    /// The byte offset in workgroup memory of Workgroup variable `var` (of type `pointee`,
    /// `size` bytes aligned to `align`): the shared region's start for the Workgroup blocks,
    /// else memory of its own.
    pub(crate) fn workgroup_offset(
        &mut self,
        index: usize,
        var: Id,
        pointee: Id,
        (size, align): (u64, u64),
    ) -> Result<u32, ExecError> {
        if !self.in_block_region(var, pointee) {
            return reserve(&mut self.globals.workgroup_bytes, size, align)
                .ok_or_else(|| self.err(index, "workgroup memory beyond 4 GiB"));
        }
        if let Some(base) = self.globals.workgroup_blocks {
            return Ok(base);
        }
        // The region holds the largest of the module's Workgroup blocks.
        let (mut bytes, mut max_align) = (0u64, 1u64);
        for (k, inst) in self.insts.iter().enumerate() {
            let (Op::Variable, Some(ty), Some(id)) = (inst.opcode, inst.result_type, inst.result)
            else {
                continue;
            };
            if inst.operands.first().and_then(|o| o.word()) != Some(sc::WORKGROUP) {
                continue;
            }
            let Some(Type::Pointer { pointee: p, .. }) = self.ix.ty(ty) else {
                continue;
            };
            if self.in_block_region(id, *p) {
                let (s, a) = self.size_align(k, *p, MatrixDeco::default())?;
                bytes = bytes.max(s);
                max_align = max_align.max(a);
            }
        }
        let base = reserve(
            &mut self.globals.workgroup_bytes,
            bytes.max(size),
            max_align.max(align),
        )
        .ok_or_else(|| self.err(index, "workgroup memory beyond 4 GiB"))?;
        self.globals.workgroup_blocks = Some(base);
        Ok(base)
    }
}
