//! The Kernel (OpenCL) execution model at compile time: the addressing model, and the entry
//! function's parameters turned into kernel arguments (buffers, local memory, values).
//!
//! Argument kinds follow the parameter's type (OpenCL C → SPIR-V as llvm-spirv emits it):
//! CrossWorkgroup pointer = `__global` buffer, UniformConstant pointer = `__constant` buffer,
//! Workgroup pointer = `__local` memory, Function pointer = a struct passed by value (ByVal),
//! anything else = a value (scalar, vector, or an aggregate passed in registers).

mod cross;

use super::Compiler;
use super::func::{Code, Signatures};
use super::globals::{reserve, sc};
use super::types::MatrixDeco;
use crate::error::ExecError;
use crate::memory::SPACE_BUFFER0;
use crate::program::kernel::{AddressMap, KernelInfo, KernelParam, ParamPlace, PtrOp};
use crate::program::{Inst, Leaf, Scalar, Slot};
use crate::resources::{KernelArgInfo, KernelArgKind};
use spvx_spirv::index::{ModuleIndex, Type};
use spvx_spirv::instruction::{Id, Instruction};
use spvx_spirv::op::Op;

/// Addressing models (SPIR-V 1.6 §3.6).
const ADDRESSING_PHYSICAL32: u32 = 1;
const ADDRESSING_PHYSICAL64: u32 = 2;

/// CrossWorkgroup storage class.
pub(crate) const SC_CROSS_WORKGROUP: u32 = 5;
/// Generic storage class.
pub(crate) const SC_GENERIC: u32 = 8;

/// Kernel-model state of one compilation: the address map (known once the kernel's buffer
/// arguments are counted) and pointer values in initialisers of program-scope data, written
/// as addresses once the map is known.
#[derive(Default)]
pub(crate) struct KernelState {
    pub address_map: Option<AddressMap>,
    /// (byte offset in private memory, bytes, pointer bits) of pointer leaves of initialisers.
    pub pointer_inits: Vec<(usize, usize, u64)>,
    /// The entry point's function.
    pub entry: Option<Id>,
    /// The memory space of the CrossWorkgroup program-scope variables (`cross`) and the
    /// number of bindings when it was fixed.
    pub cross_space: Option<(u32, usize)>,
    /// Pointer leaves of their initialisers: (byte offset, bytes, pointer bits).
    pub cross_pointer_inits: Vec<(usize, usize, u64)>,
}

/// The module's addressing model: `Some(pointer bits)` for physical addressing, `None` for
/// Logical (and PhysicalStorageBuffer64, which the engine treats as logical).
pub(crate) fn physical_bits(ix: &ModuleIndex) -> Option<u32> {
    match ix.addressing_model()? {
        ADDRESSING_PHYSICAL32 => Some(32),
        ADDRESSING_PHYSICAL64 => Some(64),
        _ => None,
    }
}

impl Compiler<'_> {
    /// The arguments of the Kernel entry function `entry` and where they go.
    pub(crate) fn kernel_info(
        &mut self,
        entry: Id,
        sigs: &Signatures,
        local_size: Option<[u32; 3]>,
    ) -> Result<KernelInfo, ExecError> {
        let Some(f) = self.ix.functions.iter().find(|f| f.id == entry).cloned() else {
            return Err(self.err(0, "the entry point's function is not defined"));
        };
        let slots = sigs.get(&entry).map(|s| s.0.clone()).unwrap_or_default();
        let mut args = Vec::new();
        let mut params = Vec::new();
        for (k, (&p, &slot)) in f.params.iter().zip(&slots).enumerate() {
            let inst = &self.insts[p];
            let (Some(ty), Some(id)) = (inst.result_type, inst.result) else {
                return Err(self.err(p, "a parameter without a type"));
            };
            let name = self.debug_name(id);
            let (kind, size, place) = match self.ty(p, ty)?.clone() {
                Type::Pointer {
                    storage_class,
                    pointee,
                } => {
                    let size = self.pointee_size(p, pointee);
                    match storage_class {
                        SC_CROSS_WORKGROUP | SC_GENERIC => {
                            (KernelArgKind::Buffer, size, ParamPlace::Pointer)
                        }
                        sc::UNIFORM_CONSTANT => {
                            (KernelArgKind::ConstantBuffer, size, ParamPlace::Pointer)
                        }
                        sc::WORKGROUP => (KernelArgKind::Local, size, ParamPlace::Pointer),
                        sc::FUNCTION => {
                            let (bytes, align) =
                                self.size_align(p, pointee, MatrixDeco::default())?;
                            let offset = reserve(&mut self.globals.private_bytes, bytes, align)
                                .ok_or_else(|| self.err(p, "by-value argument too large"))?;
                            self.globals
                                .private_init
                                .resize(self.globals.private_bytes as usize, 0);
                            let size32 = u32::try_from(bytes)
                                .map_err(|_| self.err(p, "by-value argument too large"))?;
                            (
                                KernelArgKind::ByValue,
                                bytes,
                                ParamPlace::ByValue {
                                    offset,
                                    size: size32,
                                },
                            )
                        }
                        c => {
                            return Err(self.unsupported(
                                p,
                                format!("kernel arguments pointing to storage class {c}"),
                            ));
                        }
                    }
                }
                _ => {
                    let (bytes, _) = self.size_align(p, ty, MatrixDeco::default())?;
                    let leaves = self.value_leaves(p, ty)?.into_boxed_slice();
                    (KernelArgKind::Scalar, bytes, ParamPlace::Value { leaves })
                }
            };
            args.push(KernelArgInfo {
                index: k as u32,
                kind,
                size,
                name,
            });
            params.push(KernelParam { slot, place });
        }
        let buffer_args = args
            .iter()
            .filter(|a| {
                matches!(
                    a.kind,
                    KernelArgKind::Buffer | KernelArgKind::ConstantBuffer
                )
            })
            .count() as u32;
        let bits = self.pointer_bits.unwrap_or(64);
        let mut spaces = SPACE_BUFFER0 + self.globals.bindings.len() as u32 + buffer_args;
        // The program-scope global object takes the space after the buffer arguments.
        let cross = self.check_cross_space(spaces)?;
        if cross.is_some() {
            spaces += 1;
        }
        let map = AddressMap::new(bits, spaces);
        self.kstate.address_map = Some(map);
        let globals = match cross {
            Some(space) => Some(self.program_globals(space, map)?),
            None => None,
        };
        for (at, n, ptr) in std::mem::take(&mut self.kstate.pointer_inits) {
            let a = map.to_address(ptr);
            if let Some(dst) = self.globals.private_init.get_mut(at..at + n) {
                for (k, b) in dst.iter_mut().enumerate() {
                    *b = (a >> (8 * k)) as u8;
                }
            }
        }
        Ok(KernelInfo {
            local_size,
            args,
            params,
            pointer_bits: bits,
            address_map: map,
            globals,
        })
    }

    /// The size of a pointee type, 0 when it has none.
    fn pointee_size(&self, index: usize, pointee: Id) -> u64 {
        self.size_align(index, pointee, MatrixDeco::default())
            .map_or(0, |(s, _)| s)
    }
}

impl Compiler<'_> {
    /// True when an OpBitcast's result or operand is a pointer.
    pub(crate) fn bitcast_has_pointer(
        &self,
        index: usize,
        inst: &Instruction,
    ) -> Result<bool, ExecError> {
        let dst = self.result(index, inst)?;
        let v = self.operand(index, inst, 0)?;
        let is_ptr = |ty| matches!(self.ix.ty(ty), Some(Type::Pointer { .. }));
        Ok(is_ptr(dst.ty) || is_ptr(v.ty))
    }

    /// Pointer instructions of physical addressing. A pointer is held as `memory::Ptr` bits
    /// (space in the top 16 bits, byte offset below), and that is its integer value.
    pub(crate) fn pointer_op(
        &mut self,
        index: usize,
        inst: &Instruction,
        code: &mut Code,
        opcode: Op,
    ) -> Result<(), ExecError> {
        if self.pointer_bits.is_none() {
            return self.logical_pointer_op(index, inst, code, opcode);
        }
        if opcode == Op::CopyMemorySized {
            let d = self.operand(index, inst, 0)?;
            let s = self.operand(index, inst, 1)?;
            let n = self.operand(index, inst, 2)?;
            let size_bits = self.scalar(index, n.ty)?.bits() as u8;
            code.push(
                index,
                Inst::CopyMemorySized {
                    dst: d.slot,
                    src: s.slot,
                    size: n.slot,
                    size_bits,
                },
            );
            return Ok(());
        }
        let dst = self.result(index, inst)?;
        let a = self.operand(index, inst, 0)?;
        let (ds, n) = self.scalar_components(index, dst.ty)?;
        let map = self.address_map();
        let inst_for = |k: u32| -> Result<Inst, ExecError> {
            let (d, x) = (dst.slot + k, a.slot + k);
            Ok(match opcode {
                Op::ConvertPtrToU => Inst::Ptr {
                    op: PtrOp::ToAddress {
                        map,
                        bits: ds.bits() as u8,
                    },
                    dst: d,
                    a: x,
                    b: x,
                },
                Op::ConvertUToPtr | Op::Bitcast => {
                    let (s, _) = self.scalar_components(index, a.ty)?;
                    match (s == Scalar::Ptr, ds == Scalar::Ptr) {
                        (true, true) => Inst::Copy { dst: d, src: x },
                        (true, false) if opcode == Op::Bitcast && ds.bits() != map.bits as u32 => {
                            return Err(self.err(index, "bitcast between different widths"));
                        }
                        (true, false) => Inst::Ptr {
                            op: PtrOp::ToAddress {
                                map,
                                bits: ds.bits() as u8,
                            },
                            dst: d,
                            a: x,
                            b: x,
                        },
                        (false, true) if opcode == Op::Bitcast && s.bits() != map.bits as u32 => {
                            return Err(self.err(index, "bitcast between different widths"));
                        }
                        (false, _) => Inst::Ptr {
                            op: PtrOp::FromAddress {
                                map,
                                bits: s.bits().min(64) as u8,
                            },
                            dst: d,
                            a: x,
                            b: x,
                        },
                    }
                }
                Op::PtrCastToGeneric => Inst::Copy { dst: d, src: x },
                Op::GenericCastToPtr | Op::GenericCastToPtrExplicit => {
                    let class = match self.ty(index, dst.ty)? {
                        Type::Pointer { storage_class, .. } => *storage_class,
                        _ => return Err(self.err(index, "expected a pointer result")),
                    };
                    Inst::Ptr {
                        op: PtrOp::GenericToClass(class),
                        dst: d,
                        a: x,
                        b: x,
                    }
                }
                Op::GenericPtrMemSemantics => Inst::Ptr {
                    op: PtrOp::MemSemantics,
                    dst: d,
                    a: x,
                    b: x,
                },
                Op::PtrEqual | Op::PtrNotEqual => Inst::Ptr {
                    op: PtrOp::Equal {
                        map,
                        ne: opcode == Op::PtrNotEqual,
                    },
                    dst: d,
                    a: x,
                    b: self.operand(index, inst, 1)?.slot,
                },
                _ => {
                    // OpPtrDiff
                    let Type::Pointer { pointee, .. } = self.ty(index, a.ty)?.clone() else {
                        return Err(self.err(index, "expected pointer operands"));
                    };
                    let (s, al) = self.size_align(index, pointee, MatrixDeco::default())?;
                    let elem = u32::try_from(s.next_multiple_of(al.max(1)))
                        .map_err(|_| self.err(index, "pointee too large"))?;
                    Inst::Ptr {
                        op: PtrOp::Diff {
                            elem,
                            bits: ds.bits() as u8,
                            map,
                        },
                        dst: d,
                        a: x,
                        b: self.operand(index, inst, 1)?.slot,
                    }
                }
            })
        };
        for k in 0..n {
            let i = inst_for(k)?;
            code.push(index, i);
        }
        Ok(())
    }
}

impl Compiler<'_> {
    /// OpPtrEqual, OpPtrNotEqual and OpPtrDiff under Logical addressing (SPIR-V 1.4; pointers
    /// are a memory space and a byte offset, docs/semantics/memory-and-resources.md "Pointer
    /// comparison and difference"); the other pointer instructions need physical addressing.
    fn logical_pointer_op(
        &mut self,
        index: usize,
        inst: &Instruction,
        code: &mut Code,
        opcode: Op,
    ) -> Result<(), ExecError> {
        let op = match opcode {
            Op::PtrEqual | Op::PtrNotEqual => PtrOp::LogicalEqual {
                ne: opcode == Op::PtrNotEqual,
            },
            Op::PtrDiff => {
                let dst = self.result(index, inst)?;
                let a = self.operand(index, inst, 0)?;
                let a_id = inst.operands.first().and_then(|o| o.id()).unwrap_or(0);
                let pointee = self.pointee(index, a)?;
                let m = self.ptr_matrix.get(&a_id).copied().unwrap_or_default();
                PtrOp::LogicalDiff {
                    elem: self.ptr_step(index, a.ty, pointee, m)?,
                    bits: self.scalar(index, dst.ty)?.bits() as u8,
                }
            }
            _ => {
                return Err(self.unsupported(index, format!("{opcode} with Logical addressing")));
            }
        };
        let dst = self.result(index, inst)?;
        let a = self.operand(index, inst, 0)?;
        let b = self.operand(index, inst, 1)?;
        code.push(
            index,
            Inst::Ptr {
                op,
                dst: dst.slot,
                a: a.slot,
                b: b.slot,
            },
        );
        Ok(())
    }
}

impl Compiler<'_> {
    /// The address map of physical addressing (before the kernel's arguments are counted:
    /// the map of the module's bindings alone).
    pub(crate) fn address_map(&self) -> AddressMap {
        self.kstate.address_map.unwrap_or_else(|| {
            AddressMap::new(
                self.pointer_bits.unwrap_or(64),
                SPACE_BUFFER0 + self.globals.bindings.len() as u32,
            )
        })
    }

    /// Under physical addressing, the pointer leaves of `leaves` become integers of the
    /// pointer width (memory holds addresses); returns the new leaves and the pointer leaves'
    /// slots.
    fn address_leaves(&self, leaves: Box<[Leaf]>) -> (Box<[Leaf]>, Vec<u32>) {
        let Some(bits) = self.pointer_bits else {
            return (leaves, Vec::new());
        };
        let mut pointers = Vec::new();
        let leaves = leaves
            .iter()
            .map(|l| {
                if l.scalar == Scalar::Ptr {
                    pointers.push(l.slot);
                    Leaf {
                        scalar: Scalar::Int(bits as u8),
                        ..*l
                    }
                } else {
                    *l
                }
            })
            .collect();
        (leaves, pointers)
    }

    /// True when a value with these leaves holds a pointer that memory keeps as an address.
    pub(crate) fn has_address_leaves(&self, leaves: &[Leaf]) -> bool {
        self.pointer_bits.is_some() && leaves.iter().any(|l| l.scalar == Scalar::Ptr)
    }

    /// A load of `leaves` through `ptr` into `dst`; pointer leaves are read as addresses and
    /// converted to pointers.
    pub(crate) fn push_load(
        &mut self,
        index: usize,
        dst: Slot,
        ptr: Slot,
        leaves: Box<[Leaf]>,
        code: &mut Code,
    ) {
        let map = self.address_map();
        let (leaves, pointers) = self.address_leaves(leaves);
        code.push(index, Inst::Load { dst, ptr, leaves });
        for p in pointers {
            let s = dst + p;
            code.push(
                index,
                Inst::Ptr {
                    op: PtrOp::FromAddress {
                        map,
                        bits: map.bits,
                    },
                    dst: s,
                    a: s,
                    b: s,
                },
            );
        }
    }

    /// A store of the value at `src` (with `leaves`) through `ptr`; pointer leaves are
    /// converted to addresses first (into new slots, the value itself is kept).
    pub(crate) fn push_store(
        &mut self,
        index: usize,
        ptr: Slot,
        src: Slot,
        leaves: Box<[Leaf]>,
        code: &mut Code,
    ) -> Result<(), ExecError> {
        let map = self.address_map();
        let (leaves, pointers) = self.address_leaves(leaves);
        if pointers.is_empty() {
            code.push(index, Inst::Store { ptr, src, leaves });
            return Ok(());
        }
        let n = leaves.iter().map(|l| l.slot + 1).max().unwrap_or(0);
        let tmp = self.alloc(index, n)?;
        for l in leaves.iter() {
            let (d, a) = (tmp + l.slot, src + l.slot);
            let inst = if pointers.contains(&l.slot) {
                Inst::Ptr {
                    op: PtrOp::ToAddress {
                        map,
                        bits: map.bits,
                    },
                    dst: d,
                    a,
                    b: a,
                }
            } else {
                Inst::Copy { dst: d, src: a }
            };
            code.push(index, inst);
        }
        code.push(
            index,
            Inst::Store {
                ptr,
                src: tmp,
                leaves,
            },
        );
        Ok(())
    }

    /// A pointer leaf of an initialiser of program-scope data at byte `at` of private memory:
    /// written as its address once the address map is known. Returns false without physical
    /// addressing.
    pub(crate) fn defer_pointer_init(&mut self, at: usize, ptr: u64) -> bool {
        let Some(bits) = self.pointer_bits else {
            return false;
        };
        self.kstate.pointer_inits.push((at, bits as usize / 8, ptr));
        true
    }
}
