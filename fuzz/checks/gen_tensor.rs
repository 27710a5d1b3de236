//! A generator of random SPIR-V compute modules that use tensors (SPV_ARM_tensors), driven by
//! the fuzzer's bytes (read with `gen_core.rs`'s [`Bytes`], which also gives the structure the
//! generators share) and built with spvx-spirv's `module::Builder`; the engine target
//! `exec_tensor` runs them.
//!
//! Every module is a Shader module (SPIR-V 1.6, Logical GLSL450, or one time in four Logical
//! Vulkan with VulkanMemoryModel) with one GLCompute entry point `main` (LocalSize x from the
//! bytes), the built-ins GlobalInvocationId and LocalInvocationIndex, a storage buffer of
//! `uint[]` for results (set 0, binding [`OUT_BINDING`]) and one to three UniformConstant tensor
//! variables (set 0, bindings 0, 1, 2): `OpTypeTensorARM` of bool, 8/16/32/64-bit signed or
//! unsigned integers or 16/32/64-bit floats, rank 1–4 or rarely 5–8 (the Rank a constant of
//! 32-bit, signed, 64-bit or 8-bit integer type), sometimes with a Shape; sometimes an array of 1–3 tensors or
//! a runtime array of them (StorageTensorArrayDynamicIndexingARM, RuntimeDescriptorArray),
//! indexed by constants (also past the end) or at run time (sometimes NonUniform). Capabilities
//! Int8/Int16/Int64/Float16/Float64 are declared when their types are used.
//!
//! The body is random statements: OpTensorReadARM of a scalar or of an array of 1–5 elements,
//! with and without NontemporalARM and OutOfBoundsValueARM (and with the Vulkan memory model,
//! NonPrivateElementARM and MakeElementVisibleARM); OpTensorWriteARM of a scalar or an array
//! (MakeElementAvailableARM likewise); OpTensorQuerySizeARM of a constant dimension into any
//! integer type; coordinates of any integer type from 8 to 64 bits, each from the invocation
//! id, small constants, boundary constants (all ones, the sign bit, 2^32 + 1, 200 in 8 bits,
//! a queried dimension size and one less), or values computed from what was read; integer,
//! float and boolean arithmetic, conversions, comparisons and selects on what was read; array
//! extracts, inserts and constructs; stores into the output buffer; tensors passed to a helper
//! function `uint h(tensor, uint)`; structured selections and loops (whose trip counts may be
//! huge or infinite).
//!
//! A tensor variable is either *writable* (the module may write it) or never written (the
//! check then requires its bytes unchanged). In race-free mode (`race_free`), the result cannot
//! depend on how invocations interleave: every access to a writable tensor is at an element the
//! invocation owns — outermost coordinate GlobalInvocationId.x for ranks 2–4 (the invocation's
//! slice; array accesses stay in the innermost dimension), and `4·x + c` with at most `4 − c`
//! elements for rank 1 — or, one time in eight, far out of bounds; every output store is at
//! `4·x + (v & 3)` or far out of bounds. Invocations of different workgroups may share an x;
//! the engine target runs workgroups one after another, so that is no race. Outside race-free
//! mode, coordinates and output indices are anything.
//!
//! Left out: unranked and shaped-in-Vulkan rules (the module is validated for the universal
//! environment, where Shape is allowed), tensor constants (SPV_ARM_graph), reads whose
//! OutOfBoundsValueARM is an array (spvx-val refuses it), barriers, atomics and subgroup
//! instructions (the `exec` target covers them).

use crate::gen_core::{
    Budget, Bytes, Emit, FLOAT_BINARY_OPS, Generator, INT_BINARY_OPS, counted_loop,
};
use spvx_spirv::grammar::Version;
use spvx_spirv::module::{Arg, Builder, Module};
use spvx_spirv::op::Op;

/// The scalar types the generator uses (tensor elements, coordinates, arithmetic).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ty {
    Bool,
    I8,
    U8,
    I16,
    U16,
    I32,
    U32,
    I64,
    U64,
    F16,
    F32,
    F64,
}

/// Every type, in the order the bytes pick them.
pub const TYS: [Ty; 12] = [
    Ty::U32,
    Ty::I32,
    Ty::F32,
    Ty::U8,
    Ty::I8,
    Ty::U16,
    Ty::I16,
    Ty::F16,
    Ty::U64,
    Ty::I64,
    Ty::F64,
    Ty::Bool,
];

/// Integer types, the 32-bit ones first (picked more often).
const INTS: [Ty; 8] = [
    Ty::U32,
    Ty::I32,
    Ty::U64,
    Ty::I64,
    Ty::U16,
    Ty::I16,
    Ty::U8,
    Ty::I8,
];

impl Ty {
    /// Bits of a value (bool: 1).
    pub fn bits(self) -> u32 {
        match self {
            Ty::Bool => 1,
            Ty::I8 | Ty::U8 => 8,
            Ty::I16 | Ty::U16 | Ty::F16 => 16,
            Ty::I32 | Ty::U32 | Ty::F32 => 32,
            Ty::I64 | Ty::U64 | Ty::F64 => 64,
        }
    }

    /// Bytes of a tensor element (bool: one byte, `VK_FORMAT_R8_BOOL_ARM`).
    pub fn element_bytes(self) -> u32 {
        self.bits().div_ceil(8)
    }

    fn is_int(self) -> bool {
        !self.is_float() && self != Ty::Bool
    }

    fn is_float(self) -> bool {
        matches!(self, Ty::F16 | Ty::F32 | Ty::F64)
    }

    fn signed(self) -> bool {
        matches!(self, Ty::I8 | Ty::I16 | Ty::I32 | Ty::I64)
    }
}

/// One tensor variable the module declares (set 0).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TensorDecl {
    pub binding: u32,
    pub element: Ty,
    pub rank: u32,
    /// The type's Shape operand (outermost first), when it has one.
    pub shape: Option<Vec<u64>>,
    /// `None`: one tensor; `Some(n)`: an array of n tensors; `Some(0)`: a runtime array.
    pub array: Option<u32>,
    /// Whether the module may write it (a tensor not writable is never written).
    pub writable: bool,
}

/// What the generated module's interface is, for the engine check.
#[derive(Clone, Debug)]
pub struct Interface {
    /// LocalSize x (y = z = 1).
    pub local_x: u32,
    pub tensors: Vec<TensorDecl>,
    /// Known-answer reads (see [`Probe`]).
    pub probes: Vec<Probe>,
}

/// A known-answer read the entry function makes at its top level (so it runs whenever the run
/// ends well): `count` elements of a tensor the module never writes, at constant coordinates,
/// or the size of one of its dimensions, stored as zero-extended bits (booleans 0 or 1) into
/// `uint64` slots `slot..slot + count` of the probe buffer (set 0, binding [`PROBE_BINDING`])
/// by every invocation. The check works out the expected values from VK_ARM_tensors' rules and
/// the tensor it bound.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Probe {
    pub binding: u32,
    /// The element of an array of tensors (0 for one tensor).
    pub element: u32,
    /// The coordinates' values as integers of their type (signed types negative below 0).
    pub coords: Vec<i128>,
    pub count: u32,
    /// The OutOfBoundsValueARM operand's bits, if any.
    pub oob: Option<u64>,
    pub slot: u32,
    /// For a size probe instead (OpTensorQuerySizeARM, `coords` empty, `count` 1): the
    /// dimension and the result type's width.
    pub size_of: Option<(u32, u32)>,
}

/// The output buffer's binding (set 0).
pub const OUT_BINDING: u32 = 4;
/// The probe buffer's binding (set 0): `uint64[PROBE_SLOTS]`.
pub const PROBE_BINDING: u32 = 5;
/// Slots of the probe buffer.
pub const PROBE_SLOTS: u32 = 64;
/// Output words each invocation owns in race-free mode, and elements of a rank-1 tensor.
pub const OWNED: u32 = 4;
/// Added to an owned coordinate or index to make it far out of bounds.
const FAR: u32 = 0x4000_0000;

/// A tensor variable: what the check sees, and the ids the body uses.
struct TensorVar {
    decl: TensorDecl,
    var: u32,
    /// The `OpTypeTensorARM`.
    ty: u32,
    /// `OpTypePointer UniformConstant` to the tensor type (array elements).
    elem_ptr: u32,
}

struct Gen<'a> {
    b: Builder,
    bytes: Bytes<'a>,
    race_free: bool,
    vulkan_mm: bool,
    types: Vec<(Ty, u32)>,
    /// Array types by (element, length).
    array_types: Vec<(Ty, u32, u32)>,
    /// Scalar values in scope: (id, type). Truncated when a construct ends.
    pool: Vec<(u32, Ty)>,
    /// Array values in scope: (id, element type, length).
    arrays: Vec<(u32, Ty, u32)>,
    /// Loaded tensor values in scope: (id, index into `tensors`).
    tvals: Vec<(u32, usize)>,
    tensors: Vec<TensorVar>,
    out: u32,
    ptr_sb_u32: u32,
    ptr_fn_u32: u32,
    /// GlobalInvocationId.x, LocalInvocationIndex, and `OWNED · x` (in the current function).
    gx: u32,
    lidx: u32,
    own: u32,
    /// Loop counters (Function variables), one per depth.
    counters: Vec<u32>,
    budget: Budget,
    /// Helper functions `uint h(tensor, uint)`: (function, index into `tensors`).
    helpers: Vec<(u32, usize)>,
    /// The probe buffer, a StorageBuffer pointer type to its `uint64` elements, the probes.
    probe_buf: u32,
    ptr_sb_u64: u32,
    probes: Vec<Probe>,
}

/// Builds a module from `data` (race-free as the module comment says when `race_free`);
/// `None` when the builder refuses something (a generator bug; the target then skips it).
pub fn generate(data: &[u8], race_free: bool) -> Option<(Module, Interface)> {
    let mut bytes = Bytes(data);
    let local_x = 1 + bytes.below(8) as u32;
    let vulkan_mm = bytes.below(4) == 0;
    let mut b = Builder::new(Version::new(1, 6));
    b.capability("Shader").ok()?;
    b.capability("TensorsARM").ok()?;
    b.extension("SPV_ARM_tensors").ok()?;
    if vulkan_mm {
        b.capability("VulkanMemoryModel").ok()?;
        b.memory_model("Logical", "Vulkan").ok()?;
    } else {
        b.memory_model("Logical", "GLSL450").ok()?;
    }
    let mut g = Gen {
        b,
        bytes,
        race_free,
        vulkan_mm,
        types: Vec::new(),
        array_types: Vec::new(),
        pool: Vec::new(),
        arrays: Vec::new(),
        tvals: Vec::new(),
        tensors: Vec::new(),
        out: 0,
        ptr_sb_u32: 0,
        ptr_fn_u32: 0,
        gx: 0,
        lidx: 0,
        own: 0,
        counters: Vec::new(),
        budget: Budget(0),
        helpers: Vec::new(),
        probe_buf: 0,
        ptr_sb_u64: 0,
        probes: Vec::new(),
    };
    let u32t = g.ty(Ty::U32)?;
    let v3u = g.b.type_vector(u32t, 3).ok()?;
    let ptr_in_v3 = g.b.type_pointer("Input", v3u).ok()?;
    let ptr_in_u32 = g.b.type_pointer("Input", u32t).ok()?;
    let gid = g.b.builtin_input(ptr_in_v3, "GlobalInvocationId")?;
    let lidx = g.b.builtin_input(ptr_in_u32, "LocalInvocationIndex")?;
    let ptr_sb_block = g.b.storage_block(u32t, 4)?;
    g.ptr_sb_u32 = g.b.type_pointer("StorageBuffer", u32t).ok()?;
    g.ptr_fn_u32 = g.b.type_pointer("Function", u32t).ok()?;
    g.out = g.b.storage_buffer(ptr_sb_block, OUT_BINDING)?;
    // The probe buffer: `struct { uint64 p[]; }`.
    let u64t = g.ty(Ty::U64)?;
    let ptr_sb_block64 = g.b.storage_block(u64t, 8)?;
    g.ptr_sb_u64 = g.b.type_pointer("StorageBuffer", u64t).ok()?;
    g.probe_buf = g.b.storage_buffer(ptr_sb_block64, PROBE_BINDING)?;
    for binding in 0..1 + g.bytes.below(3) as u32 {
        g.tensor_var(binding)?;
    }
    let mut interface = vec![gid, lidx, g.out, g.probe_buf];
    interface.extend(g.tensors.iter().map(|t| t.var));
    // Helpers `uint h(tensor t, uint c)`: read and query t at coordinates from c.
    for _ in 0..g.bytes.below(3) {
        if g.bytes.below(2) == 0 {
            continue;
        }
        let k = g.bytes.below(g.tensors.len());
        g.helper(k, gid, ptr_in_u32)?;
    }
    let void = g.b.type_void().ok()?;
    let fvoid = g.b.type_function(void, &[]).ok()?;
    let main = g.b.begin_function(void, "None", fvoid).ok()?;
    g.b.begin_block().ok()?;
    g.counters = g.b.loop_counters(g.ptr_fn_u32)?;
    g.pool.clear();
    g.arrays.clear();
    g.tvals.clear();
    g.invocation_values(gid, ptr_in_u32, lidx)?;
    g.budget = Budget(32);
    while g.budget.spend(&g.bytes) {
        g.statement(0)?;
    }
    g.b.inst(Op::Return, None, &[]).ok()?;
    g.b.end_function().ok()?;
    g.b.entry_point("GLCompute", main, "main", &interface)
        .ok()?;
    g.b.execution_mode(main, "LocalSize", &[local_x, 1, 1])
        .ok()?;
    let tensors = g.tensors.iter().map(|t| t.decl.clone()).collect();
    let probes = std::mem::take(&mut g.probes);
    let module = g.b.finish().ok()?;
    Some((
        module,
        Interface {
            local_x,
            tensors,
            probes,
        },
    ))
}

impl Generator for Gen<'_> {
    fn builder(&mut self) -> &mut Builder {
        &mut self.b
    }
    fn block(&mut self, label: u32) -> Option<()> {
        self.b.begin_block_with(label).ok()?;
        Some(())
    }
}

impl Gen<'_> {
    /// The type id of `t`, declared (with its capability) on first use.
    fn ty(&mut self, t: Ty) -> Option<u32> {
        if let Some(&(_, id)) = self.types.iter().find(|p| p.0 == t) {
            return Some(id);
        }
        let cap = match t {
            Ty::I8 | Ty::U8 => Some("Int8"),
            Ty::I16 | Ty::U16 => Some("Int16"),
            Ty::I64 | Ty::U64 => Some("Int64"),
            Ty::F16 => Some("Float16"),
            Ty::F64 => Some("Float64"),
            _ => None,
        };
        if let Some(cap) = cap {
            self.b.capability(cap).ok()?;
        }
        let id = match t {
            Ty::Bool => self.b.type_bool().ok()?,
            t if t.is_float() => self.b.type_float(t.bits(), None).ok()?,
            t => self.b.type_int(t.bits(), t.signed()).ok()?,
        };
        self.types.push((t, id));
        Some(id)
    }

    /// `t[len]`, one type per (element, length).
    fn array_ty(&mut self, t: Ty, len: u32) -> Option<u32> {
        if let Some(&(_, _, id)) = self.array_types.iter().find(|a| a.0 == t && a.1 == len) {
            return Some(id);
        }
        let elem = self.ty(t)?;
        let n = self.b.constant_u32(len).ok()?;
        let id = self.b.type_array(elem, n).ok()?;
        self.array_types.push((t, len, id));
        Some(id)
    }

    /// A constant of type `t` from raw bits (low bits used; narrow signed ones sign-extended
    /// into the word, as SPIR-V §2.2.1 wants).
    fn konst(&mut self, t: Ty, bits: u64) -> Option<u32> {
        let ty = self.ty(t)?;
        let w = t.bits();
        let r = match t {
            Ty::Bool => self.b.constant_bool(bits & 1 == 1),
            _ if w == 64 => self
                .b
                .constant_words(ty, &[bits as u32, (bits >> 32) as u32]),
            _ if w == 32 => self.b.constant_words(ty, &[bits as u32]),
            _ => {
                let low = bits as u32 & ((1 << w) - 1);
                let word = if t.signed() && low >> (w - 1) == 1 {
                    low | !((1 << w) - 1)
                } else {
                    low
                };
                self.b.constant_words(ty, &[word])
            }
        };
        r.ok()
    }

    /// One in `t`'s representation (1 or 1.0).
    fn one_bits(t: Ty) -> u64 {
        match t {
            Ty::F16 => 0x3c00,
            Ty::F32 => 1f32.to_bits() as u64,
            Ty::F64 => 1f64.to_bits(),
            _ => 1,
        }
    }

    /// A random constant of type `t`: small, a boundary value, or any bits.
    fn random_const(&mut self, t: Ty) -> Option<u32> {
        let bits = match (t.is_float(), self.bytes.below(4)) {
            (false, 0) => self.bytes.below(8) as u64,
            (false, 1) => {
                let w = t.bits();
                self.bytes.pick(&[
                    u64::MAX,
                    1 << (w - 1),
                    (1 << (w - 1)) - 1,
                    200,
                    256,
                    1 << 32 | 1,
                ])
            }
            (true, 0 | 1) => {
                let v =
                    self.bytes
                        .pick(&[0.0, 1.0, -2.5, 0.5, 100.0, f64::NAN, f64::INFINITY, -0.0]);
                match t {
                    Ty::F16 => self
                        .bytes
                        .pick(&[0, 0x3c00, 0xc100, 0x3800, 0x5640, 0x7e00, 0x7c00, 0x8000]),
                    Ty::F32 => (v as f32).to_bits() as u64,
                    _ => v.to_bits(),
                }
            }
            _ => self.bytes.u64(),
        };
        self.konst(t, bits)
    }

    fn emit(&mut self, name: Op, t: Ty, args: &[Arg]) -> Option<u32> {
        let ty = self.ty(t)?;
        self.b.inst(name, Some(ty), args).ok()?
    }

    /// Emits and keeps the result in the pool.
    fn op(&mut self, name: Op, t: Ty, args: &[Arg]) -> Option<()> {
        let r = self.emit(name, t, args)?;
        self.pool.push((r, t));
        Some(())
    }

    /// A value of type `t`: one in scope (most recent ones favoured), one converted from
    /// another type, or a constant.
    fn value(&mut self, t: Ty) -> Option<u32> {
        let same: Vec<u32> = self
            .pool
            .iter()
            .rev()
            .filter(|p| p.1 == t)
            .map(|p| p.0)
            .collect();
        let pick = self.bytes.below(8);
        if !same.is_empty() && pick < 5 {
            return Some(self.bytes.pick(&same));
        }
        if !self.pool.is_empty() && pick < 7 {
            let n = self.pool.len();
            let (v, from) = self.pool[n - 1 - self.bytes.below(n)];
            return self.convert(v, from, t);
        }
        self.random_const(t)
    }

    /// `v` of type `from` as a `to`: a bitcast, width or float conversion, a select for bools
    /// or a comparison with zero into bool.
    fn convert(&mut self, v: u32, from: Ty, to: Ty) -> Option<u32> {
        if from == to {
            return Some(v);
        }
        let a = Arg::Id(v);
        if from == Ty::Bool {
            let one = self.konst(to, Self::one_bits(to))?;
            let zero = self.konst(to, 0)?;
            return self.emit(Op::Select, to, &[a, Arg::Id(one), Arg::Id(zero)]);
        }
        if to == Ty::Bool {
            let zero = self.konst(from, 0)?;
            let name = if from.is_int() {
                Op::INotEqual
            } else {
                Op::FUnordNotEqual
            };
            return self.emit(name, to, &[a, Arg::Id(zero)]);
        }
        let name = match (from.is_int(), to.is_int()) {
            (true, true) if from.bits() == to.bits() => Op::Bitcast,
            // UConvert needs an unsigned result (SPIR-V §3.49.11); SConvert takes either.
            (true, true) if to.signed() || self.bytes.below(3) == 0 => Op::SConvert,
            (true, true) => Op::UConvert,
            (true, false) => self.bytes.pick(&[Op::ConvertUToF, Op::ConvertSToF]),
            (false, true) if to.signed() || self.bytes.below(3) == 0 => Op::ConvertFToS,
            (false, true) => Op::ConvertFToU,
            (false, false) if from.bits() == to.bits() => Op::CopyObject,
            (false, false) => Op::FConvert,
        };
        self.emit(name, to, &[a])
    }

    /// `v` as a uint for the output buffer (floats sometimes by their bits).
    fn as_uint(&mut self, v: u32, t: Ty) -> Option<u32> {
        if t.is_float() && self.bytes.below(2) == 0 {
            let bits = match t.bits() {
                16 => Ty::U16,
                32 => Ty::U32,
                _ => Ty::U64,
            };
            let b = self.emit(Op::Bitcast, bits, &[Arg::Id(v)])?;
            return self.convert(b, bits, Ty::U32);
        }
        self.convert(v, t, Ty::U32)
    }

    /// Declares the tensor variable at `binding` (see the module comment).
    fn tensor_var(&mut self, binding: u32) -> Option<()> {
        let element = self.bytes.pick(&TYS);
        // Ranks 1–4, one time in sixteen 5–8.
        let rank = if self.bytes.below(16) == 0 {
            5 + self.bytes.below(4) as u32
        } else {
            1 + self.bytes.below(4) as u32
        };
        let elem = self.ty(element)?;
        let rank_ty = self
            .bytes
            .pick(&[Ty::U32, Ty::U32, Ty::I32, Ty::U64, Ty::U8]);
        let rank_id = self.konst(rank_ty, rank as u64)?;
        let shape = if self.bytes.below(4) == 0 {
            let dims: Vec<u64> = (0..rank)
                .map(|d| 1 + self.bytes.below(if d < 4 { 5 } else { 2 }) as u64)
                .collect();
            let ids: Vec<u32> = dims
                .iter()
                .map(|&d| self.b.constant_u32(d as u32).ok())
                .collect::<Option<_>>()?;
            let arr = self.array_ty(Ty::U32, rank)?;
            let shape_id = self.b.constant_composite(arr, &ids).ok()?;
            Some((dims, shape_id))
        } else {
            None
        };
        let ty = self
            .b
            .type_tensor_arm(elem, Some(rank_id), shape.as_ref().map(|s| s.1))
            .ok()?;
        let array = match self.bytes.below(6) {
            0 => Some(1 + self.bytes.below(3) as u32),
            1 if self.bytes.below(2) == 0 => Some(0),
            _ => None,
        };
        let var_ty = match array {
            None => ty,
            Some(0) => {
                self.b.capability("RuntimeDescriptorArray").ok()?;
                self.b.type_runtime_array(ty).ok()?
            }
            Some(n) => {
                let n = self.b.constant_u32(n).ok()?;
                self.b.type_array(ty, n).ok()?
            }
        };
        if array.is_some() {
            self.b
                .capability("StorageTensorArrayDynamicIndexingARM")
                .ok()?;
        }
        let ptr = self.b.type_pointer("UniformConstant", var_ty).ok()?;
        let elem_ptr = self.b.type_pointer("UniformConstant", ty).ok()?;
        let var = self.b.global_variable(ptr, "UniformConstant", None).ok()?;
        self.b.decorate(var, "DescriptorSet", &[Arg::Int(0)]).ok()?;
        self.b.decorate(var, "Binding", &[Arg::Int(binding)]).ok()?;
        let writable = self.bytes.below(2) != 0;
        self.tensors.push(TensorVar {
            decl: TensorDecl {
                binding,
                element,
                rank,
                shape: shape.map(|s| s.0),
                array,
                writable,
            },
            var,
            ty,
            elem_ptr,
        });
        Some(())
    }

    /// Loads GlobalInvocationId.x and LocalInvocationIndex into the pool and computes the
    /// first owned output element.
    fn invocation_values(&mut self, gid: u32, ptr_in_u32: u32, lidx: u32) -> Option<()> {
        self.gx = self.global_x(gid, ptr_in_u32)?;
        self.lidx = self.emit(Op::Load, Ty::U32, &[Arg::Id(lidx)])?;
        let owned = self.b.constant_u32(OWNED).ok()?;
        self.own = self.emit(Op::IMul, Ty::U32, &[Arg::Id(self.gx), Arg::Id(owned)])?;
        self.pool.push((self.gx, Ty::U32));
        self.pool.push((self.lidx, Ty::U32));
        Some(())
    }

    /// GlobalInvocationId.x (`gid`, of pointer type `ptr_in_u32` to its components), loaded in
    /// the current block.
    fn global_x(&mut self, gid: u32, ptr_in_u32: u32) -> Option<u32> {
        let zero = self.b.constant_u32(0).ok()?;
        let px = self.b.access_chain(ptr_in_u32, gid, &[zero])?;
        self.emit(Op::Load, Ty::U32, &[Arg::Id(px)])
    }

    /// `uint h(tensor t, uint c)` for tensor variable `k`: reads t at coordinates whose
    /// outermost is c (the caller passes an owned one where it must), queries a dimension,
    /// returns the sum as a uint.
    fn helper(&mut self, k: usize, gid: u32, ptr_in_u32: u32) -> Option<()> {
        let u32t = self.ty(Ty::U32)?;
        let ten = self.tensors[k].ty;
        let fty = self.b.type_function(u32t, &[ten, u32t]).ok()?;
        let f = self.b.begin_function(u32t, "None", fty).ok()?;
        let t = self.b.function_parameter(ten).ok()?;
        let c = self.b.function_parameter(u32t).ok()?;
        self.b.begin_block().ok()?;
        self.pool.clear();
        self.arrays.clear();
        self.tvals.clear();
        // GlobalInvocationId.x here too (for coordinates of the inner dimensions).
        self.gx = self.global_x(gid, ptr_in_u32)?;
        self.pool.push((self.gx, Ty::U32));
        self.pool.push((c, Ty::U32));
        let decl = self.tensors[k].decl.clone();
        let ct = self.coord_ty()?;
        let mut comps = Vec::new();
        for d in 0..decl.rank {
            comps.push(if d == 0 {
                self.convert(c, Ty::U32, ct)?
            } else {
                self.coord_component(ct, t, d)?
            });
        }
        let coords = self.coords_of(ct, &comps)?;
        let mut args = vec![Arg::Id(t), Arg::Id(coords)];
        self.read_operands(decl.element, &mut args)?;
        let e = self.emit(Op::TensorReadARM, decl.element, &args)?;
        let e = self.as_uint(e, decl.element)?;
        let dim = self
            .b
            .constant_u32(self.bytes.below(decl.rank as usize) as u32)
            .ok()?;
        let n = self.emit(Op::TensorQuerySizeARM, Ty::U32, &[Arg::Id(t), Arg::Id(dim)])?;
        let r = self.emit(Op::IAdd, Ty::U32, &[Arg::Id(e), Arg::Id(n)])?;
        self.b.inst(Op::ReturnValue, None, &[Arg::Id(r)]).ok()?;
        self.b.end_function().ok()?;
        self.helpers.push((f, k));
        Some(())
    }

    /// A coordinate component type: mostly uint, else any integer type.
    fn coord_ty(&mut self) -> Option<Ty> {
        let k = self.bytes.below(16);
        Some(if k < 8 { Ty::U32 } else { INTS[k - 8] })
    }

    /// The coordinates array (`ct[len]`) of the components.
    fn coords_of(&mut self, ct: Ty, comps: &[u32]) -> Option<u32> {
        let arr = self.array_ty(ct, comps.len() as u32)?;
        let args: Vec<Arg> = comps.iter().map(|&c| Arg::Id(c)).collect();
        self.b.inst(Op::CompositeConstruct, Some(arr), &args).ok()?
    }

    /// A coordinate component of type `ct` for dimension `d` of tensor value `t`: anything.
    fn coord_component(&mut self, ct: Ty, t: u32, d: u32) -> Option<u32> {
        match self.bytes.below(8) {
            0 | 1 => {
                let v = self.bytes.below(5) as u64;
                self.konst(ct, v)
            }
            2 => {
                // The invocation index, modulo or plus a small constant.
                let x = if self.bytes.below(2) == 0 {
                    self.gx
                } else {
                    self.lidx_or_gx()
                };
                let k = self.b.constant_u32(1 + self.bytes.below(4) as u32).ok()?;
                let name = self
                    .bytes
                    .pick(&[Op::UMod, Op::IAdd, Op::UDiv, Op::CopyObject]);
                let v = if name == Op::CopyObject {
                    x
                } else {
                    self.emit(name, Ty::U32, &[Arg::Id(x), Arg::Id(k)])?
                };
                self.convert(v, Ty::U32, ct)
            }
            3 => {
                // Boundary values: all ones (−1), the sign bit, 2^32 + 1, 200, 256 + 1.
                let w = ct.bits();
                let bits = self
                    .bytes
                    .pick(&[u64::MAX, 1 << (w - 1), 1 << 32 | 1, 200, 257]);
                self.konst(ct, bits)
            }
            4 => {
                // The dimension's size, or one less (the last element).
                let dim = self.b.constant_u32(d).ok()?;
                let n = self.emit(Op::TensorQuerySizeARM, ct, &[Arg::Id(t), Arg::Id(dim)])?;
                if self.bytes.below(2) == 0 {
                    return Some(n);
                }
                let one = self.konst(ct, 1)?;
                self.emit(Op::ISub, ct, &[Arg::Id(n), Arg::Id(one)])
            }
            5 => self.value(ct),
            _ => {
                // A value in scope, masked small.
                let v = self.value(Ty::U32)?;
                let m = self.b.constant_u32(7).ok()?;
                let v = self.emit(Op::BitwiseAnd, Ty::U32, &[Arg::Id(v), Arg::Id(m)])?;
                self.convert(v, Ty::U32, ct)
            }
        }
    }

    /// LocalInvocationIndex in the entry function, GlobalInvocationId.x in a helper (helpers
    /// are generated first, while `lidx` is still 0).
    fn lidx_or_gx(&self) -> u32 {
        if self.lidx != 0 { self.lidx } else { self.gx }
    }

    /// The outermost coordinate of an owned access of `count` elements (see the module
    /// comment), of type `ct`.
    fn owned_outer(&mut self, ct: Ty, rank: u32, count: u32) -> Option<u32> {
        let base = if rank >= 2 { self.gx } else { self.own };
        let v = if self.bytes.below(8) == 0 && ct.bits() >= 32 {
            let far = self.b.constant_u32(FAR).ok()?;
            self.emit(Op::BitwiseOr, Ty::U32, &[Arg::Id(base), Arg::Id(far)])?
        } else if rank >= 2 {
            base
        } else if count == 1 {
            let v = self.value(Ty::U32)?;
            let m = self.b.constant_u32(OWNED - 1).ok()?;
            let low = self.emit(Op::BitwiseAnd, Ty::U32, &[Arg::Id(v), Arg::Id(m)])?;
            self.emit(Op::IAdd, Ty::U32, &[Arg::Id(base), Arg::Id(low)])?
        } else {
            let c = self
                .b
                .constant_u32(self.bytes.below((OWNED - count + 1) as usize) as u32)
                .ok()?;
            self.emit(Op::IAdd, Ty::U32, &[Arg::Id(base), Arg::Id(c)])?
        };
        self.convert(v, Ty::U32, ct)
    }

    /// Coordinates for an access of `count` elements to tensor variable `k` (value `t`).
    fn coords(&mut self, k: usize, t: u32, count: u32) -> Option<u32> {
        let decl = self.tensors[k].decl.clone();
        let owned = self.race_free && decl.writable;
        let ct = self.coord_ty()?;
        if !owned && self.bytes.below(8) == 0 {
            // Constant coordinates.
            let comps: Vec<u32> = (0..decl.rank)
                .map(|_| {
                    let bits = self.bytes.pick(&[0, 1, 2, 3, u64::MAX, 200]);
                    self.konst(ct, bits)
                })
                .collect::<Option<_>>()?;
            let arr = self.array_ty(ct, decl.rank)?;
            return self.b.constant_composite(arr, &comps).ok();
        }
        let mut comps = Vec::new();
        for d in 0..decl.rank {
            comps.push(if owned && d == 0 {
                self.owned_outer(ct, decl.rank, count)?
            } else {
                self.coord_component(ct, t, d)?
            });
        }
        self.coords_of(ct, &comps)
    }

    /// A tensor value of variable `k`: one loaded before (in scope), or a new OpLoad (through
    /// an access chain for an array of tensors, at a constant, past-the-end or run-time
    /// index).
    fn tensor(&mut self, k: usize) -> Option<u32> {
        let loaded: Vec<u32> = self
            .tvals
            .iter()
            .filter(|v| v.1 == k)
            .map(|v| v.0)
            .collect();
        if !loaded.is_empty() && self.bytes.below(3) == 0 {
            return Some(self.bytes.pick(&loaded));
        }
        let tv = &self.tensors[k];
        let (var, ty, elem_ptr, array) = (tv.var, tv.ty, tv.elem_ptr, tv.decl.array);
        let ptr = match array {
            None => var,
            Some(n) => {
                let it = INTS[self.bytes.below(4)];
                // (A runtime array gets one to three elements: indices below 1 are in it.)
                let len = n.max(1);
                let index = match self.bytes.below(8) {
                    0 | 1 => {
                        let i = self.bytes.below(len as usize) as u64;
                        self.konst(it, i)?
                    }
                    2 => {
                        let i = len as u64 + self.bytes.below(3) as u64;
                        self.konst(it, i)?
                    }
                    3 => self.value(it)?,
                    k => {
                        // The invocation index modulo the length (or one more: past the end).
                        let x = self.lidx_or_gx();
                        let m = self.b.constant_u32(len + (k == 4) as u32).ok()?;
                        let i = self.emit(Op::UMod, Ty::U32, &[Arg::Id(x), Arg::Id(m)])?;
                        self.convert(i, Ty::U32, it)?
                    }
                };
                let p = self.b.access_chain(elem_ptr, var, &[index])?;
                if self.bytes.below(4) == 0 {
                    self.b
                        .capability("StorageTensorArrayNonUniformIndexingARM")
                        .ok()?;
                    self.b.capability("ShaderNonUniform").ok()?;
                    self.b.decorate(p, "NonUniform", &[]).ok()?;
                }
                p
            }
        };
        let mut v = self.b.load(ty, ptr)?;
        if self.bytes.below(8) == 0 {
            v = self
                .b
                .inst(Op::CopyObject, Some(ty), &[Arg::Id(v)])
                .ok()??;
        }
        self.tvals.push((v, k));
        Some(v)
    }

    /// Appends random read Tensor Operands for element type `t` to `args`.
    fn read_operands(&mut self, t: Ty, args: &mut Vec<Arg>) -> Option<()> {
        let k = self.bytes.u8();
        let mut names = Vec::new();
        let mut params = Vec::new();
        if k & 1 != 0 {
            names.push("NontemporalARM");
        }
        if k & 2 != 0 {
            names.push("OutOfBoundsValueARM");
            params.push(Arg::Id(self.random_const(t)?));
        }
        if self.vulkan_mm && k & 4 != 0 {
            if k & 8 != 0 {
                names.push("MakeElementVisibleARM");
                params.push(Arg::Id(self.scope()?));
            }
            names.push("NonPrivateElementARM");
        }
        if names.is_empty() {
            if k & 16 != 0 {
                args.push(Arg::name("NoneARM"));
            }
            return Some(());
        }
        args.push(Arg::name(&names.join("|")));
        args.extend(params);
        Some(())
    }

    /// A memory scope constant usable with the Vulkan memory model (Workgroup, Subgroup,
    /// QueueFamily).
    fn scope(&mut self) -> Option<u32> {
        let s = self.bytes.pick(&[2, 3, 5]);
        self.b.constant_u32(s).ok()
    }

    /// A tensor variable index, preferring `writable` ones when asked (None when none is).
    fn pick_tensor(&mut self, writable: bool) -> Option<usize> {
        let ks: Vec<usize> = (0..self.tensors.len())
            .filter(|&k| !writable || self.tensors[k].decl.writable)
            .collect();
        if ks.is_empty() {
            return None;
        }
        Some(self.bytes.pick(&ks))
    }

    /// Element count of an access to variable `k`: 1 (a scalar) or an array of up to 5 (4
    /// for an owned rank-1 access).
    fn access_count(&mut self, k: usize) -> u32 {
        let d = &self.tensors[k].decl;
        if self.bytes.below(3) != 0 {
            return 1;
        }
        let max = if self.race_free && d.writable && d.rank == 1 {
            OWNED
        } else {
            5
        };
        1 + self.bytes.below(max as usize) as u32
    }

    fn read(&mut self) -> Option<()> {
        let k = self.pick_tensor(false)?;
        let t = self.tensor(k)?;
        let element = self.tensors[k].decl.element;
        let count = self.access_count(k);
        let array = count > 1 || self.bytes.below(8) == 0;
        let coords = self.coords(k, t, count)?;
        let mut args = vec![Arg::Id(t), Arg::Id(coords)];
        self.read_operands(element, &mut args)?;
        if array {
            let at = self.array_ty(element, count)?;
            let r = self.b.inst(Op::TensorReadARM, Some(at), &args).ok()??;
            self.arrays.push((r, element, count));
            // Use one element at once, most of the time.
            if self.bytes.below(4) != 0 {
                let i = self.bytes.below(count as usize) as u32;
                self.op(Op::CompositeExtract, element, &[Arg::Id(r), Arg::Int(i)])?;
            }
            Some(())
        } else {
            self.op(Op::TensorReadARM, element, &args)
        }
    }

    fn write(&mut self) -> Option<()> {
        let Some(k) = self.pick_tensor(true) else {
            return self.read();
        };
        let t = self.tensor(k)?;
        let element = self.tensors[k].decl.element;
        let count = self.access_count(k);
        let array = count > 1 || self.bytes.below(8) == 0;
        let coords = self.coords(k, t, count)?;
        let object = if array {
            let same: Vec<u32> = self
                .arrays
                .iter()
                .filter(|a| a.1 == element && a.2 == count)
                .map(|a| a.0)
                .collect();
            if !same.is_empty() && self.bytes.below(2) == 0 {
                self.bytes.pick(&same)
            } else {
                let parts: Vec<Arg> = (0..count)
                    .map(|_| self.value(element).map(Arg::Id))
                    .collect::<Option<_>>()?;
                let at = self.array_ty(element, count)?;
                let r = self
                    .b
                    .inst(Op::CompositeConstruct, Some(at), &parts)
                    .ok()??;
                self.arrays.push((r, element, count));
                r
            }
        } else {
            self.value(element)?
        };
        let mut args = vec![Arg::Id(t), Arg::Id(coords), Arg::Id(object)];
        let m = self.bytes.u8();
        let mut names = Vec::new();
        let mut params = Vec::new();
        if m & 1 != 0 {
            names.push("NontemporalARM");
        }
        if self.vulkan_mm && m & 2 != 0 {
            if m & 4 != 0 {
                names.push("MakeElementAvailableARM");
                params.push(Arg::Id(self.scope()?));
            }
            names.push("NonPrivateElementARM");
        }
        if !names.is_empty() {
            args.push(Arg::name(&names.join("|")));
            args.extend(params);
        }
        self.b.inst(Op::TensorWriteARM, None, &args).ok()?;
        Some(())
    }

    fn query(&mut self) -> Option<()> {
        let k = self.pick_tensor(false)?;
        let t = self.tensor(k)?;
        let rank = self.tensors[k].decl.rank;
        let dt = self
            .bytes
            .pick(&[Ty::U32, Ty::U32, Ty::I32, Ty::U64, Ty::U16]);
        let d = self.bytes.below(rank as usize) as u64;
        let dim = self.konst(dt, d)?;
        let rt = if self.bytes.below(2) == 0 {
            Ty::U32
        } else {
            self.bytes.pick(&INTS)
        };
        self.op(Op::TensorQuerySizeARM, rt, &[Arg::Id(t), Arg::Id(dim)])
    }

    /// Stores a value (converted to uint) into the output buffer: at an owned element in
    /// race-free mode (or far out of bounds), else at any index.
    fn store(&mut self) -> Option<()> {
        let n = self.pool.len();
        if n == 0 {
            return Some(());
        }
        let (v, t) = self.pool[n - 1 - self.bytes.below(n)];
        let v = self.as_uint(v, t)?;
        let w = self.value(Ty::U32)?;
        let index = if !self.race_free {
            w
        } else if self.bytes.below(8) == 0 {
            let far = self.b.constant_u32(FAR).ok()?;
            self.emit(Op::BitwiseOr, Ty::U32, &[Arg::Id(w), Arg::Id(far)])?
        } else {
            let m = self.b.constant_u32(OWNED - 1).ok()?;
            let low = self.emit(Op::BitwiseAnd, Ty::U32, &[Arg::Id(w), Arg::Id(m)])?;
            self.emit(Op::IAdd, Ty::U32, &[Arg::Id(self.own), Arg::Id(low)])?
        };
        let zero = self.b.constant_u32(0).ok()?;
        let p = self
            .b
            .access_chain(self.ptr_sb_u32, self.out, &[zero, index])?;
        self.b.store(p, v)
    }

    /// Arithmetic on a value in scope (what was read, most often): integer, float or boolean
    /// operations, a comparison, a select or a conversion.
    fn arith(&mut self) -> Option<()> {
        const INT2: [Op; 14] = INT_BINARY_OPS;
        const FLT2: [Op; 6] = FLOAT_BINARY_OPS;
        const CMP_I: [Op; 5] = [
            Op::IEqual,
            Op::ULessThan,
            Op::SLessThan,
            Op::UGreaterThanEqual,
            Op::SGreaterThan,
        ];
        const CMP_F: [Op; 4] = [
            Op::FOrdLessThan,
            Op::FUnordEqual,
            Op::FOrdGreaterThanEqual,
            Op::FUnordNotEqual,
        ];
        let n = self.pool.len();
        if n == 0 {
            return Some(());
        }
        let (a, t) = self.pool[n - 1 - self.bytes.below(n.min(12))];
        let choice = self.bytes.below(8);
        match (t, choice) {
            (_, 0) => {
                let to = self.bytes.pick(&TYS);
                let r = self.convert(a, t, to)?;
                self.pool.push((r, to));
                Some(())
            }
            (_, 1) => {
                let c = self.value(Ty::Bool)?;
                let b = self.value(t)?;
                self.op(Op::Select, t, &[Arg::Id(c), Arg::Id(a), Arg::Id(b)])
            }
            (Ty::Bool, _) => {
                let b = self.value(Ty::Bool)?;
                match self.bytes.below(4) {
                    0 => self.op(Op::LogicalAnd, t, &[Arg::Id(a), Arg::Id(b)]),
                    1 => self.op(Op::LogicalOr, t, &[Arg::Id(a), Arg::Id(b)]),
                    2 => self.op(Op::LogicalNotEqual, t, &[Arg::Id(a), Arg::Id(b)]),
                    _ => self.op(Op::LogicalNot, t, &[Arg::Id(a)]),
                }
            }
            (_, 2) if t.is_int() => {
                let b = self.value(t)?;
                let name = self.bytes.pick(&CMP_I);
                self.op(name, Ty::Bool, &[Arg::Id(a), Arg::Id(b)])
            }
            (_, 2) => {
                let b = self.value(t)?;
                let name = self.bytes.pick(&CMP_F);
                self.op(name, Ty::Bool, &[Arg::Id(a), Arg::Id(b)])
            }
            (_, 3) if t.is_float() => {
                let name = self.bytes.pick(&[Op::IsNan, Op::IsInf, Op::FNegate]);
                let rt = if name == Op::FNegate { t } else { Ty::Bool };
                self.op(name, rt, &[Arg::Id(a)])
            }
            (_, 3) => {
                let name = self
                    .bytes
                    .pick(&[Op::Not, Op::SNegate, Op::BitCount, Op::BitReverse]);
                self.op(name, t, &[Arg::Id(a)])
            }
            _ if t.is_float() => {
                let b = self.value(t)?;
                let name = self.bytes.pick(&FLT2);
                self.op(name, t, &[Arg::Id(a), Arg::Id(b)])
            }
            _ => {
                let b = self.value(t)?;
                let name = self.bytes.pick(&INT2);
                // UDiv and UMod need an unsigned result type (SPIR-V §3.49.13).
                if matches!(name, Op::UDiv | Op::UMod) && t.signed() {
                    return self.op(Op::SDiv, t, &[Arg::Id(a), Arg::Id(b)]);
                }
                self.op(name, t, &[Arg::Id(a), Arg::Id(b)])
            }
        }
    }

    /// An element of an array value in scope, or the array with one element replaced.
    fn array_op(&mut self) -> Option<()> {
        let n = self.arrays.len();
        if n == 0 {
            return self.read();
        }
        let (a, t, len) = self.arrays[n - 1 - self.bytes.below(n)];
        let i = self.bytes.below(len as usize) as u32;
        if self.bytes.below(3) == 0 {
            let v = self.value(t)?;
            let at = self.array_ty(t, len)?;
            let r = self
                .b
                .inst(
                    Op::CompositeInsert,
                    Some(at),
                    &[Arg::Id(v), Arg::Id(a), Arg::Int(i)],
                )
                .ok()??;
            self.arrays.push((r, t, len));
            return Some(());
        }
        self.op(Op::CompositeExtract, t, &[Arg::Id(a), Arg::Int(i)])
    }

    /// A call of a helper with a tensor of its variable and an outermost coordinate (owned
    /// where the tensor is writable in race-free mode).
    fn call(&mut self) -> Option<()> {
        if self.helpers.is_empty() {
            return self.query();
        }
        let (f, k) = self.bytes.pick(&self.helpers);
        let t = self.tensor(k)?;
        let decl = self.tensors[k].decl.clone();
        let c = if self.race_free && decl.writable {
            self.owned_outer(Ty::U32, decl.rank, 1)?
        } else {
            self.coord_component(Ty::U32, t, 0)?
        };
        self.op(
            Op::FunctionCall,
            Ty::U32,
            &[Arg::Id(f), Arg::Id(t), Arg::Id(c)],
        )
    }

    /// A known-answer read (see [`Probe`]) of a tensor the module never writes.
    fn probe(&mut self) -> Option<()> {
        let Some(k) = (0..self.tensors.len()).find(|&k| {
            let d = &self.tensors[k].decl;
            !d.writable && self.bytes.below(2) == 0
        }) else {
            return self.read();
        };
        let decl = self.tensors[k].decl.clone();
        let count = if self.bytes.below(2) == 0 {
            1
        } else {
            1 + self.bytes.below(4) as u32
        };
        let slot = self.probes.last().map_or(0, |p| p.slot + p.count);
        if slot + count > PROBE_SLOTS {
            return self.read();
        }
        // The tensor: one, or an element of an array of tensors at a constant index in range
        // (a runtime array has one element at least).
        let element = match decl.array {
            None => 0,
            Some(n) => self.bytes.below(n.max(1) as usize) as u32,
        };
        let tv = &self.tensors[k];
        let (var, ty, elem_ptr) = (tv.var, tv.ty, tv.elem_ptr);
        let ptr = match decl.array {
            None => var,
            Some(_) => {
                let i = self.b.constant_u32(element).ok()?;
                self.b.access_chain(elem_ptr, var, &[i])?
            }
        };
        let t = self.b.load(ty, ptr)?;
        if self.bytes.below(4) == 0 {
            // A size probe: dimension d into an integer of any width.
            let d = self.bytes.below(decl.rank as usize) as u32;
            let rt = self.bytes.pick(&INTS);
            let dim = self.b.constant_u32(d).ok()?;
            let n = self.emit(Op::TensorQuerySizeARM, rt, &[Arg::Id(t), Arg::Id(dim)])?;
            self.store_probe(n, rt, slot)?;
            self.probes.push(Probe {
                binding: decl.binding,
                element,
                coords: Vec::new(),
                count: 1,
                oob: None,
                slot,
                size_of: Some((d, rt.bits())),
            });
            return Some(());
        }
        // Constant coordinates of any integer type (narrow ones as often as not): small, 128 to
        // 255 (past an 8-bit type's sign bit, inside a long rank-1 tensor), or boundary values.
        let ct = match self.bytes.below(12) {
            k @ 0..=7 => INTS[k],
            8 | 9 => Ty::U8,
            _ => Ty::U16,
        };
        let w = ct.bits();
        let mut coords = Vec::new();
        let mut ids = Vec::new();
        for _ in 0..decl.rank {
            let bits = match self.bytes.below(8) {
                0..=3 => self.bytes.below(6) as u64,
                4 | 5 => 128 + self.bytes.below(128) as u64,
                _ => self
                    .bytes
                    .pick(&[u64::MAX, 1 << (w - 1), 257, 1 << 32 | 1, 127, 329]),
            };
            let bits = if w == 64 { bits } else { bits & ((1 << w) - 1) };
            let value = if ct.signed() && bits >> (w - 1) == 1 {
                bits as i128 - (1i128 << w)
            } else {
                bits as i128
            };
            coords.push(value);
            ids.push(self.konst(ct, bits)?);
        }
        let arr = self.array_ty(ct, decl.rank)?;
        let c = self.b.constant_composite(arr, &ids).ok()?;
        let mut args = vec![Arg::Id(t), Arg::Id(c)];
        let e = decl.element;
        let oob = if self.bytes.below(2) == 0 {
            let bits = self.bytes.u64();
            let bits = match e {
                Ty::Bool => bits & 1,
                _ if e.bits() == 64 => bits,
                _ => bits & ((1 << e.bits()) - 1),
            };
            let v = self.konst(e, bits)?;
            args.push(Arg::name("OutOfBoundsValueARM"));
            args.push(Arg::Id(v));
            Some(bits)
        } else {
            None
        };
        let r = if count == 1 && self.bytes.below(2) == 0 {
            vec![self.emit(Op::TensorReadARM, e, &args)?]
        } else {
            let at = self.array_ty(e, count)?;
            let a = self.b.inst(Op::TensorReadARM, Some(at), &args).ok()??;
            (0..count)
                .map(|i| self.emit(Op::CompositeExtract, e, &[Arg::Id(a), Arg::Int(i)]))
                .collect::<Option<_>>()?
        };
        for (i, v) in r.into_iter().enumerate() {
            self.store_probe(v, e, slot + i as u32)?;
        }
        self.probes.push(Probe {
            binding: decl.binding,
            element,
            coords,
            count,
            oob,
            slot,
            size_of: None,
        });
        Some(())
    }

    /// Stores value `v` of type `e` into probe slot `slot` as its bits zero-extended to 64
    /// (booleans 0 or 1).
    fn store_probe(&mut self, v: u32, e: Ty, slot: u32) -> Option<()> {
        let bits = match e {
            Ty::Bool => {
                let (one, zero) = (self.konst(Ty::U64, 1)?, self.konst(Ty::U64, 0)?);
                let args = [Arg::Id(v), Arg::Id(one), Arg::Id(zero)];
                self.emit(Op::Select, Ty::U64, &args)?
            }
            Ty::U64 => v,
            _ => {
                let uint = [Ty::U8, Ty::U16, Ty::U32, Ty::U64][e.bits().ilog2() as usize - 3];
                let u = if e == uint {
                    v
                } else {
                    self.emit(Op::Bitcast, uint, &[Arg::Id(v)])?
                };
                if uint == Ty::U64 {
                    u
                } else {
                    self.emit(Op::UConvert, Ty::U64, &[Arg::Id(u)])?
                }
            }
        };
        let zero = self.b.constant_u32(0).ok()?;
        let at = self.b.constant_u32(slot).ok()?;
        let p = self
            .b
            .access_chain(self.ptr_sb_u64, self.probe_buf, &[zero, at])?;
        self.b.store(p, bits)
    }

    /// Runs `f` with the scopes restored afterwards (values of a construct's blocks do not
    /// dominate its merge block).
    fn scoped(&mut self, f: impl FnOnce(&mut Self) -> Option<()>) -> Option<()> {
        let keep = (self.pool.len(), self.arrays.len(), self.tvals.len());
        let r = f(self);
        self.pool.truncate(keep.0);
        self.arrays.truncate(keep.1);
        self.tvals.truncate(keep.2);
        r
    }

    fn statements(&mut self, depth: u32) -> Option<()> {
        for _ in 0..self.bytes.below(6) {
            if !self.budget.spend(&self.bytes) {
                break;
            }
            self.statement(depth)?;
        }
        Some(())
    }

    fn statement(&mut self, depth: u32) -> Option<()> {
        match self.bytes.below(22) {
            20 | 21 if depth == 0 => self.probe(),
            0..=3 => self.read(),
            4 | 5 => self.write(),
            6 => self.query(),
            7..=9 => self.arith(),
            10 | 11 => self.store(),
            12 => self.array_op(),
            13 => self.call(),
            14 | 15 if depth < 2 => self.selection(depth),
            16 if depth < 2 => self.lp(depth),
            _ => self.read(),
        }
    }

    fn selection(&mut self, depth: u32) -> Option<()> {
        let c = self.value(Ty::Bool)?;
        let (then, other, merge) = self.b.open_selection(c)?;
        for label in [then, other] {
            self.block(label)?;
            self.scoped(|g| g.statements(depth + 1))?;
            self.b.branch(merge)?;
        }
        self.block(merge)
    }

    /// A counted loop ([`counted_loop`]) whose body has the counter in scope: the bound a
    /// small constant, any uint in scope (possibly huge), or never reached.
    fn lp(&mut self, depth: u32) -> Option<()> {
        let counter = *self.counters.get(depth as usize)?;
        let forever = self.bytes.below(16) == 0;
        let bound = if self.bytes.below(2) == 0 {
            self.b.constant_u32(1 + self.bytes.below(4) as u32).ok()?
        } else {
            self.value(Ty::U32)?
        };
        counted_loop(self, counter, (!forever).then_some(bound), |g| {
            g.scoped(|g| {
                let c = g.emit(Op::Load, Ty::U32, &[Arg::Id(counter)])?;
                g.pool.push((c, Ty::U32));
                g.statements(depth + 1)
            })
        })
    }
}
