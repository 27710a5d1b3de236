//! The Kernel (OpenCL) execution model at compile time: the addressing model, and the entry
//! function's parameters turned into kernel arguments (buffers, local memory, values).
//!
//! Argument kinds follow the parameter's type (OpenCL C → SPIR-V as llvm-spirv emits it):
//! CrossWorkgroup pointer = `__global` buffer, UniformConstant pointer = `__constant` buffer,
//! Workgroup pointer = `__local` memory, Function pointer = a struct passed by value (ByVal),
//! anything else = a value (scalar, vector, or an aggregate passed in registers).

use super::Compiler;
use super::func::Code;
use super::func::Signatures;
use super::globals::{reserve, sc};
use super::types::MatrixDeco;
use crate::error::ExecError;
use crate::program::kernel::{KernelInfo, KernelParam, ParamPlace, PtrOp};
use crate::program::{ConvOp, ICmpOp, Inst, Scalar};
use crate::resources::{KernelArgInfo, KernelArgKind};
use spvx_spirv::instruction::{Id, Instruction};
use spvx_val::index::Type;

/// Addressing models (SPIR-V 1.6 §3.6).
const ADDRESSING_PHYSICAL32: u32 = 1;
const ADDRESSING_PHYSICAL64: u32 = 2;

/// CrossWorkgroup storage class.
pub(crate) const SC_CROSS_WORKGROUP: u32 = 5;
/// Generic storage class.
pub(crate) const SC_GENERIC: u32 = 8;

/// The module's addressing model: `Some(pointer bits)` for physical addressing, `None` for
/// Logical (and PhysicalStorageBuffer64, which the engine treats as logical).
pub(crate) fn physical_bits(insts: &[Instruction]) -> Option<u32> {
    let mm = insts.iter().find(|i| i.opcode == 14)?;
    match mm.operands.first().and_then(|o| o.word())? {
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
        Ok(KernelInfo {
            local_size,
            args,
            params,
            pointer_bits: self.pointer_bits.unwrap_or(64),
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
        name: &str,
    ) -> Result<(), ExecError> {
        if self.pointer_bits.is_none() {
            return Err(self.unsupported(index, format!("{name} with Logical addressing")));
        }
        if name == "OpCopyMemorySized" {
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
        let inst_for = |k: u32| -> Result<Inst, ExecError> {
            let (d, x) = (dst.slot + k, a.slot + k);
            Ok(match name {
                "OpConvertPtrToU" => Inst::Convert {
                    op: ConvOp::UConvert {
                        from: 64,
                        to: ds.bits() as u8,
                    },
                    dst: d,
                    a: x,
                },
                "OpConvertUToPtr" | "OpBitcast" => {
                    let (s, _) = self.scalar_components(index, a.ty)?;
                    if s != Scalar::Ptr && ds != Scalar::Ptr && s.bits() != ds.bits() {
                        return Err(self.err(index, "bitcast between different widths"));
                    }
                    Inst::Convert {
                        op: ConvOp::UConvert {
                            from: s.bits().min(64) as u8,
                            to: 64.min(ds.bits()) as u8,
                        },
                        dst: d,
                        a: x,
                    }
                }
                "OpPtrCastToGeneric" => Inst::Copy { dst: d, src: x },
                "OpGenericCastToPtr" | "OpGenericCastToPtrExplicit" => {
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
                "OpGenericPtrMemSemantics" => Inst::Ptr {
                    op: PtrOp::MemSemantics,
                    dst: d,
                    a: x,
                    b: x,
                },
                "OpPtrEqual" | "OpPtrNotEqual" => Inst::ICmp {
                    op: if name == "OpPtrEqual" {
                        ICmpOp::Eq
                    } else {
                        ICmpOp::Ne
                    },
                    bits: 64,
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
