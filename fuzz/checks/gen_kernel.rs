//! A generator of random Kernel-model (OpenCL-style) SPIR-V modules with physical addressing,
//! driven by the fuzzer's bytes and built with spvx-spirv's `module::Builder` (the Shader
//! generator is `gen.rs`; this one shares with it only what is in `gen_core.rs`: the byte
//! reader, instruction-name tables and the counted structured loop).
//!
//! Every module declares `Addresses`, `Kernel` and `Int64` (and `Int8`, `Int16`, `Float16`,
//! `Float64`, `GenericPointer`, `Int64Atomics` where used), `OpMemoryModel Physical64 OpenCL`
//! (one time in four `Physical32`), imports `OpenCL.std`, and has one `OpEntryPoint Kernel
//! "main"` (LocalSize declared or left to the dispatch) whose parameters are, in order:
//! `__global uint *a` (read and written), `__global uint *b` (never written through: see
//! below), `uint n`, and optionally `__local uint *l` and `__constant uint *c`
//! ([`Shape::args`]). Built-in Input variables are those OpenCL declares (vectors of
//! `size_t`, or scalars); a module-scope Workgroup array, Function variables (scalars, an
//! array, a variable holding a pointer) and, one module in two, program-scope `__global`
//! variables (a uint, a float4, and a `uint*` initialised to the uint's address) give the
//! other memory spaces.
//!
//! The body is random statements over 8/16/32/64-bit unsigned integers (OpenCL's OpTypeInt has
//! signedness 0), half/float/double, bool and 2/4-vectors: integer, float and conversion
//! arithmetic (with SaturatedConversion / FPRoundingMode decorations), OpenCL.std calls (math,
//! fma/mad, clz/ctz/popcount, mad_sat, rotate, hadd, mul_hi, upsample, bitselect, select,
//! shuffle, ilogb/ldexp/pown/nan, and the functions taking pointers: fract, modf, sincos,
//! frexp, remquo, lgamma_r, vloadn, vstoren, vload_half(n), vstore_half(n)(_r),
//! vloada_halfn), and pointer work: OpPtrAccessChain / OpInBoundsPtrAccessChain with small,
//! negative, huge or any indices; pointer forging (OpConvertPtrToU or OpBitcast to an integer,
//! integer arithmetic, OpConvertUToPtr or OpBitcast back, possibly to another storage class
//! or pointee); OpPtrCastToGeneric, OpGenericCastToPtr(Explicit), OpGenericPtrMemSemantics;
//! pointer bitcasts to other pointees; OpSelect and OpPhi of pointers; OpPtrEqual,
//! OpPtrNotEqual, OpPtrDiff; pointers stored in a Function variable and in `a` and loaded back;
//! loads and stores with memory operands (Aligned, Volatile, Nontemporal); OpCopyMemory and
//! OpCopyMemorySized of random sizes; 32- and 64-bit atomics at walked pointers (Global,
//! Local, Generic); OpControlBarrier and OpMemoryBarrier; structured and unstructured
//! selections, switches and loops (unstructured loops with OpPhi counters and pointer
//! induction variables, `break` and `continue` edges; trip counts may be huge or infinite);
//! early returns; calls to up to two helper functions taking a writable pointer (Global,
//! Local, Function or Generic), a read-only Global pointer and a uint, returning a uint or a
//! pointer derived from their first argument; OpenCL printf with constant formats (integers
//! of every width, floats, `%v4hlf`-style vectors, flags, width and precision, `%s` of a
//! `__constant` string).
//!
//! Isolation rules the generator keeps, so that the engine check can assert `b` unchanged:
//! nothing is ever stored (plain, atomically, by a copy or an OpenCL.std function) through a
//! pointer derived from `b`, or through a pointer loaded from memory (its bytes may have been
//! overwritten by an integer naming `b`'s address); helpers' writable parameters are only
//! given writable pointers. Forged pointers add to a pointer's address
//! a delta small enough to stay in its object's slot of the engine's address map (docs:
//! "Pointers under physical addressing"): under Physical64 any pointer ± less than 2^59 bytes;
//! under Physical32 (8 slots of 512 MiB, objects in the middle) only pointers known to be
//! within 2^27 bytes of their object's base, ± at most 2^24 bytes. So a forged pointer never
//! names `b`; one forged from `c` (a `__constant` buffer) may be written, and the engine must
//! drop those writes.
//!
//! The modules are not race-free: invocations read and write the same elements of `a`, `l`
//! and the Workgroup array and use atomics anywhere, so the engine check compares the
//! interpreter with the JITs only at subgroup size 1 (see `exec_kernel.rs`).
//!
//! Not emitted: OpGroup* collectives and subgroup instructions, images and samplers, structs,
//! vectors of 3, 8 or 16, by-value struct arguments, OpenCL.std prefetch and the geometric
//! functions and OpIAddCarry-style struct results. (OpOrdered, OpUnordered and
//! OpSatConvertSToU/UToS are emitted: spvx-exec runs them.)
//! Nearly every module validates (spvx-val and spirv-val) and compiles.

use crate::gen_core::{
    Budget, Bytes, Emit, FLOAT_BINARY_OPS, Generator, INT_BINARY_OPS, case_literal, counted_loop,
    int_words,
};
use spvx_spirv::grammar::Version;
use spvx_spirv::instruction::OperandValue;
use spvx_spirv::module::{Arg, Builder, Module};
use spvx_spirv::op::Op;

/// The value types the generator computes with (all integers unsigned).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ty {
    U8,
    U16,
    U32,
    U64,
    F16,
    F32,
    F64,
    Bool,
    V2U32,
    V4U32,
    V2F32,
    V4F32,
}

const INTS: [Ty; 4] = [Ty::U8, Ty::U16, Ty::U32, Ty::U64];
const FLOATS: [Ty; 3] = [Ty::F16, Ty::F32, Ty::F64];
/// Types a pointer may point to (everything but bool).
const MEM_TYS: [Ty; 11] = [
    Ty::U8,
    Ty::U16,
    Ty::U32,
    Ty::U64,
    Ty::F16,
    Ty::F32,
    Ty::F64,
    Ty::V2U32,
    Ty::V4U32,
    Ty::V2F32,
    Ty::V4F32,
];

impl Ty {
    /// Bits of one component.
    fn bits(self) -> u32 {
        match self {
            Ty::U8 => 8,
            Ty::U16 | Ty::F16 => 16,
            Ty::U32 | Ty::F32 | Ty::Bool | Ty::V2U32 | Ty::V4U32 | Ty::V2F32 | Ty::V4F32 => 32,
            Ty::U64 | Ty::F64 => 64,
        }
    }

    /// Components (1 for scalars).
    fn count(self) -> u32 {
        match self {
            Ty::V2U32 | Ty::V2F32 => 2,
            Ty::V4U32 | Ty::V4F32 => 4,
            _ => 1,
        }
    }

    /// Bytes in memory (natural layout), which is also the natural alignment.
    fn size(self) -> u64 {
        (self.bits() / 8 * self.count()) as u64
    }

    fn is_int(self) -> bool {
        matches!(
            self,
            Ty::U8 | Ty::U16 | Ty::U32 | Ty::U64 | Ty::V2U32 | Ty::V4U32
        )
    }

    fn is_float(self) -> bool {
        matches!(self, Ty::F16 | Ty::F32 | Ty::F64 | Ty::V2F32 | Ty::V4F32)
    }

    /// The integer type of the same shape with 32-bit components (OpenCL's `int`/`intN`).
    fn int32_like(self) -> Ty {
        match self.count() {
            2 => Ty::V2U32,
            4 => Ty::V4U32,
            _ => Ty::U32,
        }
    }
}

/// A storage class a pointer may have.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Space {
    Cross,
    Local,
    Func,
    Generic,
    Constant,
}

impl Space {
    fn name(self) -> &'static str {
        match self {
            Space::Cross => "CrossWorkgroup",
            Space::Local => "Workgroup",
            Space::Func => "Function",
            Space::Generic => "Generic",
            Space::Constant => "UniformConstant",
        }
    }
}

/// A pointer value in scope.
#[derive(Clone, Copy, Debug)]
struct Ptr {
    id: u32,
    space: Space,
    elem: Ty,
    /// Must never be written through: derived from `b`, or loaded from memory.
    readonly: bool,
    /// A bound on the distance in bytes from its object's base (`u64::MAX`: unknown).
    reach: u64,
}

impl Ptr {
    /// May be stored through (not read-only, not `__constant`).
    fn writable(&self) -> bool {
        !self.readonly && self.space != Space::Constant
    }
}

/// A kernel parameter, in order ([`Shape::args`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Param {
    /// `__global uint *a`: read and written.
    A,
    /// `__global uint *b`: never written through by the module.
    B,
    /// `uint n`.
    N,
    /// `__local uint *l`.
    Local,
    /// `__constant uint *c`.
    Constant,
}

/// What the generated module's interface is, for the engine check.
#[derive(Clone, Debug)]
pub struct Shape {
    /// The kernel's parameters in order.
    pub args: Vec<Param>,
    /// The local size the generator chose.
    pub local: [u32; 3],
    /// True when the module declares it (LocalSize); else the dispatch must give it.
    pub declared: bool,
    /// Physical32 addressing (else Physical64).
    pub physical32: bool,
}

/// Elements of the module-scope Workgroup array.
pub const SHARED_LEN: u32 = 16;
/// Elements of the Function array variable.
const ARRAY_LEN: u32 = 4;
/// Physical32: the largest reach of a pointer that may be forged, and the largest delta.
const FORGE_REACH_32: u64 = 1 << 27;
const FORGE_DELTA_32: u64 = 1 << 24;
/// Physical64: the largest delta (any pointer's address is within 2^47 of its base, the slot
/// half is 2^60).
const FORGE_DELTA_64: u64 = 1 << 59;
/// A bound on the offset of any variable in private or workgroup memory.
const SMALL_OBJECT: u64 = 1 << 16;

/// One helper function.
#[derive(Clone, Copy, Debug)]
struct Helper {
    id: u32,
    /// Space and pointee of the first (writable) parameter.
    space: Space,
    elem: Ty,
    /// Returns a pointer like its first parameter (else a uint).
    returns_ptr: bool,
}

/// What a function returns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ret {
    Void,
    Uint,
    /// A pointer of this space and pointee.
    Ptr(Space, Ty),
}

/// A placeholder id in an OpPhi, replaced once the value it stands for exists.
struct Forward {
    placeholder: u32,
    value: u32,
}

struct Gen<'a> {
    b: Builder,
    bytes: Bytes<'a>,
    physical32: bool,
    ocl: u32,
    types: Vec<(Ty, u32)>,
    /// Values in scope: (id, type). Truncated when a construct ends.
    pool: Vec<(u32, Ty)>,
    /// Pointers in scope. Truncated with the pool.
    ptrs: Vec<Ptr>,
    budget: Budget,
    /// The label of the block being generated.
    cur: u32,
    /// Enclosing loops, innermost last: Some((continue target, exit)) for an unstructured
    /// loop (whose body may branch to either), None for a structured construct.
    loops: Vec<Option<(u32, u32)>>,
    /// Function variables used as structured loop counters (uint), one per depth.
    counters: Vec<u32>,
    /// The Function variable holding a `__global uint*` and its pointer type.
    ptr_var: u32,
    /// The module-scope Workgroup `uint[SHARED_LEN]`.
    shared: u32,
    /// What the current function returns.
    ret: Ret,
    helpers: Vec<Helper>,
    forwards: Vec<Forward>,
    /// The built-in variables: (variable, its pointee type, the type of its value).
    builtin_vars: Vec<(u32, u32, Builtin)>,
    /// Module-scope variables usable as pointers in every function: the program-scope
    /// `__global` variables.
    module_ptrs: Vec<Ptr>,
    /// The program-scope variable holding a `__global uint*` (initialised to point to the
    /// first of `module_ptrs`).
    global_ptr_var: u32,
    /// Module-scope variables made while generating functions (printf strings), for the
    /// entry point's interface.
    late_interface: Vec<u32>,
}

/// The shape of a built-in's value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Builtin {
    /// A vector of 3 `size_t`.
    Vector,
    /// One `size_t`.
    Size,
    /// One uint.
    Uint,
}

/// Builds a module from `data`; `None` when the builder refuses something (a generator bug,
/// which the check then skips).
pub fn generate(data: &[u8]) -> Option<(Module, Shape)> {
    let mut bytes = Bytes(data);
    let physical32 = bytes.below(4) == 0;
    let local = [1 + bytes.below(8) as u32, 1 + bytes.below(2) as u32, 1];
    let declared = bytes.u8() & 1 == 0;
    let flags = bytes.u8();
    let mut args = vec![Param::A, Param::B, Param::N];
    if flags & 1 != 0 {
        args.push(Param::Local);
    }
    if flags & 2 != 0 {
        args.push(Param::Constant);
    }
    let mut b = Builder::new(Version::new(1, 4));
    for cap in ["Addresses", "Kernel", "Int64"] {
        b.capability(cap).ok()?;
    }
    let ocl = b.ext_inst_import("OpenCL.std").ok()?;
    let model = if physical32 {
        "Physical32"
    } else {
        "Physical64"
    };
    b.memory_model(model, "OpenCL").ok()?;
    let mut g = Gen {
        b,
        bytes,
        physical32,
        ocl,
        types: Vec::new(),
        pool: Vec::new(),
        ptrs: Vec::new(),
        budget: Budget(0),
        cur: 0,
        loops: Vec::new(),
        counters: Vec::new(),
        ptr_var: 0,
        shared: 0,
        ret: Ret::Void,
        helpers: Vec::new(),
        forwards: Vec::new(),
        builtin_vars: Vec::new(),
        module_ptrs: Vec::new(),
        global_ptr_var: 0,
        late_interface: Vec::new(),
    };
    let mut interface = g.builtins()?;
    let u32t = g.ty(Ty::U32)?;
    let len = g.b.constant_u32(SHARED_LEN).ok()?;
    let arr = g.b.type_array(u32t, len).ok()?;
    let ptr_arr = g.b.type_pointer("Workgroup", arr).ok()?;
    g.shared = g.b.global_variable(ptr_arr, "Workgroup", None).ok()?;
    interface.push(g.shared);
    interface.extend(g.program_scope()?);
    let consts = g.constants()?;
    for _ in 0..g.bytes.below(3) {
        g.helper(&consts)?;
    }
    let void = g.b.type_void().ok()?;
    let mut params = Vec::new();
    for p in &args {
        params.push(match p {
            Param::A | Param::B => g.ptr_ty(Space::Cross, Ty::U32)?,
            Param::N => u32t,
            Param::Local => g.ptr_ty(Space::Local, Ty::U32)?,
            Param::Constant => g.ptr_ty(Space::Constant, Ty::U32)?,
        });
    }
    let fty = g.b.type_function(void, &params).ok()?;
    let main = g.b.begin_function(void, "None", fty).ok()?;
    g.pool = consts;
    g.ptrs = g.module_ptrs.clone();
    g.ret = Ret::Void;
    for (p, &t) in args.iter().zip(&params) {
        let id = g.b.function_parameter(t).ok()?;
        let ptr = |space, readonly| Ptr {
            id,
            space,
            elem: Ty::U32,
            readonly,
            reach: 0,
        };
        match p {
            Param::A => g.ptrs.push(ptr(Space::Cross, false)),
            Param::B => g.ptrs.push(ptr(Space::Cross, true)),
            Param::N => g.pool.push((id, Ty::U32)),
            Param::Local => g.ptrs.push(Ptr {
                reach: SMALL_OBJECT,
                ..ptr(Space::Local, false)
            }),
            Param::Constant => g.ptrs.push(ptr(Space::Constant, false)),
        }
        if *p == Param::B && g.bytes.below(4) == 0 {
            g.b.decorate(id, "FuncParamAttr", &[Arg::name("NoWrite")])
                .ok()?;
        }
    }
    g.cur = g.b.begin_block().ok()?;
    g.variables()?;
    g.load_builtins()?;
    g.budget = Budget(80);
    g.statements(0)?;
    g.b.inst(Op::Return, None, &[]).ok()?;
    g.b.end_function().ok()?;
    interface.extend(std::mem::take(&mut g.late_interface));
    g.b.entry_point("Kernel", main, "main", &interface).ok()?;
    if declared {
        g.b.execution_mode(main, "LocalSize", &local).ok()?;
    }
    if g.bytes.below(8) == 0 {
        g.b.execution_mode(main, "ContractionOff", &[]).ok()?;
    }
    let forwards = std::mem::take(&mut g.forwards);
    let mut module = g.b.finish().ok()?;
    resolve(&mut module, &forwards);
    Some((
        module,
        Shape {
            args,
            local,
            declared,
            physical32,
        },
    ))
}

/// Replaces each OpPhi placeholder by the value it stands for.
fn resolve(module: &mut Module, forwards: &[Forward]) {
    for f in &mut module.functions {
        for block in &mut f.blocks {
            for inst in &mut block.instructions {
                for op in &mut inst.operands {
                    if let OperandValue::Id(id) = &mut op.value
                        && let Some(fw) = forwards.iter().find(|fw| fw.placeholder == *id)
                    {
                        *id = fw.value;
                    }
                }
            }
        }
    }
}

impl Generator for Gen<'_> {
    fn builder(&mut self) -> &mut Builder {
        &mut self.b
    }
    fn block(&mut self, label: u32) -> Option<()> {
        self.cur = self.b.begin_block_with(label).ok()?;
        Some(())
    }
}

impl Gen<'_> {
    /// `size_t`: 32 or 64 bits with the addressing model.
    fn size_t(&self) -> Ty {
        if self.physical32 { Ty::U32 } else { Ty::U64 }
    }

    /// The type id of `t`, declared (with its capability) on first use.
    fn ty(&mut self, t: Ty) -> Option<u32> {
        if let Some(&(_, id)) = self.types.iter().find(|p| p.0 == t) {
            return Some(id);
        }
        let cap = match t {
            Ty::U8 => Some("Int8"),
            Ty::U16 => Some("Int16"),
            Ty::F16 => Some("Float16"),
            Ty::F64 => Some("Float64"),
            _ => None,
        };
        if let Some(cap) = cap {
            self.b.capability(cap).ok()?;
        }
        let id = match t {
            Ty::U8 | Ty::U16 | Ty::U32 | Ty::U64 => self.b.type_int(t.bits(), false).ok()?,
            Ty::F16 | Ty::F32 | Ty::F64 => self.b.type_float(t.bits(), None).ok()?,
            Ty::Bool => self.b.type_bool().ok()?,
            Ty::V2U32 | Ty::V4U32 => {
                let c = self.ty(Ty::U32)?;
                self.b.type_vector(c, t.count()).ok()?
            }
            Ty::V2F32 | Ty::V4F32 => {
                let c = self.ty(Ty::F32)?;
                self.b.type_vector(c, t.count()).ok()?
            }
        };
        self.types.push((t, id));
        Some(id)
    }

    fn ptr_ty(&mut self, space: Space, elem: Ty) -> Option<u32> {
        if space == Space::Generic {
            self.b.capability("GenericPointer").ok()?;
        }
        let e = self.ty(elem)?;
        self.b.type_pointer(space.name(), e).ok()
    }

    /// A constant `v` of integer type `t` (truncated to its width).
    fn int_const(&mut self, t: Ty, v: u64) -> Option<u32> {
        let ty = self.ty(t)?;
        self.b.constant_words(ty, &int_words(t.bits(), v)).ok()
    }

    /// A random constant of type `t`.
    fn constant(&mut self, t: Ty) -> Option<u32> {
        let ty = self.ty(t)?;
        match t {
            Ty::Bool => self.b.constant_bool(self.bytes.u8() & 1 == 1).ok(),
            Ty::U8 | Ty::U16 | Ty::U32 | Ty::U64 => {
                // Small values most of the time, else any bits.
                let v = match self.bytes.below(4) {
                    0 | 1 => self.bytes.below(17) as u64,
                    2 => (self.bytes.u8() as i8) as i64 as u64,
                    _ => self.bytes.u64(),
                };
                self.int_const(t, v)
            }
            Ty::F16 => {
                let v = self.bytes.pick(&[0x3c00, 0xc000, 0x0000, 0x7c00]);
                let v = if self.bytes.below(3) == 0 {
                    self.bytes.u32() & 0xffff
                } else {
                    v
                };
                self.b.constant_words(ty, &[v]).ok()
            }
            Ty::F32 => {
                let v = self
                    .bytes
                    .pick(&[1.0f32, -2.5, 0.0, 0.5, 1e30, f32::INFINITY]);
                let v = if self.bytes.below(3) == 0 {
                    self.bytes.u32()
                } else {
                    v.to_bits()
                };
                self.b.constant_words(ty, &[v]).ok()
            }
            Ty::F64 => {
                let v = self.bytes.pick(&[1.0f64, -3.25, 0.0, 1e-300]).to_bits();
                let v = if self.bytes.below(3) == 0 {
                    self.bytes.u64()
                } else {
                    v
                };
                self.b
                    .constant_words(ty, &[v as u32, (v >> 32) as u32])
                    .ok()
            }
            Ty::V2U32 | Ty::V4U32 | Ty::V2F32 | Ty::V4F32 => {
                if self.bytes.below(2) == 0 {
                    return self.b.constant_null(ty).ok();
                }
                let c = if t.is_int() { Ty::U32 } else { Ty::F32 };
                let parts: Vec<u32> = (0..t.count())
                    .map(|_| self.constant(c))
                    .collect::<Option<_>>()?;
                self.b.constant_composite(ty, &parts).ok()
            }
        }
    }

    /// A few constants of random types for the pool.
    fn constants(&mut self) -> Option<Vec<(u32, Ty)>> {
        let mut out = Vec::new();
        for v in [0u64, 1, 4] {
            out.push((self.int_const(Ty::U32, v)?, Ty::U32));
        }
        for _ in 0..2 + self.bytes.below(6) {
            let t = self.bytes.pick(&MEM_TYS);
            out.push((self.constant(t)?, t));
        }
        out.push((self.constant(Ty::Bool)?, Ty::Bool));
        Some(out)
    }

    /// The built-in Input variables: GlobalInvocationId and a random subset of the others
    /// OpenCL declares (some decorated Constant, as llvm-spirv does); returns them (the entry
    /// point's interface).
    fn builtins(&mut self) -> Option<Vec<u32>> {
        const ALL: [(&str, Builtin); 17] = [
            ("GlobalInvocationId", Builtin::Vector),
            ("LocalInvocationId", Builtin::Vector),
            ("WorkgroupId", Builtin::Vector),
            ("NumWorkgroups", Builtin::Vector),
            ("WorkgroupSize", Builtin::Vector),
            ("EnqueuedWorkgroupSize", Builtin::Vector),
            ("GlobalSize", Builtin::Vector),
            ("GlobalOffset", Builtin::Vector),
            ("LocalInvocationIndex", Builtin::Size),
            ("GlobalLinearId", Builtin::Size),
            ("WorkDim", Builtin::Uint),
            ("SubgroupSize", Builtin::Uint),
            ("SubgroupMaxSize", Builtin::Uint),
            ("NumSubgroups", Builtin::Uint),
            ("NumEnqueuedSubgroups", Builtin::Uint),
            ("SubgroupId", Builtin::Uint),
            ("SubgroupLocalInvocationId", Builtin::Uint),
        ];
        let st = self.size_t();
        let stt = self.ty(st)?;
        let v3 = self.b.type_vector(stt, 3).ok()?;
        let u32t = self.ty(Ty::U32)?;
        let mask = self.bytes.u32();
        let constant = self.bytes.u32();
        let mut out = Vec::new();
        for (k, (name, kind)) in ALL.into_iter().enumerate() {
            if k > 0 && mask >> k & 1 == 0 {
                continue;
            }
            let ty = match kind {
                Builtin::Vector => v3,
                Builtin::Size => stt,
                Builtin::Uint => u32t,
            };
            let p = self.b.type_pointer("Input", ty).ok()?;
            let v = self.b.builtin_input(p, name)?;
            if constant >> k & 1 == 1 {
                self.b.decorate(v, "Constant", &[]).ok()?;
            }
            self.builtin_vars.push((v, ty, kind));
            out.push(v);
        }
        Some(out)
    }

    /// Loads every built-in into the pool (vectors: their three components).
    fn load_builtins(&mut self) -> Option<()> {
        let st = self.size_t();
        let stt = self.ty(st)?;
        for (v, ty, kind) in self.builtin_vars.clone() {
            let x = self.b.load(ty, v)?;
            match kind {
                Builtin::Vector => {
                    for c in 0..3 {
                        let e = self
                            .b
                            .inst(Op::CompositeExtract, Some(stt), &[Arg::Id(x), Arg::Int(c)])
                            .ok()??;
                        self.pool.push((e, st));
                    }
                }
                Builtin::Size => self.pool.push((x, st)),
                Builtin::Uint => self.pool.push((x, Ty::U32)),
            }
        }
        Some(())
    }

    /// The Function variables of the current function: loop counters, scalars and vectors
    /// (pushed as pointers), a `uint[ARRAY_LEN]` and a variable holding a `__global uint*`.
    fn variables(&mut self) -> Option<()> {
        let u32t = self.ty(Ty::U32)?;
        let pfn = self.ptr_ty(Space::Func, Ty::U32)?;
        self.counters = self.b.loop_counters(pfn)?;
        for t in [Ty::U32, Ty::U64, Ty::F32, Ty::V4F32, Ty::F16, Ty::U8] {
            if t != Ty::U32 && self.bytes.below(2) == 0 {
                continue;
            }
            let p = self.ptr_ty(Space::Func, t)?;
            let mut args = vec![Arg::name("Function")];
            if self.bytes.below(3) == 0 {
                args.push(Arg::Id(self.constant(t)?));
            }
            let v = self.b.inst(Op::Variable, Some(p), &args).ok()??;
            self.ptrs.push(Ptr {
                id: v,
                space: Space::Func,
                elem: t,
                readonly: false,
                reach: SMALL_OBJECT,
            });
        }
        let len = self.b.constant_u32(ARRAY_LEN).ok()?;
        let arr = self.b.type_array(u32t, len).ok()?;
        let parr = self.b.type_pointer("Function", arr).ok()?;
        let a = self.b.variable(parr)?;
        let pg = self.ptr_ty(Space::Cross, Ty::U32)?;
        let ppg = self.b.type_pointer("Function", pg).ok()?;
        self.ptr_var = self.b.variable(ppg)?;
        // Element 0 of the array as a pointer to walk from.
        let zero = self.int_const(Ty::U32, 0)?;
        let e = self.b.access_chain(pfn, a, &[zero])?;
        self.ptrs.push(Ptr {
            id: e,
            space: Space::Func,
            elem: Ty::U32,
            readonly: false,
            reach: SMALL_OBJECT,
        });
        Some(())
    }
}

/// Statements.
impl Gen<'_> {
    /// A value of type `t` in scope (a new constant when there is none, or one time in eight).
    fn value(&mut self, t: Ty) -> Option<u32> {
        let have: Vec<u32> = self.pool.iter().filter(|p| p.1 == t).map(|p| p.0).collect();
        if have.is_empty() || self.bytes.below(8) == 0 {
            return self.constant(t);
        }
        Some(self.bytes.pick(&have))
    }

    /// Emits `name` with result type `t`; the result joins the pool.
    fn op(&mut self, name: Op, t: Ty, args: &[Arg]) -> Option<u32> {
        let ty = self.ty(t)?;
        let r = self.b.inst(name, Some(ty), args).ok()??;
        self.pool.push((r, t));
        Some(r)
    }

    /// An OpenCL.std call with result type `t` (void when None); the result joins the pool.
    fn ocl(&mut self, name: &str, t: Option<Ty>, operands: &[Arg]) -> Option<()> {
        let mut args = vec![Arg::Id(self.ocl), Arg::name(name)];
        args.extend(operands.iter().cloned());
        match t {
            Some(t) => self.op(Op::ExtInst, t, &args).map(drop),
            None => {
                let void = self.b.type_void().ok()?;
                self.b.inst(Op::ExtInst, Some(void), &args).ok()?;
                Some(())
            }
        }
    }

    /// Emits a pointer-valued instruction; the result joins the pointers in scope.
    fn ptr_op(&mut self, name: Op, like: Ptr, args: &[Arg]) -> Option<Ptr> {
        let ty = self.ptr_ty(like.space, like.elem)?;
        let id = self.b.inst(name, Some(ty), args).ok()??;
        let p = Ptr { id, ..like };
        self.ptrs.push(p);
        Some(p)
    }

    /// A pointer in scope that satisfies `f`, if any.
    fn pick(&mut self, f: impl Fn(&Ptr) -> bool) -> Option<Ptr> {
        let have: Vec<Ptr> = self.ptrs.iter().filter(|p| f(p)).copied().collect();
        if have.is_empty() {
            return None;
        }
        Some(self.bytes.pick(&have))
    }

    /// `p` as a pointer to `elem` (OpBitcast when the pointee differs).
    fn retyped(&mut self, p: Ptr, elem: Ty) -> Option<Ptr> {
        if p.elem == elem {
            return Some(p);
        }
        self.ptr_op(Op::Bitcast, Ptr { elem, ..p }, &[Arg::Id(p.id)])
    }

    /// A pointer to `elem` in `space` (any writable space when None) that may be written:
    /// one in scope, or one made from another by a bitcast or a cast to Generic. Outer None:
    /// a builder error; inner None: no such pointer can be had.
    fn writable(&mut self, space: Option<Space>, elem: Ty) -> Option<Option<Ptr>> {
        let fits = |p: &Ptr, s: Option<Space>| p.writable() && s.is_none_or(|s| p.space == s);
        if let Some(p) = self.pick(|p| fits(p, space) && p.elem == elem) {
            return Some(Some(p));
        }
        if let Some(p) = self.pick(|p| fits(p, space)) {
            return self.retyped(p, elem).map(Some);
        }
        if space == Some(Space::Generic)
            && let Some(p) = self.pick(|p| p.writable() && p.space != Space::Generic)
        {
            let g = self.ptr_op(
                Op::PtrCastToGeneric,
                Ptr {
                    space: Space::Generic,
                    ..p
                },
                &[Arg::Id(p.id)],
            )?;
            return self.retyped(g, elem).map(Some);
        }
        Some(None)
    }

    /// A pointer to `elem` that may be read (any pointer, retyped when needed).
    fn readable(&mut self, elem: Ty) -> Option<Option<Ptr>> {
        if let Some(p) = self.pick(|p| p.elem == elem) {
            return Some(Some(p));
        }
        match self.pick(|_| true) {
            Some(p) => self.retyped(p, elem).map(Some),
            None => Some(None),
        }
    }

    /// Up to 7 statements in a construct, 4 to 35 at a function's top level.
    fn statements(&mut self, depth: u32) -> Option<()> {
        let n = if depth == 0 {
            4 + self.bytes.below(32)
        } else {
            self.bytes.below(8)
        };
        for _ in 0..n {
            if !self.budget.spend(&self.bytes) {
                break;
            }
            self.statement(depth)?;
        }
        Some(())
    }

    fn statement(&mut self, depth: u32) -> Option<()> {
        match self.bytes.below(42) {
            0..=2 => self.arith(),
            3 | 4 => self.float_arith(),
            5 => self.compare(),
            6 => self.convert(),
            7 => self.composite(),
            8..=10 => self.ocl_call(),
            11 => self.ocl_pointer_out(),
            12 | 13 => self.vector_memory(),
            14..=16 => self.walk(),
            17 | 18 => self.forge(),
            19 => self.generic(),
            20 => {
                let Some(p) = self.pick(|_| true) else {
                    return Some(());
                };
                let elem = self.bytes.pick(&MEM_TYS);
                self.retyped(p, elem).map(drop)
            }
            21 | 22 => self.load(),
            23 | 24 => self.store(),
            25 => self.copy(),
            26 | 27 => self.atomic(),
            28 => self.barrier(),
            29 => self.ptr_compare(),
            30 => self.spill(),
            39 => self.printf(),
            31 => self.shared_element(),
            32 if !self.helpers.is_empty() => self.call(),
            33 | 34 if depth < 3 => self.selection(depth),
            35 if depth < 3 => self.switch(depth),
            36 | 37 if depth < 3 => self.lp(depth),
            38 => self.jump(),
            _ => self.arith(),
        }
    }

    fn arith(&mut self) -> Option<()> {
        const BIN: [Op; 14] = INT_BINARY_OPS;
        let t = match self.bytes.below(6) {
            4 => Ty::V2U32,
            5 => Ty::V4U32,
            k => INTS[k],
        };
        let k = self.bytes.below(BIN.len() + 2);
        if let Some(name) = BIN.get(k) {
            let (a, b) = (self.value(t)?, self.value(t)?);
            self.op(*name, t, &[Arg::Id(a), Arg::Id(b)]).map(drop)
        } else {
            let a = self.value(t)?;
            let name = [Op::Not, Op::SNegate][k - BIN.len()];
            self.op(name, t, &[Arg::Id(a)]).map(drop)
        }
    }

    /// A float type: scalar or vector.
    fn float_ty(&mut self) -> Ty {
        self.bytes
            .pick(&[Ty::F16, Ty::F32, Ty::F32, Ty::F64, Ty::V2F32, Ty::V4F32])
    }

    fn float_arith(&mut self) -> Option<()> {
        const BIN: [Op; 6] = FLOAT_BINARY_OPS;
        let t = self.float_ty();
        let k = self.bytes.below(BIN.len() + 1);
        let a = self.value(t)?;
        if let Some(name) = BIN.get(k) {
            let b = self.value(t)?;
            self.op(*name, t, &[Arg::Id(a), Arg::Id(b)]).map(drop)
        } else {
            self.op(Op::FNegate, t, &[Arg::Id(a)]).map(drop)
        }
    }

    fn compare(&mut self) -> Option<()> {
        const INT: [Op; 7] = [
            Op::IEqual,
            Op::INotEqual,
            Op::ULessThan,
            Op::SLessThan,
            Op::UGreaterThanEqual,
            Op::SGreaterThan,
            Op::SLessThanEqual,
        ];
        const FLT: [Op; 8] = [
            Op::FOrdLessThan,
            Op::FUnordEqual,
            Op::FOrdEqual,
            Op::FUnordGreaterThanEqual,
            Op::FOrdNotEqual,
            Op::FUnordLessThanEqual,
            Op::Ordered,
            Op::Unordered,
        ];
        const TESTS: [Op; 5] = [
            Op::IsNan,
            Op::IsInf,
            Op::IsFinite,
            Op::IsNormal,
            Op::SignBitSet,
        ];
        match self.bytes.below(4) {
            0 => {
                let t = self.bytes.pick(&INTS);
                let (a, b) = (self.value(t)?, self.value(t)?);
                let name = self.bytes.pick(&INT);
                self.op(name, Ty::Bool, &[Arg::Id(a), Arg::Id(b)]).map(drop)
            }
            1 => {
                let t = self.bytes.pick(&FLOATS);
                let (a, b) = (self.value(t)?, self.value(t)?);
                let name = self.bytes.pick(&FLT);
                self.op(name, Ty::Bool, &[Arg::Id(a), Arg::Id(b)]).map(drop)
            }
            2 => {
                let t = self.bytes.pick(&FLOATS);
                let a = self.value(t)?;
                let name = self.bytes.pick(&TESTS);
                self.op(name, Ty::Bool, &[Arg::Id(a)]).map(drop)
            }
            _ => {
                let (a, b) = (self.value(Ty::Bool)?, self.value(Ty::Bool)?);
                match self.bytes.below(3) {
                    0 => self.op(Op::LogicalAnd, Ty::Bool, &[Arg::Id(a), Arg::Id(b)]),
                    1 => self.op(Op::LogicalNotEqual, Ty::Bool, &[Arg::Id(a), Arg::Id(b)]),
                    _ => self.op(Op::LogicalNot, Ty::Bool, &[Arg::Id(a)]),
                }
                .map(drop)
            }
        }
    }

    /// Conversions between the integer and float types, sometimes decorated
    /// SaturatedConversion or FPRoundingMode.
    fn convert(&mut self) -> Option<()> {
        let i = self.bytes.pick(&INTS);
        let f = self.bytes.pick(&FLOATS);
        let r = match self.bytes.below(7) {
            0 => {
                let a = self.value(i)?;
                let name = self.bytes.pick(&[Op::ConvertUToF, Op::ConvertSToF]);
                self.op(name, f, &[Arg::Id(a)])?
            }
            1 => {
                let a = self.value(f)?;
                let name = self.bytes.pick(&[Op::ConvertFToU, Op::ConvertFToS]);
                self.op(name, i, &[Arg::Id(a)])?
            }
            2 => {
                let to = self.bytes.pick(&INTS);
                let a = self.value(i)?;
                if to == i {
                    self.op(Op::CopyObject, to, &[Arg::Id(a)])?
                } else {
                    let name = self.bytes.pick(&[
                        Op::UConvert,
                        Op::SConvert,
                        Op::SatConvertSToU,
                        Op::SatConvertUToS,
                    ]);
                    self.op(name, to, &[Arg::Id(a)])?
                }
            }
            3 => {
                let to = self.bytes.pick(&FLOATS);
                let a = self.value(f)?;
                let name = if to == f {
                    Op::CopyObject
                } else {
                    Op::FConvert
                };
                self.op(name, to, &[Arg::Id(a)])?
            }
            4 => {
                // Bitcast between equal widths.
                let groups: [&[Ty]; 4] = [
                    &[Ty::U32, Ty::F32],
                    &[Ty::U64, Ty::F64, Ty::V2U32, Ty::V2F32],
                    &[Ty::U16, Ty::F16],
                    &[Ty::V4U32, Ty::V4F32],
                ];
                let g = self.bytes.pick(&groups);
                let from = self.bytes.pick(g);
                let to = self.bytes.pick(g);
                let a = self.value(from)?;
                self.op(Op::Bitcast, to, &[Arg::Id(a)])?
            }
            5 => {
                let c = self.value(Ty::Bool)?;
                let t = self.bytes.pick(&MEM_TYS);
                let (a, b) = (self.value(t)?, self.value(t)?);
                self.op(Op::Select, t, &[Arg::Id(c), Arg::Id(a), Arg::Id(b)])?
            }
            _ => {
                let a = self.value(i)?;
                self.op(Op::CopyObject, i, &[Arg::Id(a)])?
            }
        };
        match self.bytes.below(8) {
            0 => self.b.decorate(r, "SaturatedConversion", &[]).ok()?,
            1 => {
                let mode = self.bytes.pick(&["RTE", "RTZ", "RTP", "RTN"]);
                self.b
                    .decorate(r, "FPRoundingMode", &[Arg::name(mode)])
                    .ok()?
            }
            _ => {}
        }
        Some(())
    }

    fn composite(&mut self) -> Option<()> {
        let (v, c) = self.bytes.pick(&[
            (Ty::V2U32, Ty::U32),
            (Ty::V4U32, Ty::U32),
            (Ty::V2F32, Ty::F32),
            (Ty::V4F32, Ty::F32),
        ]);
        let n = v.count();
        match self.bytes.below(6) {
            0 => {
                let parts: Vec<Arg> = (0..n)
                    .map(|_| self.value(c).map(Arg::Id))
                    .collect::<Option<_>>()?;
                self.op(Op::CompositeConstruct, v, &parts).map(drop)
            }
            1 => {
                let x = self.value(v)?;
                let k = self.bytes.below(n as usize) as u32;
                self.op(Op::CompositeExtract, c, &[Arg::Id(x), Arg::Int(k)])
                    .map(drop)
            }
            2 => {
                let x = self.value(v)?;
                let e = self.value(c)?;
                let k = self.bytes.below(n as usize) as u32;
                self.op(
                    Op::CompositeInsert,
                    v,
                    &[Arg::Id(e), Arg::Id(x), Arg::Int(k)],
                )
                .map(drop)
            }
            3 => {
                let (x, y) = (self.value(v)?, self.value(v)?);
                let mut args = vec![Arg::Id(x), Arg::Id(y)];
                for _ in 0..n {
                    let k = self.bytes.below(2 * n as usize + 1) as u32;
                    args.push(Arg::Int(if k == 2 * n { 0xffff_ffff } else { k }));
                }
                self.op(Op::VectorShuffle, v, &args).map(drop)
            }
            4 => {
                // A dynamic index of any integer type, often out of range.
                let x = self.value(v)?;
                let it = self.bytes.pick(&INTS);
                let i = self.value(it)?;
                if self.bytes.below(2) == 0 {
                    self.op(Op::VectorExtractDynamic, c, &[Arg::Id(x), Arg::Id(i)])
                } else {
                    let e = self.value(c)?;
                    self.op(
                        Op::VectorInsertDynamic,
                        v,
                        &[Arg::Id(x), Arg::Id(e), Arg::Id(i)],
                    )
                }
                .map(drop)
            }
            _ if c == Ty::F32 => {
                let (x, y) = (self.value(v)?, self.value(v)?);
                self.op(Op::Dot, Ty::F32, &[Arg::Id(x), Arg::Id(y)])
                    .map(drop)
            }
            _ => {
                let (x, y) = (self.value(v)?, self.value(v)?);
                self.op(Op::IAdd, v, &[Arg::Id(x), Arg::Id(y)]).map(drop)
            }
        }
    }

    /// An OpenCL.std function without pointer operands.
    fn ocl_call(&mut self) -> Option<()> {
        const F1: [&str; 30] = [
            "sqrt", "sin", "cos", "exp", "log", "fabs", "floor", "ceil", "rint", "trunc", "round",
            "cbrt", "erf", "tanh", "rsqrt", "acosh", "sinpi", "lgamma", "tgamma", "expm1", "log1p",
            "logb", "sign", "degrees", "asin", "atan", "exp10", "log2", "cospi", "erfc",
        ];
        const F1_NATIVE: [&str; 6] = [
            "native_sqrt",
            "native_exp",
            "half_sqrt",
            "native_recip",
            "half_log",
            "native_sin",
        ];
        const F2: [&str; 16] = [
            "fmax",
            "fmin",
            "fmod",
            "pow",
            "atan2",
            "hypot",
            "copysign",
            "fdim",
            "nextafter",
            "remainder",
            "maxmag",
            "minmag",
            "step",
            "powr",
            "fmax_common",
            "atan2pi",
        ];
        const F3: [&str; 5] = ["fma", "mad", "mix", "fclamp", "smoothstep"];
        const I1: [&str; 5] = ["s_abs", "clz", "ctz", "popcount", "u_abs"];
        const I2: [&str; 17] = [
            "s_abs_diff",
            "u_abs_diff",
            "s_add_sat",
            "u_add_sat",
            "s_hadd",
            "u_hadd",
            "s_rhadd",
            "u_rhadd",
            "s_max",
            "u_max",
            "s_min",
            "u_min",
            "s_mul_hi",
            "u_mul_hi",
            "rotate",
            "s_sub_sat",
            "u_sub_sat",
        ];
        const I3: [&str; 7] = [
            "s_clamp",
            "u_clamp",
            "s_mad_hi",
            "u_mad_hi",
            "u_mad_sat",
            "s_mad_sat",
            "bitselect",
        ];
        let int_ty = |g: &mut Self| match g.bytes.below(6) {
            4 => Ty::V2U32,
            5 => Ty::V4U32,
            k => INTS[k],
        };
        match self.bytes.below(12) {
            0 | 1 => {
                let t = self.float_ty();
                let a = self.value(t)?;
                let name = if self.bytes.below(6) == 0 && t != Ty::F16 && t != Ty::F64 {
                    self.bytes.pick(&F1_NATIVE)
                } else {
                    self.bytes.pick(&F1)
                };
                self.ocl(name, Some(t), &[Arg::Id(a)])
            }
            2 => {
                let t = self.float_ty();
                let (a, b) = (self.value(t)?, self.value(t)?);
                let name = self.bytes.pick(&F2);
                self.ocl(name, Some(t), &[Arg::Id(a), Arg::Id(b)])
            }
            3 => {
                let t = self.float_ty();
                let (a, b, c) = (self.value(t)?, self.value(t)?, self.value(t)?);
                let name = self.bytes.pick(&F3);
                self.ocl(name, Some(t), &[Arg::Id(a), Arg::Id(b), Arg::Id(c)])
            }
            4 => {
                // ldexp, pown, rootn (an int argument), ilogb (an int result).
                let t = self.float_ty();
                let k = t.int32_like();
                let a = self.value(t)?;
                match self.bytes.below(4) {
                    3 => self.ocl("ilogb", Some(k), &[Arg::Id(a)]),
                    n => {
                        let name = ["ldexp", "pown", "rootn"][n];
                        let b = self.value(k)?;
                        self.ocl(name, Some(t), &[Arg::Id(a), Arg::Id(b)])
                    }
                }
            }
            5 => {
                // nan(nancode): an unsigned integer of the result's width.
                let (code, t) = self.bytes.pick(&[
                    (Ty::U32, Ty::F32),
                    (Ty::U64, Ty::F64),
                    (Ty::U16, Ty::F16),
                    (Ty::V4U32, Ty::V4F32),
                ]);
                let a = self.value(code)?;
                self.ocl("nan", Some(t), &[Arg::Id(a)])
            }
            6 => {
                let t = int_ty(self);
                let a = self.value(t)?;
                let name = self.bytes.pick(&I1);
                self.ocl(name, Some(t), &[Arg::Id(a)])
            }
            7 | 8 => {
                let t = int_ty(self);
                let (a, b) = (self.value(t)?, self.value(t)?);
                let name = self.bytes.pick(&I2);
                self.ocl(name, Some(t), &[Arg::Id(a), Arg::Id(b)])
            }
            9 => {
                let t = int_ty(self);
                let (a, b, c) = (self.value(t)?, self.value(t)?, self.value(t)?);
                let name = self.bytes.pick(&I3);
                self.ocl(name, Some(t), &[Arg::Id(a), Arg::Id(b), Arg::Id(c)])
            }
            10 => {
                // 24-bit multiplies (32-bit components), upsample (half-width halves).
                match self.bytes.below(3) {
                    0 => {
                        let (hi, lo, t) = self.bytes.pick(&[
                            (Ty::U8, Ty::U8, Ty::U16),
                            (Ty::U16, Ty::U16, Ty::U32),
                            (Ty::U32, Ty::U32, Ty::U64),
                        ]);
                        let (a, b) = (self.value(hi)?, self.value(lo)?);
                        let name = self.bytes.pick(&["u_upsample", "s_upsample"]);
                        self.ocl(name, Some(t), &[Arg::Id(a), Arg::Id(b)])
                    }
                    1 => {
                        let t = self.bytes.pick(&[Ty::U32, Ty::V2U32, Ty::V4U32]);
                        let (a, b) = (self.value(t)?, self.value(t)?);
                        let name = self.bytes.pick(&["s_mul24", "u_mul24"]);
                        self.ocl(name, Some(t), &[Arg::Id(a), Arg::Id(b)])
                    }
                    _ => {
                        let t = self.bytes.pick(&[Ty::U32, Ty::V2U32, Ty::V4U32]);
                        let (a, b, c) = (self.value(t)?, self.value(t)?, self.value(t)?);
                        let name = self.bytes.pick(&["s_mad24", "u_mad24"]);
                        self.ocl(name, Some(t), &[Arg::Id(a), Arg::Id(b), Arg::Id(c)])
                    }
                }
            }
            _ => {
                // select(a, b, c) with c an integer of a's component width; shuffle(2).
                if self.bytes.below(2) == 0 {
                    let (t, c) = self.bytes.pick(&[
                        (Ty::U32, Ty::U32),
                        (Ty::F32, Ty::U32),
                        (Ty::F64, Ty::U64),
                        (Ty::F16, Ty::U16),
                        (Ty::U8, Ty::U8),
                        (Ty::V4F32, Ty::V4U32),
                        (Ty::V2U32, Ty::V2U32),
                    ]);
                    let (a, b, s) = (self.value(t)?, self.value(t)?, self.value(c)?);
                    return self.ocl("select", Some(t), &[Arg::Id(a), Arg::Id(b), Arg::Id(s)]);
                }
                let src = self
                    .bytes
                    .pick(&[Ty::V2U32, Ty::V4U32, Ty::V2F32, Ty::V4F32]);
                let mask = self.bytes.pick(&[Ty::V2U32, Ty::V4U32]);
                let result = match (src.is_float(), mask.count()) {
                    (true, 2) => Ty::V2F32,
                    (true, _) => Ty::V4F32,
                    (false, 2) => Ty::V2U32,
                    (false, _) => Ty::V4U32,
                };
                let x = self.value(src)?;
                let m = self.value(mask)?;
                if self.bytes.below(2) == 0 {
                    self.ocl("shuffle", Some(result), &[Arg::Id(x), Arg::Id(m)])
                } else {
                    let y = self.value(src)?;
                    self.ocl(
                        "shuffle2",
                        Some(result),
                        &[Arg::Id(x), Arg::Id(y), Arg::Id(m)],
                    )
                }
            }
        }
    }

    /// fract, modf, sincos (a pointer to the float type), frexp, lgamma_r (a pointer to int),
    /// remquo (x, y, a pointer to int): the pointer is any writable one.
    fn ocl_pointer_out(&mut self) -> Option<()> {
        let t = self.float_ty();
        let k = self.bytes.below(6);
        let elem = if k < 3 { t } else { t.int32_like() };
        let Some(p) = self.writable(None, elem)? else {
            return Some(());
        };
        let x = self.value(t)?;
        match k {
            0..=2 => {
                let name = ["fract", "modf", "sincos"][k];
                self.ocl(name, Some(t), &[Arg::Id(x), Arg::Id(p.id)])
            }
            3 | 4 => {
                let name = ["frexp", "lgamma_r"][k - 3];
                self.ocl(name, Some(t), &[Arg::Id(x), Arg::Id(p.id)])
            }
            _ => {
                let y = self.value(t)?;
                self.ocl("remquo", Some(t), &[Arg::Id(x), Arg::Id(y), Arg::Id(p.id)])
            }
        }
    }

    /// An offset for the vector loads and stores: small, or any `size_t` in scope.
    fn vector_offset(&mut self) -> Option<u32> {
        let st = self.size_t();
        let v = self.value(st)?;
        if self.bytes.below(3) == 0 {
            return Some(v);
        }
        let mask = self.int_const(st, 7)?;
        self.op(Op::BitwiseAnd, st, &[Arg::Id(v), Arg::Id(mask)])
    }

    /// vloadn, vstoren, vload_half, vload_halfn, vloada_halfn, vstore_half(n)(_r),
    /// vstorea_halfn(_r).
    fn vector_memory(&mut self) -> Option<()> {
        let offset = self.vector_offset()?;
        let (v, c) = self.bytes.pick(&[
            (Ty::V2U32, Ty::U32),
            (Ty::V4U32, Ty::U32),
            (Ty::V2F32, Ty::F32),
            (Ty::V4F32, Ty::F32),
        ]);
        let n = Arg::Int(v.count());
        let mode = || Arg::name(["RTE", "RTZ", "RTP", "RTN"][offset as usize % 4]);
        match self.bytes.below(6) {
            0 => {
                let Some(p) = self.readable(c)? else {
                    return Some(());
                };
                self.ocl("vloadn", Some(v), &[Arg::Id(offset), Arg::Id(p.id), n])
            }
            1 => {
                let Some(p) = self.writable(None, c)? else {
                    return Some(());
                };
                let data = self.value(v)?;
                self.ocl(
                    "vstoren",
                    None,
                    &[Arg::Id(data), Arg::Id(offset), Arg::Id(p.id)],
                )
            }
            2 => {
                let Some(p) = self.readable(Ty::F16)? else {
                    return Some(());
                };
                if self.bytes.below(2) == 0 {
                    self.ocl(
                        "vload_half",
                        Some(Ty::F32),
                        &[Arg::Id(offset), Arg::Id(p.id)],
                    )
                } else {
                    let f = self.bytes.pick(&[Ty::V2F32, Ty::V4F32]);
                    let name = self.bytes.pick(&["vload_halfn", "vloada_halfn"]);
                    let n = Arg::Int(f.count());
                    self.ocl(name, Some(f), &[Arg::Id(offset), Arg::Id(p.id), n])
                }
            }
            3 | 4 => {
                let Some(p) = self.writable(None, Ty::F16)? else {
                    return Some(());
                };
                let t = self.bytes.pick(&[Ty::F32, Ty::F64]);
                let data = self.value(t)?;
                let mut args = vec![Arg::Id(data), Arg::Id(offset), Arg::Id(p.id)];
                let name = if self.bytes.below(2) == 0 {
                    "vstore_half"
                } else {
                    args.push(mode());
                    "vstore_half_r"
                };
                self.ocl(name, None, &args)
            }
            _ => {
                let Some(p) = self.writable(None, Ty::F16)? else {
                    return Some(());
                };
                let f = self.bytes.pick(&[Ty::V2F32, Ty::V4F32]);
                let data = self.value(f)?;
                let mut args = vec![Arg::Id(data), Arg::Id(offset), Arg::Id(p.id)];
                let name = match self.bytes.below(4) {
                    0 => "vstore_halfn",
                    1 => "vstorea_halfn",
                    2 => {
                        args.push(mode());
                        "vstore_halfn_r"
                    }
                    _ => {
                        args.push(mode());
                        "vstorea_halfn_r"
                    }
                };
                self.ocl(name, None, &args)
            }
        }
    }

    /// An element index for a pointer walk and a bound on its magnitude in elements
    /// (`u64::MAX`: none).
    fn index(&mut self) -> Option<(u32, u64)> {
        let st = self.size_t();
        let masked = |g: &mut Self, t: Ty, m: u64| -> Option<(u32, u64)> {
            let v = g.value(t)?;
            let mask = g.int_const(t, m)?;
            let r = g.op(Op::BitwiseAnd, t, &[Arg::Id(v), Arg::Id(mask)])?;
            Some((r, m))
        };
        match self.bytes.below(9) {
            0 | 1 => masked(self, st, 15),
            2 => {
                let k = self.bytes.below(17) as i64 - 8;
                Some((self.int_const(st, k as u64)?, 8))
            }
            3 => masked(self, st, (1 << 20) - 1),
            4 => masked(self, Ty::U32, 7),
            5 => {
                let t = self.bytes.pick(&INTS);
                Some((self.value(t)?, u64::MAX))
            }
            6 => {
                const HUGE: [u64; 8] = [
                    1 << 45,
                    (1u64 << 45).wrapping_neg(),
                    1 << 47,
                    (1u64 << 47).wrapping_neg(),
                    1 << 62,
                    1 << 63,
                    0xffff_ffff,
                    1 << 31,
                ];
                let k = self.bytes.pick(&HUGE);
                Some((self.int_const(st, k)?, u64::MAX))
            }
            _ => Some((self.value(st)?, u64::MAX)),
        }
    }

    /// OpPtrAccessChain or OpInBoundsPtrAccessChain of any pointer by an index.
    fn walk(&mut self) -> Option<()> {
        let Some(p) = self.pick(|_| true) else {
            return Some(());
        };
        let (i, bound) = self.index()?;
        let name = self
            .bytes
            .pick(&[Op::PtrAccessChain, Op::InBoundsPtrAccessChain]);
        let reach = p.reach.saturating_add(bound.saturating_mul(p.elem.size()));
        self.ptr_op(name, Ptr { reach, ..p }, &[Arg::Id(p.id), Arg::Id(i)])
            .map(drop)
    }

    /// A delta to add to an address and a bound on its magnitude (see the module comment).
    fn delta(&mut self) -> Option<(u32, u64)> {
        let st = self.size_t();
        let max = if self.physical32 {
            FORGE_DELTA_32
        } else {
            FORGE_DELTA_64
        };
        if self.bytes.below(2) == 0 {
            const DELTAS: [i64; 19] = [
                0,
                1,
                3,
                4,
                -4,
                8,
                -8,
                16,
                -64,
                4096,
                -4096,
                1 << 20,
                -(1 << 20),
                1 << 24,
                -(1 << 24),
                1 << 48,
                -(1 << 48),
                1 << 56,
                -(1 << 58),
            ];
            let d = self.bytes.pick(&DELTAS);
            let d = if d.unsigned_abs() > max {
                d.signum()
            } else {
                d
            };
            Some((self.int_const(st, d as u64)?, d.unsigned_abs()))
        } else {
            let m = self.bytes.pick(&[0xff, 0xffff, max - 1]);
            let v = self.value(st)?;
            let mask = self.int_const(st, m)?;
            let r = self.op(Op::BitwiseAnd, st, &[Arg::Id(v), Arg::Id(mask)])?;
            Some((r, m))
        }
    }

    /// A forged pointer: a pointer's address (OpConvertPtrToU or OpBitcast), plus or minus a
    /// bounded delta, maybe rounded down to an alignment, back to a pointer (OpConvertUToPtr
    /// or OpBitcast) of the same or another pointee and storage class.
    fn forge(&mut self) -> Option<()> {
        let p64 = !self.physical32;
        let Some(p) = self.pick(|p| p64 || p.reach < FORGE_REACH_32) else {
            return Some(());
        };
        let st = self.size_t();
        let name = self
            .bytes
            .pick(&[Op::ConvertPtrToU, Op::ConvertPtrToU, Op::Bitcast]);
        let address = self.op(name, st, &[Arg::Id(p.id)])?;
        let (delta, mut bound) = self.delta()?;
        let name = self.bytes.pick(&[Op::IAdd, Op::ISub]);
        let mut sum = self.op(name, st, &[Arg::Id(address), Arg::Id(delta)])?;
        if self.bytes.below(4) == 0 {
            let align = self.bytes.pick(&[2u64, 4, 8, 16]);
            let mask = self.int_const(st, !(align - 1))?;
            sum = self.op(Op::BitwiseAnd, st, &[Arg::Id(sum), Arg::Id(mask)])?;
            bound += align;
        }
        let space = match self.bytes.below(4) {
            0 => Space::Cross,
            1 if p.space != Space::Constant => Space::Generic,
            _ => p.space,
        };
        let elem = if self.bytes.below(2) == 0 {
            p.elem
        } else {
            self.bytes.pick(&MEM_TYS)
        };
        let name = self
            .bytes
            .pick(&[Op::ConvertUToPtr, Op::ConvertUToPtr, Op::Bitcast]);
        let forged = Ptr {
            space,
            elem,
            reach: p.reach.saturating_add(bound),
            ..p
        };
        self.ptr_op(name, forged, &[Arg::Id(sum)]).map(drop)
    }

    /// Generic pointers: casts to and from Generic, OpGenericPtrMemSemantics.
    fn generic(&mut self) -> Option<()> {
        const SPACES: [Space; 3] = [Space::Cross, Space::Local, Space::Func];
        let to = self.bytes.pick(&SPACES);
        match self.bytes.below(4) {
            0 => {
                let Some(p) = self.pick(|p| SPACES.contains(&p.space)) else {
                    return Some(());
                };
                let g = Ptr {
                    space: Space::Generic,
                    ..p
                };
                self.ptr_op(Op::PtrCastToGeneric, g, &[Arg::Id(p.id)])
                    .map(drop)
            }
            1 | 2 => {
                let Some(p) = self.pick(|p| p.space == Space::Generic) else {
                    return Some(());
                };
                let r = Ptr { space: to, ..p };
                if self.bytes.below(2) == 0 {
                    self.ptr_op(Op::GenericCastToPtr, r, &[Arg::Id(p.id)])
                } else {
                    let class = Arg::name(to.name());
                    self.ptr_op(Op::GenericCastToPtrExplicit, r, &[Arg::Id(p.id), class])
                }
                .map(drop)
            }
            _ => {
                let Some(p) = self.pick(|p| p.space == Space::Generic) else {
                    return Some(());
                };
                self.op(Op::GenericPtrMemSemantics, Ty::U32, &[Arg::Id(p.id)])
                    .map(drop)
            }
        }
    }

    /// Memory operands for an access of `elem`: none, Volatile, Nontemporal, Aligned (the
    /// natural alignment, less, or more).
    fn memory_operands(&mut self, elem: Ty) -> Vec<Arg> {
        let align = self.bytes.pick(&[elem.size(), elem.size(), 1, 2, 4, 8, 16]) as u32;
        match self.bytes.below(8) {
            0..=2 => Vec::new(),
            3 | 4 => vec![Arg::name("Aligned"), Arg::Int(align)],
            5 => vec![Arg::name("Volatile")],
            6 => vec![Arg::name("Nontemporal")],
            _ => vec![Arg::name("Volatile|Aligned"), Arg::Int(align)],
        }
    }

    fn load(&mut self) -> Option<()> {
        let Some(p) = self.pick(|_| true) else {
            return Some(());
        };
        let mut args = vec![Arg::Id(p.id)];
        args.extend(self.memory_operands(p.elem));
        self.op(Op::Load, p.elem, &args).map(drop)
    }

    fn store(&mut self) -> Option<()> {
        let Some(p) = self.pick(Ptr::writable) else {
            return Some(());
        };
        let v = self.value(p.elem)?;
        let mut args = vec![Arg::Id(p.id), Arg::Id(v)];
        args.extend(self.memory_operands(p.elem));
        self.b.inst(Op::Store, None, &args).ok()?;
        Some(())
    }

    /// OpCopyMemory between pointers to the same type, or OpCopyMemorySized of a small,
    /// masked (maybe 0) or any size.
    fn copy(&mut self) -> Option<()> {
        let Some(to) = self.pick(Ptr::writable) else {
            return Some(());
        };
        if self.bytes.below(2) == 0 {
            let Some(from) = self.readable(to.elem)? else {
                return Some(());
            };
            let mut args = vec![Arg::Id(to.id), Arg::Id(from.id)];
            args.extend(self.memory_operands(to.elem));
            self.b.inst(Op::CopyMemory, None, &args).ok()?;
            return Some(());
        }
        let Some(from) = self.pick(|_| true) else {
            return Some(());
        };
        let st = self.size_t();
        let size = match self.bytes.below(3) {
            0 => {
                // Not a constant 0, which is invalid (SPIR-V §3.52.8).
                let k = 1 + self.bytes.below(64) as u64;
                self.int_const(st, k)?
            }
            1 => {
                let v = self.value(st)?;
                let m = self.int_const(st, 0xff)?;
                self.op(Op::BitwiseAnd, st, &[Arg::Id(v), Arg::Id(m)])?
            }
            _ => {
                // Any value, through OpCopyObject: a constant one may be 0.
                let t = self.bytes.pick(&[Ty::U32, Ty::U64]);
                let v = self.value(t)?;
                self.op(Op::CopyObject, t, &[Arg::Id(v)])?
            }
        };
        self.b
            .inst(
                Op::CopyMemorySized,
                None,
                &[Arg::Id(to.id), Arg::Id(from.id), Arg::Id(size)],
            )
            .ok()?;
        Some(())
    }

    /// A 32- or 64-bit atomic at a writable Global, Local or Generic pointer (OpAtomicLoad:
    /// any such pointer).
    fn atomic(&mut self) -> Option<()> {
        const RMW: [Op; 11] = [
            Op::AtomicIAdd,
            Op::AtomicISub,
            Op::AtomicExchange,
            Op::AtomicUMin,
            Op::AtomicUMax,
            Op::AtomicSMin,
            Op::AtomicSMax,
            Op::AtomicAnd,
            Op::AtomicOr,
            Op::AtomicXor,
            Op::AtomicCompareExchange,
        ];
        let t = if self.bytes.below(3) == 0 {
            self.b.capability("Int64Atomics").ok()?;
            Ty::U64
        } else {
            Ty::U32
        };
        let space = self
            .bytes
            .pick(&[Space::Cross, Space::Cross, Space::Local, Space::Generic]);
        let Some(p) = self.writable(Some(space), t)? else {
            return Some(());
        };
        let scope = self.bytes.pick(&[1, 2, 3, 4, 0]);
        let scope = self.int_const(Ty::U32, scope)?;
        let k = self.bytes.below(RMW.len() + 4);
        let relaxed = self.int_const(Ty::U32, 0)?;
        let sem = |g: &mut Self, bits: &[u64]| -> Option<u32> {
            let v = g.bytes.pick(bits);
            g.int_const(Ty::U32, v)
        };
        match k {
            _ if k < RMW.len() => {
                let s = sem(self, &[0, 0x210, 0x108])?;
                let v = self.value(t)?;
                let mut args = vec![Arg::Id(p.id), Arg::Id(scope), Arg::Id(s)];
                if RMW[k] == Op::AtomicCompareExchange {
                    let c = self.value(t)?;
                    args.extend([Arg::Id(relaxed), Arg::Id(v), Arg::Id(c)]);
                } else {
                    args.push(Arg::Id(v));
                }
                self.op(RMW[k], t, &args).map(drop)
            }
            11 | 12 => {
                let s = sem(self, &[0, 0x210, 0x108])?;
                let name = [Op::AtomicIIncrement, Op::AtomicIDecrement][k - 11];
                self.op(name, t, &[Arg::Id(p.id), Arg::Id(scope), Arg::Id(s)])
                    .map(drop)
            }
            13 => {
                let s = sem(self, &[0, 0x202])?;
                self.op(
                    Op::AtomicLoad,
                    t,
                    &[Arg::Id(p.id), Arg::Id(scope), Arg::Id(s)],
                )
                .map(drop)
            }
            _ => {
                let s = sem(self, &[0, 0x204])?;
                let v = self.value(t)?;
                self.b
                    .inst(
                        Op::AtomicStore,
                        None,
                        &[Arg::Id(p.id), Arg::Id(scope), Arg::Id(s), Arg::Id(v)],
                    )
                    .ok()?;
                Some(())
            }
        }
    }

    /// OpControlBarrier (workgroup scope; deadlocks in divergent code are a documented
    /// error) or OpMemoryBarrier.
    fn barrier(&mut self) -> Option<()> {
        let wg = self.int_const(Ty::U32, 2)?;
        let sem = self.bytes.pick(&[0x110, 0x210, 0x310, 0x10]);
        let sem = self.int_const(Ty::U32, sem)?;
        if self.bytes.below(4) == 0 {
            let scope = self.bytes.pick(&[1, 2]);
            let scope = self.int_const(Ty::U32, scope)?;
            self.b
                .inst(Op::MemoryBarrier, None, &[Arg::Id(scope), Arg::Id(sem)])
                .ok()?;
        } else {
            self.b
                .inst(
                    Op::ControlBarrier,
                    None,
                    &[Arg::Id(wg), Arg::Id(wg), Arg::Id(sem)],
                )
                .ok()?;
        }
        Some(())
    }

    /// Two pointers of one type: OpPtrEqual, OpPtrNotEqual, OpPtrDiff or OpSelect.
    fn ptr_compare(&mut self) -> Option<()> {
        let Some(p) = self.pick(|_| true) else {
            return Some(());
        };
        let q = match self.pick(|q| q.space == p.space && q.elem == p.elem) {
            Some(q) => q,
            None => p,
        };
        let (a, b) = (Arg::Id(p.id), Arg::Id(q.id));
        match self.bytes.below(4) {
            0 => self.op(Op::PtrEqual, Ty::Bool, &[a, b]).map(drop),
            1 => self.op(Op::PtrNotEqual, Ty::Bool, &[a, b]).map(drop),
            2 => {
                let t = self.bytes.pick(&[Ty::U64, Ty::U32]);
                self.op(Op::PtrDiff, t, &[a, b]).map(drop)
            }
            _ => {
                let c = self.value(Ty::Bool)?;
                let r = Ptr {
                    readonly: p.readonly || q.readonly,
                    reach: p.reach.max(q.reach),
                    ..p
                };
                self.ptr_op(Op::Select, r, &[Arg::Id(c), a, b]).map(drop)
            }
        }
    }

    /// A `__global uint*` stored in memory (mostly) and loaded back (then read-only: see the
    /// module comment): in the Function variable, in the program-scope one, or at a writable
    /// pointer retyped to point to pointers.
    fn spill(&mut self) -> Option<()> {
        let Some(v) = self.pick(|p| p.space == Space::Cross && p.elem == Ty::U32) else {
            return Some(());
        };
        let pg = self.ptr_ty(Space::Cross, Ty::U32)?;
        let at = match self.bytes.below(3) {
            1 if self.global_ptr_var != 0 => self.global_ptr_var,
            0 | 1 => self.ptr_var,
            _ => {
                let Some(p) = self.pick(Ptr::writable) else {
                    return Some(());
                };
                let ty = self.b.type_pointer(p.space.name(), pg).ok()?;
                self.b
                    .inst(Op::Bitcast, Some(ty), &[Arg::Id(p.id)])
                    .ok()??
            }
        };
        if self.bytes.below(4) != 0 {
            self.b.store(at, v.id)?;
        }
        let id = self.b.load(pg, at)?;
        self.ptrs.push(Ptr {
            id,
            readonly: true,
            reach: u64::MAX,
            ..v
        });
        Some(())
    }

    /// A pointer to an element of the Workgroup array.
    fn shared_element(&mut self) -> Option<()> {
        let (i, bound) = if self.bytes.below(4) == 0 {
            (self.value(Ty::U32)?, u64::MAX)
        } else {
            let v = self.value(Ty::U32)?;
            let m = self.int_const(Ty::U32, (SHARED_LEN - 1) as u64)?;
            let r = self.op(Op::BitwiseAnd, Ty::U32, &[Arg::Id(v), Arg::Id(m)])?;
            (r, SHARED_LEN as u64)
        };
        let name = self.bytes.pick(&[Op::AccessChain, Op::InBoundsAccessChain]);
        let p = Ptr {
            id: 0,
            space: Space::Local,
            elem: Ty::U32,
            readonly: false,
            reach: SMALL_OBJECT.saturating_add(bound.saturating_mul(4)),
        };
        self.ptr_op(name, p, &[Arg::Id(self.shared), Arg::Id(i)])
            .map(drop)
    }

    /// A call of a helper: a writable pointer of its first parameter's type, a `__global
    /// uint*` and a uint.
    fn call(&mut self) -> Option<()> {
        let h = self.bytes.pick(&self.helpers);
        let Some(p) = self.writable(Some(h.space), h.elem)? else {
            return Some(());
        };
        let Some(r) = self.pick(|q| q.space == Space::Cross && q.elem == Ty::U32) else {
            return Some(());
        };
        let x = self.value(Ty::U32)?;
        let args = [Arg::Id(h.id), Arg::Id(p.id), Arg::Id(r.id), Arg::Id(x)];
        if h.returns_ptr {
            let q = Ptr {
                readonly: false,
                reach: u64::MAX,
                ..p
            };
            self.ptr_op(Op::FunctionCall, q, &args).map(drop)
        } else {
            self.op(Op::FunctionCall, Ty::U32, &args).map(drop)
        }
    }

    /// Runs `f` with the values and pointers in scope restored afterwards.
    fn scoped(&mut self, f: impl FnOnce(&mut Self) -> Option<()>) -> Option<()> {
        let (keep, keep_ptrs) = (self.pool.len(), self.ptrs.len());
        let r = f(self);
        self.pool.truncate(keep);
        self.ptrs.truncate(keep_ptrs);
        r
    }

    /// The current function's return instruction (with a value in scope).
    fn ret(&mut self) -> Option<()> {
        match self.ret {
            Ret::Void => self.b.inst(Op::Return, None, &[]).ok()?,
            Ret::Uint => {
                let v = self.value(Ty::U32)?;
                self.b.inst(Op::ReturnValue, None, &[Arg::Id(v)]).ok()?
            }
            Ret::Ptr(space, elem) => {
                // The first pointer in scope is the helper's parameter, of this type.
                let p = self
                    .pick(|p| p.space == space && p.elem == elem && p.writable())
                    .or(self.ptrs.first().copied())?;
                self.b.inst(Op::ReturnValue, None, &[Arg::Id(p.id)]).ok()?
            }
        };
        Some(())
    }

    /// A value or pointer each arm of a selection gives its merge block's OpPhi.
    fn phi_incoming(&mut self, like: Result<Ty, Ptr>) -> Option<(u32, Option<Ptr>)> {
        match like {
            Ok(t) => Some((self.value(t)?, None)),
            Err(p) => {
                let q = self
                    .pick(|q| q.space == p.space && q.elem == p.elem)
                    .unwrap_or(p);
                Some((q.id, Some(q)))
            }
        }
    }

    /// An if (or if/else), structured (OpSelectionMerge) or not, whose arms may return; the
    /// merge block may start with an OpPhi of a value or a pointer.
    fn selection(&mut self, depth: u32) -> Option<()> {
        let structured = self.bytes.below(2) == 0;
        let c = self.value(Ty::Bool)?;
        let like = match self.pick(|_| true) {
            Some(p) if self.bytes.below(3) == 0 => Err(p),
            _ => Ok(self.bytes.pick(&MEM_TYS)),
        };
        let phi = self.bytes.below(2) == 0;
        let (then, other, merge) = (self.b.fresh_id(), self.b.fresh_id(), self.b.fresh_id());
        let if_only = self.bytes.below(3) == 0;
        let mut incoming = Vec::new();
        if if_only {
            incoming.push((self.phi_incoming(like)?, self.cur));
        }
        if structured {
            self.b.selection_merge(merge)?;
            self.loops.push(None);
        }
        let else_target = if if_only { merge } else { other };
        self.b.branch_if(c, then, else_target)?;
        let arms: &[u32] = if if_only { &[then] } else { &[then, other] };
        for &label in arms {
            self.block(label)?;
            let returns = self.bytes.below(8) == 0;
            self.scoped(|g| {
                g.statements(depth + 1)?;
                if returns {
                    g.ret()
                } else {
                    incoming.push((g.phi_incoming(like)?, g.cur));
                    g.b.branch(merge)?;
                    Some(())
                }
            })?;
        }
        if structured {
            self.loops.pop();
        }
        self.block(merge)?;
        if phi && !incoming.is_empty() {
            let args: Vec<Arg> = incoming
                .iter()
                .flat_map(|&((v, _), l)| [Arg::Id(v), Arg::Id(l)])
                .collect();
            match like {
                Ok(t) => self.op(Op::Phi, t, &args).map(drop)?,
                Err(p) => {
                    let ins = incoming.iter().filter_map(|((_, q), _)| *q);
                    let r = ins.fold(p, |r, q| Ptr {
                        readonly: r.readonly || q.readonly,
                        reach: r.reach.max(q.reach),
                        ..r
                    });
                    self.ptr_op(Op::Phi, r, &args).map(drop)?
                }
            }
        }
        Some(())
    }

    /// A switch on an integer of any width, structured or not; unstructured cases may fall
    /// through to the next one.
    fn switch(&mut self, depth: u32) -> Option<()> {
        let structured = self.bytes.below(2) == 0;
        let t = self.bytes.pick(&INTS);
        let sel = self.value(t)?;
        let (merge, default) = (self.b.fresh_id(), self.b.fresh_id());
        let mut args = vec![Arg::Id(sel), Arg::Id(default)];
        let mut labels = Vec::new();
        let mut seen = Vec::new();
        for k in 0..1 + self.bytes.below(4) as u64 {
            let lit = k * (1 + self.bytes.below(3) as u64);
            if seen.contains(&lit) {
                continue;
            }
            seen.push(lit);
            let label = self.b.fresh_id();
            labels.push(label);
            args.push(case_literal(t.bits(), lit));
            args.push(Arg::Id(label));
        }
        if structured {
            self.b.selection_merge(merge)?;
            self.loops.push(None);
        }
        self.b.inst(Op::Switch, None, &args).ok()?;
        labels.push(default);
        for (k, &label) in labels.iter().enumerate() {
            self.block(label)?;
            self.scoped(|g| g.statements(depth + 1))?;
            let next = match labels.get(k + 1) {
                Some(&n) if !structured && self.bytes.below(3) == 0 => n,
                _ => merge,
            };
            self.b.branch(next)?;
        }
        if structured {
            self.loops.pop();
        }
        self.block(merge)
    }

    /// A loop bound: small, any uint in scope (maybe huge), or none (an infinite loop).
    fn loop_bound(&mut self, counter: Ty) -> Option<Option<u32>> {
        Some(match self.bytes.below(8) {
            0 => None,
            1..=3 => {
                let k = 1 + self.bytes.below(6) as u64;
                Some(self.int_const(counter, k)?)
            }
            _ => Some(self.value(counter)?),
        })
    }

    fn lp(&mut self, depth: u32) -> Option<()> {
        if self.bytes.below(2) == 0 {
            self.structured_loop(depth)
        } else {
            self.unstructured_loop(depth)
        }
    }

    /// A counted structured loop ([`counted_loop`]) bounded by [`Gen::loop_bound`].
    fn structured_loop(&mut self, depth: u32) -> Option<()> {
        let counter = *self.counters.get(depth as usize)?;
        let bound = self.loop_bound(Ty::U32)?;
        counted_loop(self, counter, bound, |g| {
            g.loops.push(None);
            g.scoped(|g| g.statements(depth + 1))?;
            g.loops.pop();
            Some(())
        })
    }

    /// A loop without merge instructions: an OpPhi counter (and maybe a pointer induction
    /// variable walked by a stride each iteration) at the header, a test at the header
    /// (while) or at the latch (do-while); the body may `break` or `continue`.
    fn unstructured_loop(&mut self, depth: u32) -> Option<()> {
        let t = self.bytes.pick(&[Ty::U32, self.size_t()]);
        let bound = self.loop_bound(t)?;
        let induction = match self.pick(|_| true) {
            Some(p) if self.bytes.below(2) == 0 => Some(p),
            _ => None,
        };
        let boolt = self.ty(Ty::Bool)?;
        let zero = self.int_const(t, 0)?;
        let (header, body, latch, exit) = (
            self.b.fresh_id(),
            self.b.fresh_id(),
            self.b.fresh_id(),
            self.b.fresh_id(),
        );
        let pre = self.cur;
        self.b.branch(header)?;
        self.block(header)?;
        let (keep, keep_ptrs) = (self.pool.len(), self.ptrs.len());
        let next_i = self.b.fresh_id();
        let i = self.op(
            Op::Phi,
            t,
            &[Arg::Id(zero), Arg::Id(pre), Arg::Id(next_i), Arg::Id(latch)],
        )?;
        let mut walker = None;
        if let Some(p) = induction {
            let next_q = self.b.fresh_id();
            let q = Ptr {
                reach: u64::MAX,
                ..p
            };
            let q = self.ptr_op(
                Op::Phi,
                q,
                &[Arg::Id(p.id), Arg::Id(pre), Arg::Id(next_q), Arg::Id(latch)],
            )?;
            walker = Some((q, next_q));
        }
        let test_first = self.bytes.below(2) == 0;
        match bound {
            Some(n) if test_first => {
                let go = self
                    .b
                    .inst(Op::ULessThan, Some(boolt), &[Arg::Id(i), Arg::Id(n)])
                    .ok()??;
                self.b.branch_if(go, body, exit)?;
            }
            _ => {
                self.b.branch(body)?;
            }
        }
        self.block(body)?;
        self.loops.push(Some((latch, exit)));
        self.scoped(|g| g.statements(depth + 1))?;
        self.loops.pop();
        self.b.branch(latch)?;
        self.block(latch)?;
        let step = if self.bytes.below(4) == 0 {
            self.value(t)?
        } else {
            self.int_const(t, 1)?
        };
        let i1 = self.op(Op::IAdd, t, &[Arg::Id(i), Arg::Id(step)])?;
        self.forwards.push(Forward {
            placeholder: next_i,
            value: i1,
        });
        if let Some((q, next_q)) = walker {
            let (stride, _) = self.index()?;
            let q1 = self.ptr_op(Op::PtrAccessChain, q, &[Arg::Id(q.id), Arg::Id(stride)])?;
            self.forwards.push(Forward {
                placeholder: next_q,
                value: q1.id,
            });
        }
        let go = match bound {
            Some(n) if !test_first => self
                .b
                .inst(Op::ULessThan, Some(boolt), &[Arg::Id(i1), Arg::Id(n)])
                .ok()??,
            _ => self.b.constant_bool(true).ok()?,
        };
        self.b.branch_if(go, header, exit)?;
        self.pool.truncate(keep);
        self.ptrs.truncate(keep_ptrs);
        self.block(exit)
    }

    /// In an unstructured loop's body: a conditional `break` or `continue`; elsewhere a
    /// conditional early return.
    fn jump(&mut self) -> Option<()> {
        let c = self.value(Ty::Bool)?;
        let next = self.b.fresh_id();
        match self.loops.last() {
            Some(Some((latch, exit))) => {
                let to = if self.bytes.below(2) == 0 {
                    *exit
                } else {
                    *latch
                };
                self.b.branch_if(c, to, next)?;
            }
            Some(None) => return Some(()),
            None => {
                let out = self.b.fresh_id();
                self.b.branch_if(c, out, next)?;
                self.block(out)?;
                self.ret()?;
            }
        }
        self.block(next)
    }

    /// A helper function `hN(P T *p, __global uint *r, uint x)` returning a uint or a
    /// `P T*`: P is Global, Local, Function or Generic; it may call the earlier helpers.
    fn helper(&mut self, consts: &[(u32, Ty)]) -> Option<()> {
        let space = self
            .bytes
            .pick(&[Space::Cross, Space::Local, Space::Func, Space::Generic]);
        let elem = self.bytes.pick(&[Ty::U32, Ty::F32, Ty::U64]);
        let returns_ptr = self.bytes.below(3) == 0;
        let pw = self.ptr_ty(space, elem)?;
        let pr = self.ptr_ty(Space::Cross, Ty::U32)?;
        let u32t = self.ty(Ty::U32)?;
        let ret = if returns_ptr { pw } else { u32t };
        let fty = self.b.type_function(ret, &[pw, pr, u32t]).ok()?;
        let control = self.bytes.pick(&["None", "Inline", "DontInline"]);
        let f = self.b.begin_function(ret, control, fty).ok()?;
        let p = self.b.function_parameter(pw).ok()?;
        let r = self.b.function_parameter(pr).ok()?;
        let x = self.b.function_parameter(u32t).ok()?;
        self.pool = consts.to_vec();
        self.pool.push((x, Ty::U32));
        // The first pointer in scope is the writable parameter (see `ret`).
        self.ptrs = vec![
            Ptr {
                id: p,
                space,
                elem,
                readonly: false,
                reach: u64::MAX,
            },
            Ptr {
                id: r,
                space: Space::Cross,
                elem: Ty::U32,
                readonly: true,
                reach: u64::MAX,
            },
        ];
        self.ptrs.extend(self.module_ptrs.clone());
        self.ret = if returns_ptr {
            Ret::Ptr(space, elem)
        } else {
            Ret::Uint
        };
        self.cur = self.b.begin_block().ok()?;
        self.variables()?;
        self.budget = Budget(20);
        self.statements(0)?;
        self.ret()?;
        self.b.end_function().ok()?;
        self.helpers.push(Helper {
            id: f,
            space,
            elem,
            returns_ptr,
        });
        Some(())
    }
}

/// Program-scope data and printf.
impl Gen<'_> {
    /// The program-scope `__global` variables: a uint, a float4 (with or without an
    /// initialiser) and a `__global uint*` initialised to the uint's address; returns them
    /// (for the interface).
    fn program_scope(&mut self) -> Option<Vec<u32>> {
        let mut out = Vec::new();
        if self.bytes.below(2) == 0 {
            return Some(out);
        }
        for t in [Ty::U32, Ty::V4F32] {
            let p = self.ptr_ty(Space::Cross, t)?;
            let init = match self.bytes.below(3) {
                0 => None,
                _ => Some(self.constant(t)?),
            };
            let v = self.b.global_variable(p, "CrossWorkgroup", init).ok()?;
            self.module_ptrs.push(Ptr {
                id: v,
                space: Space::Cross,
                elem: t,
                readonly: false,
                reach: SMALL_OBJECT,
            });
            out.push(v);
        }
        let pg = self.ptr_ty(Space::Cross, Ty::U32)?;
        let ppg = self.b.type_pointer("CrossWorkgroup", pg).ok()?;
        let first = self.module_ptrs.first()?.id;
        self.global_ptr_var = self
            .b
            .global_variable(ppg, "CrossWorkgroup", Some(first))
            .ok()?;
        out.push(self.global_ptr_var);
        Some(out)
    }

    /// A `__constant char[]` holding `text` and a NUL; returns a `__constant uchar*` to it,
    /// made in the current block.
    fn c_string(&mut self, text: &str) -> Option<u32> {
        let u8t = self.ty(Ty::U8)?;
        let chars: Vec<u32> = text
            .bytes()
            .chain([0])
            .map(|c| self.int_const(Ty::U8, c as u64))
            .collect::<Option<_>>()?;
        let len = self.b.constant_u32(chars.len() as u32).ok()?;
        let arr = self.b.type_array(u8t, len).ok()?;
        let init = self.b.constant_composite(arr, &chars).ok()?;
        let parr = self.b.type_pointer("UniformConstant", arr).ok()?;
        let v = self
            .b
            .global_variable(parr, "UniformConstant", Some(init))
            .ok()?;
        self.late_interface.push(v);
        let p = self.ptr_ty(Space::Constant, Ty::U8)?;
        let r = self.b.inst(Op::Bitcast, Some(p), &[Arg::Id(v)]).ok()??;
        self.ptrs.push(Ptr {
            id: r,
            space: Space::Constant,
            elem: Ty::U8,
            readonly: false,
            reach: SMALL_OBJECT,
        });
        Some(r)
    }

    /// OpenCL.std printf with a constant format and arguments of its conversions' types
    /// (`None`: a `%s` string).
    fn printf(&mut self) -> Option<()> {
        const FORMATS: [(&str, &[Option<Ty>]); 11] = [
            (
                "x=%d y=%u z=%x\n",
                &[Some(Ty::U32), Some(Ty::U32), Some(Ty::U32)],
            ),
            (
                "%ld %lu %lx\n",
                &[Some(Ty::U64), Some(Ty::U64), Some(Ty::U64)],
            ),
            ("%f %e\n", &[Some(Ty::F64), Some(Ty::F64)]),
            ("%g|%a\n", &[Some(Ty::F32), Some(Ty::F32)]),
            ("%v4hlf\n", &[Some(Ty::V4F32)]),
            ("%v2hlu %v2hlx\n", &[Some(Ty::V2U32), Some(Ty::V2U32)]),
            ("%hhu %hu\n", &[Some(Ty::U8), Some(Ty::U16)]),
            (
                "%c|%5d|%-5u|%05x\n",
                &[Some(Ty::U32), Some(Ty::U32), Some(Ty::U32), Some(Ty::U32)],
            ),
            ("%s=%d\n", &[None, Some(Ty::U32)]),
            ("100%% done\n", &[]),
            (
                "%.3f %10.2e %-8.1g\n",
                &[Some(Ty::F64), Some(Ty::F64), Some(Ty::F64)],
            ),
        ];
        let (format, args) = self.bytes.pick(&FORMATS);
        let f = self.c_string(format)?;
        let mut operands = vec![Arg::Id(f)];
        for a in args {
            operands.push(Arg::Id(match a {
                Some(t) => self.value(*t)?,
                None => self.c_string("name")?,
            }));
        }
        self.ocl("printf", Some(Ty::U32), &operands)
    }
}
