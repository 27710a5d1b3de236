//! CrossWorkgroup program-scope variables of a Kernel module (OpenCL C 2.0 `global int
//! counter = 5;` at program scope). All of them live in **one memory object per dispatch**,
//! a buffer whose memory space follows the kernel's buffer arguments: laid out in module
//! order (C alignment), initialised from their initialisers (zero without one), shared by
//! every workgroup of the dispatch and not written back anywhere.

use crate::compile::globals::reserve;
use crate::compile::kernel::{SC_CROSS_WORKGROUP, SC_GENERIC};
use crate::compile::{Compiler, MODEL_KERNEL};
use crate::error::ExecError;
use crate::memory::{Ptr, SPACE_BUFFER0, SPACE_NONE};
use crate::program::Scalar;
use crate::program::kernel::{AddressMap, ProgramGlobals};
use spvx_spirv::index::Type;
use spvx_spirv::instruction::{Id, Instruction};

/// UniformConstant storage class (a `__constant` buffer argument).
const SC_UNIFORM_CONSTANT: u32 = 0;

impl Compiler<'_> {
    /// Lays out the CrossWorkgroup variable of `inst` (pointee `pointee`, `size` bytes
    /// aligned to `align`) in the program-scope memory object and writes its initialiser;
    /// returns its pointer.
    pub(crate) fn cross_variable(
        &mut self,
        index: usize,
        inst: &Instruction,
        pointee: Id,
        size: u64,
        align: u64,
    ) -> Result<Ptr, ExecError> {
        let space = self.cross_space(index)?;
        let off = reserve(&mut self.globals.cross_bytes, size, align)
            .ok_or_else(|| self.err(index, "program-scope global variables beyond 4 GiB"))?;
        self.globals
            .cross_init
            .resize(self.globals.cross_bytes as usize, 0);
        if let Some(init) = inst.operands.get(1).and_then(|o| o.id()) {
            let v = self.value(index, init)?;
            for leaf in self.value_leaves(index, pointee)? {
                let bits = self.eval[(v.slot + leaf.slot) as usize];
                let at = off as usize + leaf.offset as usize;
                if leaf.scalar == Scalar::Ptr {
                    // Written as an address once the address map is known (`program_globals`).
                    let n = self.pointer_bits.unwrap_or(64) as usize / 8;
                    self.kstate.cross_pointer_inits.push((at, n, bits));
                    continue;
                }
                let n = leaf.scalar.mem_bytes() as usize;
                for (k, b) in self.globals.cross_init[at..at + n].iter_mut().enumerate() {
                    *b = (bits >> (8 * k)) as u8;
                }
            }
        }
        Ok(Ptr::new(space, off as u64))
    }

    /// The memory space of the program-scope object: the one after the descriptor bindings
    /// and the kernel's buffer arguments (fixed at the first CrossWorkgroup variable, checked
    /// again by [`Self::check_cross_space`]).
    fn cross_space(&mut self, index: usize) -> Result<u32, ExecError> {
        if let Some((space, _)) = self.kstate.cross_space {
            return Ok(space);
        }
        if self.pointer_bits.is_none() {
            return Err(
                self.unsupported(index, "CrossWorkgroup variables under Logical addressing")
            );
        }
        let Some(args) = self.kstate.entry.and_then(|e| self.kernel_buffer_args(e)) else {
            return Err(self.unsupported(
                index,
                "CrossWorkgroup variables in a module whose entry point is not a Kernel",
            ));
        };
        let bindings = self.globals.bindings.len();
        let space = SPACE_BUFFER0 as u64 + bindings as u64 + args as u64;
        if space >= SPACE_NONE as u64 {
            return Err(self.err(index, "too many memory objects"));
        }
        self.kstate.cross_space = Some((space as u32, bindings));
        Ok(space as u32)
    }

    /// The number of buffer arguments (`__global`, generic and `__constant` pointers) of the
    /// Kernel entry function `entry`; `None` when `entry` is not a Kernel entry point.
    fn kernel_buffer_args(&self, entry: Id) -> Option<u32> {
        let kernel = self.ix.entry_points.iter().any(|&i| {
            let ops = &self.insts[i].operands;
            ops.first().and_then(|o| o.word()) == Some(MODEL_KERNEL)
                && ops.get(1).and_then(|o| o.id()) == Some(entry)
        });
        if !kernel {
            return None;
        }
        let f = self.ix.functions.iter().find(|f| f.id == entry)?;
        let count = f
            .params
            .iter()
            .filter(|&&p| {
                let ty = self.insts[p].result_type.and_then(|t| self.ix.ty(t));
                matches!(
                    ty,
                    Some(Type::Pointer { storage_class, .. })
                        if matches!(*storage_class, SC_CROSS_WORKGROUP | SC_GENERIC | SC_UNIFORM_CONSTANT)
                )
            })
            .count();
        Some(count as u32)
    }

    /// The program-scope object's space when the module has one, checked against the spaces
    /// the kernel's arguments end up with (`first_free`: the space after the bindings and
    /// buffer arguments).
    pub(crate) fn check_cross_space(&self, first_free: u32) -> Result<Option<u32>, ExecError> {
        let Some((space, bindings)) = self.kstate.cross_space else {
            return Ok(None);
        };
        if bindings != self.globals.bindings.len() || space != first_free {
            return Err(self.unsupported(
                0,
                "CrossWorkgroup program-scope variables together with descriptor bindings declared after them",
            ));
        }
        Ok(Some(space))
    }

    /// The program-scope object of space `space` under `map`: its initial bytes with the
    /// pointers of initialisers written as addresses; refused when larger than an object of
    /// the address map may be.
    pub(crate) fn program_globals(
        &mut self,
        space: u32,
        map: AddressMap,
    ) -> Result<ProgramGlobals, ExecError> {
        let mut init = std::mem::take(&mut self.globals.cross_init);
        if init.len() as u64 > map.max_object_bytes() {
            return Err(self.err(
                0,
                format!(
                    "the program-scope global variables take {} bytes; with {}-bit pointers and {} memory spaces a memory object may have at most {} bytes",
                    init.len(),
                    map.bits,
                    map.spaces,
                    map.max_object_bytes()
                ),
            ));
        }
        for (at, n, ptr) in std::mem::take(&mut self.kstate.cross_pointer_inits) {
            let a = map.to_address(ptr);
            if let Some(dst) = init.get_mut(at..at + n) {
                for (k, b) in dst.iter_mut().enumerate() {
                    *b = (a >> (8 * k)) as u8;
                }
            }
        }
        Ok(ProgramGlobals { space, init })
    }
}
