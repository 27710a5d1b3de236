//! A generator of structurally valid, semantically random SPIR-V compute modules, driven by the
//! fuzzer's bytes and built with spvx-spirv's `module::Builder` (with what the three generators
//! share, in `gen_core.rs`).
//!
//! Every module has one GLCompute entry point `main` (LocalSize from the bytes), the built-in
//! GlobalInvocationId, two storage buffers of `uint[]` (set 0, binding 0 read and written;
//! binding 1 only ever read), up to two helper functions it calls, and a body of random
//! statements: scalar, vector and conversion arithmetic over 8/16/32/64-bit types, GLSL.std.450
//! calls, buffer loads and stores and atomics at random (often out-of-bounds) indices, array
//! length, barriers, subgroup reductions, scans, votes, ballots, shuffles, clustered and quad
//! operations, integer dot products (packed and vector, plain and AccSat), the fixed-point
//! functions and the VALVE dot products on fp16, bf16 and fp8 (capabilities declared where used), and structured
//! selections, switches and loops (whose trip counts may be huge or infinite). In the default mode the module is meant to be valid
//! (the engine target runs these); with `chaos` set, operands are drawn from every id of the
//! module regardless of type, which gives modules that are well formed but mostly invalid (the
//! validator target's second diet).
//!
//! [`Mode::RaceFree`] (the engine target's differential between the interpreter and the JIT)
//! generates modules whose result cannot depend on how invocations of a subgroup interleave:
//! no atomics (subgroup instructions, in the entry function, depend only on which lanes are
//! active, which the JIT must reproduce); every store to binding 0, and every load from it, at an
//! element the invocation owns (`GlobalInvocationId.x × 4 + (v & 3)`, or far out of bounds);
//! a Workgroup array `uint[32]` accessed at the invocation's own elements
//! (`LocalInvocationIndex × 4 + (v & 3)`) except in an *exchange* (store own element, barrier,
//! load any element, barrier), which reads other invocations' elements only between two
//! barriers. It adds what the JIT handles differently from the interpreter: Function variables
//! (register-promoted) stored and loaded anywhere, OpPhi at the merge of every selection,
//! short arms of pure arithmetic (which the JIT turns into selects), arms ending in
//! OpUnreachable, DebugPrintf, and barriers and exchanges anywhere in the entry function
//! (in loops, in divergent branches: the engines must agree on those too).

use crate::gen_core::{
    Budget, Bytes, Emit, FLOAT_BINARY_OPS, Generator, INT_BINARY_OPS, case_literal, counted_loop,
    int_words,
};
use spvx_spirv::grammar::Version;
use spvx_spirv::module::{Arg, Builder, Module};
use spvx_spirv::op::Op;

/// The value types the generator computes with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ty {
    U32,
    I32,
    U64,
    U16,
    F32,
    F64,
    F16,
    Bool,
    V4F32,
    V2U32,
}

const INTS: [Ty; 4] = [Ty::U32, Ty::I32, Ty::U64, Ty::U16];
const FLOATS: [Ty; 3] = [Ty::F32, Ty::F64, Ty::F16];
const ALL_TYS: [Ty; 10] = [
    Ty::U32,
    Ty::I32,
    Ty::U64,
    Ty::U16,
    Ty::F32,
    Ty::F64,
    Ty::F16,
    Ty::Bool,
    Ty::V4F32,
    Ty::V2U32,
];

/// The low `bits` bits set.
fn low(bits: u32) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1 << bits) - 1
    }
}

fn width(t: Ty) -> u32 {
    match t {
        Ty::U32 | Ty::I32 | Ty::F32 | Ty::Bool => 32,
        Ty::U64 | Ty::F64 | Ty::V2U32 => 64,
        Ty::U16 | Ty::F16 => 16,
        Ty::V4F32 => 128,
    }
}

/// What the generated module's interface is, for the engine check.
#[derive(Clone, Copy, Debug)]
pub struct Shape {
    /// LocalSize x (y = z = 1).
    pub local_x: u32,
}

/// What kind of module to generate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Typed operands: meant to be valid.
    Typed,
    /// Operands of any type: mostly invalid.
    Chaos,
    /// Typed, and race-free between the invocations of a subgroup (see the module comment).
    RaceFree,
}

/// Elements of binding 0 and of the Workgroup array each invocation owns.
pub const OWNED: u32 = 4;
/// Elements of the Workgroup array (`OWNED` × the largest LocalSize x).
pub const SHARED_LEN: u32 = 32;
/// Elements of the Private array.
const PRIVATE_LEN: u32 = 4;

struct Gen<'a> {
    b: Builder,
    bytes: Bytes<'a>,
    chaos: bool,
    types: Vec<(Ty, u32)>,
    /// Values in scope: (id, type). Truncated when a construct ends.
    pool: Vec<(u32, Ty)>,
    /// Every id the module declared (chaos operands come from here).
    all_ids: Vec<u32>,
    budget: Budget,
    glsl: u32,
    buf0: u32,
    buf1: u32,
    ptr_sb_u32: u32,
    ptr_fn_u32: u32,
    counters: Vec<u32>,
    helpers: Vec<(u32, usize)>,
    u32_consts: Vec<u32>,
    scope_device: u32,
    scope_workgroup: u32,
    scope_subgroup: u32,
    sem_none: u32,
    sem_barrier: u32,
    in_helper: bool,
    /// `uvec4`, the type of a subgroup ballot.
    v4u: u32,
    /// The label of the block being generated.
    cur: u32,
    /// Race-free mode (the rest of the fields are used only there).
    race_free: bool,
    gid: u32,
    lidx: u32,
    /// The Workgroup array `uint[SHARED_LEN]` and a pointer type to its elements.
    shared: u32,
    ptr_wg_u32: u32,
    /// The current function's first owned element of binding 0 and of the Workgroup array.
    own_buf: u32,
    own_shared: u32,
    /// Function variables of the current function: (variable, type).
    locals: Vec<(u32, Ty)>,
    /// Function pointer types of the local variables' types.
    local_ptrs: Vec<(Ty, u32)>,
    /// NonSemantic.DebugPrintf and `void`.
    printf: u32,
    void: u32,
    /// Private variables: scalar and vector ones with their types, the `uint[PRIVATE_LEN]`
    /// array and a pointer type to its elements.
    privates: Vec<(u32, Ty)>,
    private_arr: u32,
    ptr_priv_u32: u32,
    /// Per helper (race-free mode): its result type and whether its first parameter is a
    /// pointer to a Function `uint` (the caller's variable then lives in memory).
    helper_sigs: Vec<(Ty, bool)>,
}

/// Builds a module from `data`; `None` when the builder refuses something (only possible in
/// chaos mode, or for a generator bug, which the targets then simply skip).
pub fn generate(data: &[u8], chaos: bool) -> Option<(Module, Shape)> {
    generate_mode(data, if chaos { Mode::Chaos } else { Mode::Typed })
}

/// Builds a module of the given [`Mode`] from `data` (`Typed` and `Chaos` as [`generate`]).
pub fn generate_mode(data: &[u8], mode: Mode) -> Option<(Module, Shape)> {
    let chaos = mode == Mode::Chaos;
    let race_free = mode == Mode::RaceFree;
    let mut bytes = Bytes(data);
    let local_x = 1 + bytes.below(8) as u32;
    let mut b = Builder::new(Version::new(1, 6));
    for cap in [
        "Shader",
        "Int64",
        "Int16",
        "Float16",
        "Float64",
        "GroupNonUniform",
        "GroupNonUniformArithmetic",
        "GroupNonUniformBallot",
        "GroupNonUniformVote",
        "GroupNonUniformShuffle",
        "GroupNonUniformShuffleRelative",
        "GroupNonUniformClustered",
        "GroupNonUniformQuad",
        "GroupNonUniformRotateKHR",
        "DotProduct",
        "DotProductInputAll",
        "DotProductInput4x8BitPacked",
    ] {
        b.capability(cap).ok()?;
    }
    b.extension("SPV_KHR_subgroup_rotate").ok()?;
    if race_free {
        b.extension("SPV_KHR_non_semantic_info").ok()?;
    }
    b.memory_model("Logical", "GLSL450").ok()?;
    let glsl = b.ext_inst_import("GLSL.std.450").ok()?;
    let printf = if race_free {
        b.ext_inst_import("NonSemantic.DebugPrintf").ok()?
    } else {
        0
    };
    let mut types = Vec::new();
    let u32t = b.type_int(32, false).ok()?;
    types.push((Ty::U32, u32t));
    types.push((Ty::I32, b.type_int(32, true).ok()?));
    types.push((Ty::U64, b.type_int(64, false).ok()?));
    types.push((Ty::U16, b.type_int(16, false).ok()?));
    let f32t = b.type_float(32, None).ok()?;
    types.push((Ty::F32, f32t));
    types.push((Ty::F64, b.type_float(64, None).ok()?));
    types.push((Ty::F16, b.type_float(16, None).ok()?));
    types.push((Ty::Bool, b.type_bool().ok()?));
    types.push((Ty::V4F32, b.type_vector(f32t, 4).ok()?));
    types.push((Ty::V2U32, b.type_vector(u32t, 2).ok()?));
    let v3u = b.type_vector(u32t, 3).ok()?;
    let v4u = b.type_vector(u32t, 4).ok()?;
    let ptr_in_v3 = b.type_pointer("Input", v3u).ok()?;
    let gid = b.builtin_input(ptr_in_v3, "GlobalInvocationId")?;
    let ptr_sb_block = b.storage_block(u32t, 4)?;
    let ptr_sb_u32 = b.type_pointer("StorageBuffer", u32t).ok()?;
    let ptr_fn_u32 = b.type_pointer("Function", u32t).ok()?;
    let buf0 = b.storage_buffer(ptr_sb_block, 0)?;
    let buf1 = b.storage_buffer(ptr_sb_block, 1)?;
    let mut u32_consts = Vec::new();
    for v in [0u32, 1, 2, 3, 4, 7, 31, 32, 255, 0xffff_ffff, 0x8000_0000] {
        u32_consts.push(b.constant_u32(v).ok()?);
    }
    let scope_device = b.constant_u32(1).ok()?;
    let scope_workgroup = b.constant_u32(2).ok()?;
    let scope_subgroup = b.constant_u32(3).ok()?;
    let sem_none = u32_consts[0];
    // AcquireRelease | WorkgroupMemory
    let sem_barrier = b.constant_u32(0x8 | 0x100).ok()?;
    // Race-free mode: LocalInvocationIndex, the Workgroup array, local variable types.
    let (mut lidx, mut shared, mut ptr_wg_u32) = (0, 0, 0);
    let mut local_ptrs = Vec::new();
    let (mut privates, mut private_arr, mut ptr_priv_u32) = (Vec::new(), 0, 0);
    if race_free {
        let ptr_in_u32 = b.type_pointer("Input", u32t).ok()?;
        lidx = b.builtin_input(ptr_in_u32, "LocalInvocationIndex")?;
        let len = b.constant_u32(SHARED_LEN).ok()?;
        let arr = b.type_array(u32t, len).ok()?;
        let ptr_wg_arr = b.type_pointer("Workgroup", arr).ok()?;
        ptr_wg_u32 = b.type_pointer("Workgroup", u32t).ok()?;
        shared = b.global_variable(ptr_wg_arr, "Workgroup", None).ok()?;
        for t in [Ty::U32, Ty::F32, Ty::U64, Ty::Bool, Ty::V2U32, Ty::V4F32] {
            let id = types.iter().find(|p| p.0 == t)?.1;
            local_ptrs.push((t, b.type_pointer("Function", id).ok()?));
        }
        // Private variables (module scope, one per invocation, in memory): scalars with and
        // without an initialiser, a bool, a uvec2, and a uint[4] indexed at run time.
        for (t, init) in [
            (Ty::U32, true),
            (Ty::U32, false),
            (Ty::Bool, false),
            (Ty::V2U32, true),
        ] {
            let id = types.iter().find(|p| p.0 == t)?.1;
            let ptr = b.type_pointer("Private", id).ok()?;
            let init = if init {
                Some(b.constant_null(id).ok()?)
            } else {
                None
            };
            privates.push((b.global_variable(ptr, "Private", init).ok()?, t));
        }
        let four = b.constant_u32(PRIVATE_LEN).ok()?;
        let arr4 = b.type_array(u32t, four).ok()?;
        let ptr_arr4 = b.type_pointer("Private", arr4).ok()?;
        ptr_priv_u32 = b.type_pointer("Private", u32t).ok()?;
        private_arr = b.global_variable(ptr_arr4, "Private", None).ok()?;
    }
    let mut g = Gen {
        b,
        bytes,
        chaos,
        types,
        pool: Vec::new(),
        all_ids: Vec::new(),
        budget: Budget(80),
        glsl,
        buf0,
        buf1,
        ptr_sb_u32,
        ptr_fn_u32,
        counters: Vec::new(),
        helpers: Vec::new(),
        u32_consts,
        scope_device,
        scope_workgroup,
        scope_subgroup,
        sem_none,
        sem_barrier,
        in_helper: false,
        v4u,
        cur: 0,
        race_free,
        gid,
        lidx,
        shared,
        ptr_wg_u32,
        own_buf: 0,
        own_shared: 0,
        locals: Vec::new(),
        local_ptrs,
        printf,
        void: 0,
        privates,
        private_arr,
        ptr_priv_u32,
        helper_sigs: Vec::new(),
    };
    g.all_ids = (1..g.b.bound()).collect();
    g.constants()?;
    let consts = g.pool.clone();
    let void = g.b.type_void().ok()?;
    g.void = void;
    // Helper functions `uint hN(uint, uint)`, each may call the earlier ones (race-free mode:
    // also other result types, and `hN(uint *p, uint)` with a pointer to the caller's
    // variable).
    for _ in 0..g.bytes.below(3) {
        g.pool = consts.clone();
        g.in_helper = true;
        let (ret, by_pointer) = if race_free {
            let r = g
                .bytes
                .pick(&[Ty::U32, Ty::U32, Ty::V2U32, Ty::F32, Ty::Bool]);
            (r, g.bytes.below(3) == 0)
        } else {
            (Ty::U32, false)
        };
        let rett = g.ty(ret);
        let first = if by_pointer { g.ptr_fn_u32 } else { u32t };
        let fty = g.b.type_function(rett, &[first, u32t]).ok()?;
        let f = g.b.begin_function(rett, "None", fty).ok()?;
        let p0 = g.b.function_parameter(first).ok()?;
        let p1 = g.b.function_parameter(u32t).ok()?;
        g.cur = g.b.begin_block().ok()?;
        g.counter_vars()?;
        g.owned_bases(None)?;
        if by_pointer {
            g.locals.push((p0, Ty::U32));
        } else {
            g.pool.push((p0, Ty::U32));
        }
        g.pool.push((p1, Ty::U32));
        g.budget = Budget(20);
        g.statements(0)?;
        let r = g.value(ret)?;
        g.b.inst(Op::ReturnValue, None, &[Arg::Id(r)]).ok()?;
        g.b.end_function().ok()?;
        g.helpers.push((f, 2));
        g.helper_sigs.push((ret, by_pointer));
    }
    g.in_helper = false;
    g.pool = consts;
    let fvoid = g.b.type_function(void, &[]).ok()?;
    let main = g.b.begin_function(void, "None", fvoid).ok()?;
    g.cur = g.b.begin_block().ok()?;
    g.counter_vars()?;
    let x = g.global_x()?;
    g.owned_bases(Some(x))?;
    g.pool.push((x, Ty::U32));
    g.budget = Budget(80);
    g.statements(0)?;
    g.b.inst(Op::Return, None, &[]).ok()?;
    g.b.end_function().ok()?;
    let mut interface = vec![gid, buf0, buf1];
    if race_free {
        interface.extend([g.lidx, g.shared, g.private_arr]);
        interface.extend(g.privates.iter().map(|p| p.0));
    }
    g.b.entry_point("GLCompute", main, "main", &interface)
        .ok()?;
    g.b.execution_mode(main, "LocalSize", &[local_x, 1, 1])
        .ok()?;
    let module = g.b.finish().ok()?;
    Some((module, Shape { local_x }))
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
    fn ty(&self, t: Ty) -> u32 {
        self.types
            .iter()
            .find(|(k, _)| *k == t)
            .map(|p| p.1)
            .unwrap_or(0)
    }

    fn constants(&mut self) -> Option<()> {
        for &c in &self.u32_consts {
            self.pool.push((c, Ty::U32));
        }
        for _ in 0..1 + self.bytes.below(6) {
            let t = self.bytes.pick(&ALL_TYS);
            let ty = self.ty(t);
            let w = self.bytes.u32();
            let id = match t {
                Ty::Bool => self.b.constant_bool(w & 1 == 1).ok()?,
                Ty::U64 | Ty::F64 => self.b.constant_words(ty, &[w, self.bytes.u32()]).ok()?,
                Ty::U16 | Ty::F16 => self.b.constant_words(ty, &[w & 0xffff]).ok()?,
                Ty::V4F32 | Ty::V2U32 => self.b.constant_null(ty).ok()?,
                _ => self.b.constant_words(ty, &[w]).ok()?,
            };
            self.pool.push((id, t));
        }
        Some(())
    }

    /// Function variables used as loop counters, one per nesting depth (and in race-free
    /// mode the local variables, uninitialised: the engine's zero until a store).
    fn counter_vars(&mut self) -> Option<()> {
        self.counters = self.b.loop_counters(self.ptr_fn_u32)?;
        self.locals.clear();
        for (t, ptr) in self.local_ptrs.clone() {
            let v = self.b.variable(ptr)?;
            self.locals.push((v, t));
        }
        Some(())
    }

    /// GlobalInvocationId.x, loaded in the current block.
    fn global_x(&mut self) -> Option<u32> {
        let u32t = self.ty(Ty::U32);
        let ptr_in_u32 = self.b.type_pointer("Input", u32t).ok()?;
        let gx = self
            .b
            .access_chain(ptr_in_u32, self.gid, &[self.u32_consts[0]])?;
        self.b.load(u32t, gx)
    }

    /// Race-free mode: the first owned elements of the current function (`x`: the entry
    /// function's GlobalInvocationId.x, else loaded here).
    fn owned_bases(&mut self, x: Option<u32>) -> Option<()> {
        if !self.race_free {
            return Some(());
        }
        let u32t = self.ty(Ty::U32);
        let x = match x {
            Some(x) => x,
            None => self.global_x()?,
        };
        let l = self.b.load(u32t, self.lidx)?;
        let owned = self.b.constant_u32(OWNED).ok()?;
        self.own_buf = self
            .b
            .inst(Op::IMul, Some(u32t), &[Arg::Id(x), Arg::Id(owned)])
            .ok()??;
        self.own_shared = self
            .b
            .inst(Op::IMul, Some(u32t), &[Arg::Id(l), Arg::Id(owned)])
            .ok()??;
        self.pool.push((l, Ty::U32));
        Some(())
    }

    /// An element index: `base + (v & (OWNED − 1))` (an element the invocation owns), or one
    /// time in eight `v | far` (out of bounds whatever the buffer's size).
    fn owned_index(&mut self, base: u32, far: u32) -> Option<u32> {
        let u32t = self.ty(Ty::U32);
        let v = self.value(Ty::U32)?;
        if self.bytes.below(8) == 0 {
            let far = self.b.constant_u32(far).ok()?;
            return self
                .b
                .inst(Op::BitwiseOr, Some(u32t), &[Arg::Id(v), Arg::Id(far)])
                .ok()?;
        }
        let mask = self.b.constant_u32(OWNED - 1).ok()?;
        let low = self
            .b
            .inst(Op::BitwiseAnd, Some(u32t), &[Arg::Id(v), Arg::Id(mask)])
            .ok()??;
        self.b
            .inst(Op::IAdd, Some(u32t), &[Arg::Id(base), Arg::Id(low)])
            .ok()?
    }

    /// A pointer to element `index` of the Workgroup array.
    fn shared_element(&mut self, index: u32) -> Option<u32> {
        self.b.access_chain(self.ptr_wg_u32, self.shared, &[index])
    }

    /// A pointer to an element of binding 0 or of the Workgroup array the invocation owns.
    fn owned_element(&mut self) -> Option<u32> {
        if self.bytes.u8() & 1 == 0 {
            let i = self.owned_index(self.own_buf, 1 << 20)?;
            let zero = self.u32_consts[0];
            self.b.access_chain(self.ptr_sb_u32, self.buf0, &[zero, i])
        } else {
            let i = self.owned_index(self.own_shared, SHARED_LEN)?;
            self.shared_element(i)
        }
    }

    fn barrier(&mut self) -> Option<()> {
        let (s, m) = (self.scope_workgroup, self.sem_barrier);
        self.b
            .inst(
                Op::ControlBarrier,
                None,
                &[Arg::Id(s), Arg::Id(s), Arg::Id(m)],
            )
            .ok()?;
        Some(())
    }

    /// Statements 0 to 9 of both modes: integer and float arithmetic, comparisons,
    /// conversions, composites and GLSL.std.450 calls.
    fn compute(&mut self, choice: usize) -> Option<()> {
        match choice {
            0..=3 => self.arith(),
            4 | 5 => self.float_arith(),
            6 => self.compare(),
            7 => self.convert(),
            8 => self.composite(),
            _ => self.glsl_call(),
        }
    }

    /// OpSelect between two values of any type.
    fn select(&mut self) -> Option<()> {
        let c = self.value(Ty::Bool)?;
        let t = self.bytes.pick(&ALL_TYS);
        let a = self.value(t)?;
        let b = self.value(t)?;
        self.op(Op::Select, t, &[Arg::Id(c), Arg::Id(a), Arg::Id(b)])
    }

    /// Race-free mode's statements (see the module comment).
    fn statement_race_free(&mut self, depth: u32) -> Option<()> {
        let choice = self.bytes.below(34);
        match choice {
            0..=9 => self.compute(choice),
            10 => {
                // Binding 1 is never written: any element.
                let p = self.element(self.buf1)?;
                self.op(Op::Load, Ty::U32, &[Arg::Id(p)])
            }
            11 => {
                let p = self.owned_element()?;
                self.op(Op::Load, Ty::U32, &[Arg::Id(p)])
            }
            12 | 13 => {
                let p = self.owned_element()?;
                let v = self.value(Ty::U32)?;
                self.b.store(p, v)
            }
            14 | 15 => {
                let (var, t) = self.bytes.pick(&self.locals);
                if choice == 14 {
                    let v = self.value(t)?;
                    self.b.store(var, v)
                } else {
                    self.op(Op::Load, t, &[Arg::Id(var)])
                }
            }
            16 => self.select(),
            17 if !self.in_helper => self.barrier(),
            18 if !self.in_helper => self.exchange(),
            19 if !self.helpers.is_empty() => {
                let k = self.bytes.below(self.helpers.len());
                let (f, _) = self.helpers[k];
                let (ret, by_pointer) = self.helper_sigs[k];
                let a = if by_pointer {
                    // This function's variable that escapes (the first local: uint).
                    self.locals[0].0
                } else {
                    self.value(Ty::U32)?
                };
                let b = self.value(Ty::U32)?;
                self.op(Op::FunctionCall, ret, &[Arg::Id(f), Arg::Id(a), Arg::Id(b)])
            }
            20 | 21 if depth < 3 => self.selection_phi(depth, false),
            22 if depth < 3 => self.switch_wide(depth),
            23 | 24 if depth < 3 => self.lp(depth),
            25 if depth < 3 => self.selection_phi(depth, true),
            26 => self.dot(),
            27 => self.op(Op::ArrayLength, Ty::U32, &[Arg::Id(self.buf0), Arg::Int(0)]),
            28 => self.debug_printf(),
            29 => {
                let (var, t) = self.bytes.pick(&self.privates);
                if self.bytes.u8() & 1 == 0 {
                    let v = self.value(t)?;
                    self.b.store(var, v)
                } else {
                    self.op(Op::Load, t, &[Arg::Id(var)])
                }
            }
            30 => {
                // An element of the Private array, by an index of any integer type (one time
                // in four `i | PRIVATE_LEN`: out of its bounds, never a constant, which
                // spirv-val refuses when negative).
                let t = self.bytes.pick(&INTS);
                let i = self.value(t)?;
                let (op, k) = if self.bytes.below(4) != 0 {
                    (Op::BitwiseAnd, PRIVATE_LEN as u64 - 1)
                } else {
                    (Op::BitwiseOr, PRIVATE_LEN as u64)
                };
                let k = self.int_const(t, k)?;
                let i = self
                    .b
                    .inst(op, Some(self.ty(t)), &[Arg::Id(i), Arg::Id(k)])
                    .ok()??;
                let p = self
                    .b
                    .access_chain(self.ptr_priv_u32, self.private_arr, &[i])?;
                if self.bytes.u8() & 1 == 0 {
                    let v = self.value(Ty::U32)?;
                    self.b.store(p, v)
                } else {
                    self.op(Op::Load, Ty::U32, &[Arg::Id(p)])
                }
            }
            31 => {
                // A shift whose amount has another integer type than the base.
                const SHIFTS: [Op; 3] = [
                    Op::ShiftLeftLogical,
                    Op::ShiftRightLogical,
                    Op::ShiftRightArithmetic,
                ];
                let t = self.bytes.pick(&INTS);
                let by = self.bytes.pick(&INTS);
                let name = self.bytes.pick(&SHIFTS);
                let (a, b) = (self.value(t)?, self.value(by)?);
                self.op(name, t, &[Arg::Id(a), Arg::Id(b)])
            }
            // Subgroup instructions (in the entry function, where the JIT runs them at a
            // rendezvous): their results depend only on which lanes are active.
            32 if !self.in_helper => self.subgroup(),
            33 if !self.in_helper => self.group_arith(),
            _ => self.arith(),
        }
    }

    /// A constant `v` of integer type `t`.
    fn int_const(&mut self, t: Ty, v: u64) -> Option<u32> {
        let ty = self.ty(t);
        self.b.constant_words(ty, &int_words(width(t), v)).ok()
    }

    /// A switch on an integer of any type in `INTS`, with small case values or any (the
    /// latter of the selector's width).
    fn switch_wide(&mut self, depth: u32) -> Option<()> {
        let t = self.bytes.pick(&INTS);
        let sel = self.value(t)?;
        let merge = self.b.fresh_id();
        let default = self.b.fresh_id();
        let n = 1 + self.bytes.below(4);
        let mut cases: Vec<(u64, u32)> = Vec::new();
        let mut args = vec![Arg::Id(sel), Arg::Id(default)];
        for k in 0..n {
            let label = self.b.fresh_id();
            let lit = if self.bytes.below(3) == 0 {
                self.bytes.u64() & low(width(t))
            } else {
                k as u64 * (1 + self.bytes.below(3) as u64)
            };
            if cases.iter().any(|&(l, _)| l == lit) {
                continue;
            }
            cases.push((lit, label));
            args.push(case_literal(width(t), lit));
            args.push(Arg::Id(label));
        }
        let labels: Vec<u32> = cases.iter().map(|c| c.1).collect();
        self.switch_arms(&args, &labels, default, merge, depth)
    }

    /// Store an owned element of the Workgroup array, barrier, load any element, barrier: the
    /// only reads of other invocations' elements, between two barriers.
    fn exchange(&mut self) -> Option<()> {
        let i = self.owned_index(self.own_shared, SHARED_LEN)?;
        let p = self.shared_element(i)?;
        let v = self.value(Ty::U32)?;
        self.b.store(p, v)?;
        self.barrier()?;
        let u32t = self.ty(Ty::U32);
        let w = self.value(Ty::U32)?;
        let index = if self.bytes.below(8) == 0 {
            w
        } else {
            let mask = self.b.constant_u32(SHARED_LEN - 1).ok()?;
            self.b
                .inst(Op::BitwiseAnd, Some(u32t), &[Arg::Id(w), Arg::Id(mask)])
                .ok()??
        };
        let q = self.shared_element(index)?;
        self.op(Op::Load, Ty::U32, &[Arg::Id(q)])?;
        self.barrier()
    }

    /// `debugPrintfEXT` of one value (uint or float).
    fn debug_printf(&mut self) -> Option<()> {
        let (t, fmt) =
            self.bytes
                .pick(&[(Ty::U32, "u=%u"), (Ty::F32, "f=%f"), (Ty::I32, "i=%d %x")]);
        let s = self.b.declare(Op::String, None, &[Arg::str(fmt)]).ok()?;
        let mut args = vec![Arg::Id(self.printf), Arg::Int(1), Arg::Id(s)];
        let n = fmt.matches('%').count();
        for _ in 0..n {
            args.push(Arg::Id(self.value(t)?));
        }
        self.b.inst(Op::ExtInst, Some(self.void), &args).ok()?;
        Some(())
    }

    /// A few statements of pure arithmetic (an arm the JIT may turn into selects).
    fn pure_statements(&mut self) -> Option<()> {
        for _ in 0..self.bytes.below(4) {
            if !self.budget.spend(&self.bytes) {
                break;
            }
            match self.bytes.below(6) {
                0 | 1 => self.arith(),
                2 => self.compare(),
                3 => self.convert(),
                4 => self.float_arith(),
                _ => {
                    let c = self.value(Ty::Bool)?;
                    let t = self.bytes.pick(&INTS);
                    let (a, b) = (self.value(t)?, self.value(t)?);
                    self.op(Op::Select, t, &[Arg::Id(c), Arg::Id(a), Arg::Id(b)])
                }
            }?;
        }
        Some(())
    }

    /// An if/else whose merge block starts with an OpPhi of a value from each arm that
    /// reaches it. `small`: arms of a few pure statements; else any statements, and the first
    /// arm may end in OpReturn (entry function) or OpUnreachable instead.
    fn selection_phi(&mut self, depth: u32, small: bool) -> Option<()> {
        const PHI_TYS: [Ty; 6] = [Ty::U32, Ty::I32, Ty::U64, Ty::F32, Ty::Bool, Ty::V2U32];
        let c = self.value(Ty::Bool)?;
        let t = self.bytes.pick(&PHI_TYS);
        let (then, other, merge) = self.b.open_selection(c)?;
        let mut incoming = Vec::new();
        for (k, label) in [then, other].into_iter().enumerate() {
            self.block(label)?;
            let end = match self.bytes.below(12) {
                0 if k == 0 && !small && !self.in_helper => Op::Return,
                1 if k == 0 && !small => Op::Unreachable,
                _ => Op::Branch,
            };
            self.scoped(|g| {
                if small {
                    g.pure_statements()?;
                } else {
                    g.statements(depth + 1)?;
                }
                if end == Op::Branch {
                    let v = g.value(t)?;
                    incoming.push((v, g.cur));
                }
                Some(())
            })?;
            let args = if end == Op::Branch {
                vec![Arg::Id(merge)]
            } else {
                Vec::new()
            };
            self.b.inst(end, None, &args).ok()?;
        }
        self.block(merge)?;
        let args: Vec<Arg> = incoming
            .iter()
            .flat_map(|&(v, l)| [Arg::Id(v), Arg::Id(l)])
            .collect();
        self.op(Op::Phi, t, &args)
    }

    /// A value of type `t` in scope (made from a constant when there is none).
    fn value(&mut self, t: Ty) -> Option<u32> {
        if self.chaos && self.bytes.u8() < 24 && !self.all_ids.is_empty() {
            let i = self.bytes.below(self.all_ids.len());
            return Some(self.all_ids[i]);
        }
        let have: Vec<u32> = self.pool.iter().filter(|p| p.1 == t).map(|p| p.0).collect();
        if !have.is_empty() {
            return Some(self.bytes.pick(&have));
        }
        let ty = self.ty(t);
        let id = match t {
            Ty::Bool => self.b.constant_bool(self.bytes.u8() & 1 == 1).ok()?,
            Ty::U64 | Ty::F64 => self.b.constant_words(ty, &[self.bytes.u32(), 0]).ok()?,
            Ty::U16 | Ty::F16 => self
                .b
                .constant_words(ty, &[self.bytes.u32() & 0xffff])
                .ok()?,
            Ty::V4F32 | Ty::V2U32 => self.b.constant_null(ty).ok()?,
            _ => self.b.constant_words(ty, &[self.bytes.u32()]).ok()?,
        };
        Some(id)
    }

    fn push(&mut self, r: Option<u32>, t: Ty) {
        if let Some(id) = r {
            self.pool.push((id, t));
            self.all_ids.push(id);
        }
    }

    fn op(&mut self, name: Op, t: Ty, args: &[Arg]) -> Option<()> {
        let ty = self.ty(t);
        let r = self.b.inst(name, Some(ty), args).ok()?;
        self.push(r, t);
        Some(())
    }

    fn ext(&mut self, number: u32, t: Ty, operands: &[u32]) -> Option<()> {
        let mut args = vec![Arg::Id(self.glsl), Arg::Int(number)];
        args.extend(operands.iter().map(|&i| Arg::Id(i)));
        self.op(Op::ExtInst, t, &args)
    }

    /// A pointer to element `index` of buffer `buf`. Mostly the index is masked to 0..=1023 at
    /// run time (so that most accesses land near the buffer); one time in eight it is any uint
    /// in scope, constants included (offsets beyond 4 GiB are out of bounds at run time).
    fn element(&mut self, buf: u32) -> Option<u32> {
        let mut index = self.value(Ty::U32)?;
        if self.bytes.below(8) != 0 {
            let mask = self.b.constant_u32(0x3ff).ok()?;
            let u32t = self.ty(Ty::U32);
            index = self
                .b
                .inst(Op::BitwiseAnd, Some(u32t), &[Arg::Id(index), Arg::Id(mask)])
                .ok()??;
        }
        let zero = self.u32_consts[0];
        self.b.access_chain(self.ptr_sb_u32, buf, &[zero, index])
    }

    fn statements(&mut self, depth: u32) -> Option<()> {
        let n = self.bytes.below(8);
        for _ in 0..n {
            if !self.budget.spend(&self.bytes) {
                break;
            }
            self.statement(depth)?;
        }
        Some(())
    }

    fn statement(&mut self, depth: u32) -> Option<()> {
        if self.race_free {
            return self.statement_race_free(depth);
        }
        let choice = self.bytes.below(28);
        match choice {
            0..=9 => self.compute(choice),
            10 | 11 => {
                let buf = if self.bytes.u8() & 1 == 0 {
                    self.buf0
                } else {
                    self.buf1
                };
                let p = self.element(buf)?;
                self.op(Op::Load, Ty::U32, &[Arg::Id(p)])
            }
            12 | 13 => {
                let p = self.element(self.buf0)?;
                let v = self.value(Ty::U32)?;
                self.b.store(p, v)
            }
            14 => self.atomic(),
            15 => self.op(Op::ArrayLength, Ty::U32, &[Arg::Id(self.buf0), Arg::Int(0)]),
            16 => self.select(),
            // A barrier: in divergent control flow this deadlocks, a documented error.
            17 if !self.in_helper => self.barrier(),
            18 => self.group_arith(),
            19 if !self.helpers.is_empty() => {
                let (f, _) = self.bytes.pick(&self.helpers);
                let a = self.value(Ty::U32)?;
                let b = self.value(Ty::U32)?;
                self.op(
                    Op::FunctionCall,
                    Ty::U32,
                    &[Arg::Id(f), Arg::Id(a), Arg::Id(b)],
                )
            }
            20 | 21 if depth < 3 => self.selection(depth),
            22 if depth < 3 => self.switch(depth),
            23 if depth < 3 => self.lp(depth),
            24 | 25 => self.dot(),
            26 | 27 => self.subgroup(),
            _ => self.arith(),
        }
    }

    /// Integer dot products (SPV_KHR_integer_dot_product, core in SPIR-V 1.6): packed 4×8-bit
    /// operands in a uint, or uvec2 operands; plain or accumulating with saturation; signed,
    /// unsigned or mixed; 16/32/64-bit results (the validator refuses the ill-typed ones).
    fn dot(&mut self) -> Option<()> {
        // One time in four each: the fixed-point functions and the VALVE float dot products.
        match self.bytes.below(4) {
            0 => return self.fixed(),
            1 => return self.mixdot(),
            _ => {}
        }
        const OPS: [Op; 6] = [
            Op::SDot,
            Op::UDot,
            Op::SUDot,
            Op::SDotAccSat,
            Op::UDotAccSat,
            Op::SUDotAccSat,
        ];
        let name = self.bytes.pick(&OPS);
        let packed = self.bytes.u8() & 1 == 0;
        let operand = if packed { Ty::U32 } else { Ty::V2U32 };
        let mut result = self.bytes.pick(&[Ty::U32, Ty::I32, Ty::U64, Ty::U16]);
        // Typed mode keeps to valid types: OpUDot* results are unsigned, and a result is at
        // least as wide as the operand components (8 bits packed, 32 bits in a uvec2).
        if !self.chaos
            && ((matches!(name, Op::UDot | Op::UDotAccSat) && result == Ty::I32)
                || (!packed && result == Ty::U16))
        {
            result = Ty::U32;
        }
        let a = self.value(operand)?;
        let b = self.value(operand)?;
        let mut args = vec![Arg::Id(a), Arg::Id(b)];
        if matches!(name, Op::SDotAccSat | Op::UDotAccSat | Op::SUDotAccSat) {
            args.push(Arg::Id(self.value(result)?));
        }
        if packed {
            args.push(Arg::name("PackedVectorFormat4x8Bit"));
        }
        self.op(name, result, &args)
    }

    /// The eleven functions of SPV_INTEL_arbitrary_precision_fixed_point on a uint input:
    /// S, Q and O in their ranges (chaos: any word), I and rI from −40 to 40 or, one time in
    /// eight, any 32-bit word (the engine bounds its working precision: `EvalLimits`); a uint
    /// result, and for SinCos/SinCosPi a uvec2 or a ulong (sin and cos in its halves).
    fn fixed(&mut self) -> Option<()> {
        const OPS: [Op; 11] = [
            Op::FixedSqrtINTEL,
            Op::FixedRecipINTEL,
            Op::FixedRsqrtINTEL,
            Op::FixedSinINTEL,
            Op::FixedCosINTEL,
            Op::FixedSinCosINTEL,
            Op::FixedSinPiINTEL,
            Op::FixedCosPiINTEL,
            Op::FixedSinCosPiINTEL,
            Op::FixedLogINTEL,
            Op::FixedExpINTEL,
        ];
        let name = self.bytes.pick(&OPS);
        self.b
            .capability("ArbitraryPrecisionFixedPointINTEL")
            .ok()?;
        self.b
            .extension("SPV_INTEL_arbitrary_precision_fixed_point")
            .ok()?;
        let x = self.value(Ty::U32)?;
        let sincos = matches!(name, Op::FixedSinCosINTEL | Op::FixedSinCosPiINTEL);
        let result = match (sincos, self.bytes.u8() & 1) {
            (false, _) => Ty::U32,
            (true, 0) => Ty::V2U32,
            (true, _) => Ty::U64,
        };
        let mode = |g: &mut Self, n: usize| -> u32 {
            if g.chaos && g.bytes.u8() < 16 {
                g.bytes.u32()
            } else {
                g.bytes.below(n) as u32
            }
        };
        let s = mode(self, 2);
        let q = mode(self, 8);
        let o = mode(self, 4);
        let bits = |g: &mut Self| -> u32 {
            if g.bytes.below(8) == 0 {
                g.bytes.u32()
            } else {
                (g.bytes.below(81) as i32 - 40) as u32
            }
        };
        let i = bits(self);
        let ri = bits(self);
        let args = [s, i, ri, q, o].map(Arg::Int);
        let mut all = vec![Arg::Id(x)];
        all.extend(args);
        self.op(name, result, &all)
    }

    /// The VALVE mixed float dot products (SPV_VALVE_mixed_float_dot_product):
    /// OpFDot2MixAcc32VALVE with a float accumulator and OpFDot2MixAcc16VALVE with a 16-bit one
    /// on pairs of IEEE halves (built from halves in scope) or of bfloat16s, and
    /// OpFDot4MixAcc32VALVE on four E4M3/E5M2 floats. bfloat16 and fp8 vectors are bit casts of
    /// a uint in scope (every encoding, NaNs and infinities included), a bfloat16 accumulator a
    /// bit cast of a ushort, and a bfloat16 result is bit cast back to a ushort.
    fn mixdot(&mut self) -> Option<()> {
        let k = self.bytes.u8();
        let acc16 = k & 1 == 1;
        match (k >> 1) % 4 {
            2 => return self.mixdot_bf16(acc16),
            3 => return self.mixdot_fp8(),
            _ => {}
        }
        let (name, cap, acc) = if acc16 {
            (
                Op::FDot2MixAcc16VALVE,
                "DotProductFloat16AccFloat16VALVE",
                Ty::F16,
            )
        } else {
            (
                Op::FDot2MixAcc32VALVE,
                "DotProductFloat16AccFloat32VALVE",
                Ty::F32,
            )
        };
        self.b.capability(cap).ok()?;
        self.b.extension("SPV_VALVE_mixed_float_dot_product").ok()?;
        let half = self.ty(Ty::F16);
        let v2h = self.b.type_vector(half, 2).ok()?;
        let vector = |g: &mut Self| -> Option<u32> {
            let (x, y) = (g.value(Ty::F16)?, g.value(Ty::F16)?);
            g.b.inst(Op::CompositeConstruct, Some(v2h), &[Arg::Id(x), Arg::Id(y)])
                .ok()?
        };
        let a = vector(self)?;
        let b = vector(self)?;
        let c = self.value(acc)?;
        self.op(name, acc, &[Arg::Id(a), Arg::Id(b), Arg::Id(c)])
    }

    /// `OpBitcast` of a value of type `from` in scope to the type id `to`.
    fn bitcast_of(&mut self, from: Ty, to: u32) -> Option<u32> {
        let v = self.value(from)?;
        self.b.inst(Op::Bitcast, Some(to), &[Arg::Id(v)]).ok()?
    }

    /// OpFDot2MixAcc32VALVE / OpFDot2MixAcc16VALVE on bfloat16 pairs (SPV_KHR_bfloat16).
    fn mixdot_bf16(&mut self, acc16: bool) -> Option<()> {
        for cap in ["BFloat16TypeKHR", "DotProductBFloat16AccVALVE"] {
            self.b.capability(cap).ok()?;
        }
        for ext in ["SPV_KHR_bfloat16", "SPV_VALVE_mixed_float_dot_product"] {
            self.b.extension(ext).ok()?;
        }
        let bf16 = self.b.type_float(16, Some("BFloat16KHR")).ok()?;
        let v2 = self.b.type_vector(bf16, 2).ok()?;
        let a = self.bitcast_of(Ty::U32, v2)?;
        let b = self.bitcast_of(Ty::U32, v2)?;
        if !acc16 {
            let c = self.value(Ty::F32)?;
            return self.op(
                Op::FDot2MixAcc32VALVE,
                Ty::F32,
                &[Arg::Id(a), Arg::Id(b), Arg::Id(c)],
            );
        }
        let c = self.bitcast_of(Ty::U16, bf16)?;
        let d = self
            .b
            .inst(
                Op::FDot2MixAcc16VALVE,
                Some(bf16),
                &[Arg::Id(a), Arg::Id(b), Arg::Id(c)],
            )
            .ok()??;
        self.op(Op::Bitcast, Ty::U16, &[Arg::Id(d)])
    }

    /// OpFDot4MixAcc32VALVE on four 8-bit floats, each vector E4M3 or E5M2 (SPV_EXT_float8).
    fn mixdot_fp8(&mut self) -> Option<()> {
        for cap in ["Float8EXT", "DotProductFloat8AccFloat32VALVE"] {
            self.b.capability(cap).ok()?;
        }
        for ext in ["SPV_EXT_float8", "SPV_VALVE_mixed_float_dot_product"] {
            self.b.extension(ext).ok()?;
        }
        let vector = |g: &mut Self| -> Option<u32> {
            let encoding = g.bytes.pick(&["Float8E4M3EXT", "Float8E5M2EXT"]);
            let e = g.b.type_float(8, Some(encoding)).ok()?;
            let v4 = g.b.type_vector(e, 4).ok()?;
            g.bitcast_of(Ty::U32, v4)
        };
        let a = vector(self)?;
        let b = vector(self)?;
        let c = self.value(Ty::F32)?;
        self.op(
            Op::FDot4MixAcc32VALVE,
            Ty::F32,
            &[Arg::Id(a), Arg::Id(b), Arg::Id(c)],
        )
    }

    /// A subgroup reduction or scan (uint: add, umax, xor; float: add, min, mul).
    fn group_arith(&mut self) -> Option<()> {
        let t = self.bytes.pick(&[Ty::U32, Ty::F32]);
        let v = self.value(t)?;
        let name = match (t, self.bytes.below(3)) {
            (Ty::U32, 0) => Op::GroupNonUniformIAdd,
            (Ty::U32, 1) => Op::GroupNonUniformUMax,
            (Ty::U32, _) => Op::GroupNonUniformBitwiseXor,
            (_, 0) => Op::GroupNonUniformFAdd,
            (_, 1) => Op::GroupNonUniformFMin,
            _ => Op::GroupNonUniformFMul,
        };
        let op = self
            .bytes
            .pick(&["Reduce", "InclusiveScan", "ExclusiveScan"]);
        let s = self.scope_subgroup;
        self.op(name, t, &[Arg::Id(s), Arg::name(op), Arg::Id(v)])
    }

    /// The other group non-uniform instructions: elect, votes, broadcasts, shuffles, ballots
    /// and their bit queries, clustered reductions, quad operations and rotations.
    fn subgroup(&mut self) -> Option<()> {
        let s = self.scope_subgroup;
        let t = self
            .bytes
            .pick(&[Ty::U32, Ty::F32, Ty::I32, Ty::Bool, Ty::V4F32]);
        let k = self.bytes.below(12);
        match k {
            0 => self.op(Op::GroupNonUniformElect, Ty::Bool, &[Arg::Id(s)]),
            1 => {
                let p = self.value(Ty::Bool)?;
                let name = self
                    .bytes
                    .pick(&[Op::GroupNonUniformAll, Op::GroupNonUniformAny]);
                self.op(name, Ty::Bool, &[Arg::Id(s), Arg::Id(p)])
            }
            2 => {
                let v = self.value(t)?;
                self.op(
                    Op::GroupNonUniformAllEqual,
                    Ty::Bool,
                    &[Arg::Id(s), Arg::Id(v)],
                )
            }
            3 => {
                let v = self.value(t)?;
                self.op(
                    Op::GroupNonUniformBroadcastFirst,
                    t,
                    &[Arg::Id(s), Arg::Id(v)],
                )
            }
            4 => {
                let v = self.value(t)?;
                let lane = self.bytes.pick(&self.u32_consts);
                self.op(
                    Op::GroupNonUniformBroadcast,
                    t,
                    &[Arg::Id(s), Arg::Id(v), Arg::Id(lane)],
                )
            }
            5 => {
                const SHUFFLES: [Op; 5] = [
                    Op::GroupNonUniformShuffle,
                    Op::GroupNonUniformShuffleXor,
                    Op::GroupNonUniformShuffleUp,
                    Op::GroupNonUniformShuffleDown,
                    Op::GroupNonUniformRotateKHR,
                ];
                let name = self.bytes.pick(&SHUFFLES);
                let v = self.value(t)?;
                let lane = self.value(Ty::U32)?;
                self.op(name, t, &[Arg::Id(s), Arg::Id(v), Arg::Id(lane)])
            }
            6..=8 => {
                let p = self.value(Ty::Bool)?;
                let v4u = self.v4u;
                let ballot = self
                    .b
                    .inst(
                        Op::GroupNonUniformBallot,
                        Some(v4u),
                        &[Arg::Id(s), Arg::Id(p)],
                    )
                    .ok()??;
                self.all_ids.push(ballot);
                match self.bytes.below(5) {
                    0 => {
                        let op = self
                            .bytes
                            .pick(&["Reduce", "InclusiveScan", "ExclusiveScan"]);
                        self.op(
                            Op::GroupNonUniformBallotBitCount,
                            Ty::U32,
                            &[Arg::Id(s), Arg::name(op), Arg::Id(ballot)],
                        )
                    }
                    1 => self.op(
                        Op::GroupNonUniformBallotFindLSB,
                        Ty::U32,
                        &[Arg::Id(s), Arg::Id(ballot)],
                    ),
                    2 => self.op(
                        Op::GroupNonUniformBallotFindMSB,
                        Ty::U32,
                        &[Arg::Id(s), Arg::Id(ballot)],
                    ),
                    3 => {
                        let i = self.value(Ty::U32)?;
                        self.op(
                            Op::GroupNonUniformBallotBitExtract,
                            Ty::Bool,
                            &[Arg::Id(s), Arg::Id(ballot), Arg::Id(i)],
                        )
                    }
                    _ => self.op(
                        Op::GroupNonUniformInverseBallot,
                        Ty::Bool,
                        &[Arg::Id(s), Arg::Id(ballot)],
                    ),
                }
            }
            9 => {
                // ClusterSize 1, 2 or 4 (constants 1, 2, 4 of u32_consts), or 3 (invalid).
                let cluster = self.u32_consts[1 + self.bytes.below(4)];
                let (name, t) = match self.bytes.below(4) {
                    0 => (Op::GroupNonUniformIAdd, Ty::U32),
                    1 => (Op::GroupNonUniformSMin, Ty::I32),
                    2 => (Op::GroupNonUniformFMax, Ty::F32),
                    _ => (Op::GroupNonUniformLogicalOr, Ty::Bool),
                };
                let v = self.value(t)?;
                self.op(
                    name,
                    t,
                    &[
                        Arg::Id(s),
                        Arg::name("ClusteredReduce"),
                        Arg::Id(v),
                        Arg::Id(cluster),
                    ],
                )
            }
            10 => {
                let v = self.value(t)?;
                let lane = self.u32_consts[self.bytes.below(4)];
                self.op(
                    Op::GroupNonUniformQuadBroadcast,
                    t,
                    &[Arg::Id(s), Arg::Id(v), Arg::Id(lane)],
                )
            }
            _ => {
                let v = self.value(t)?;
                let dir = self.u32_consts[self.bytes.below(3)];
                self.op(
                    Op::GroupNonUniformQuadSwap,
                    t,
                    &[Arg::Id(s), Arg::Id(v), Arg::Id(dir)],
                )
            }
        }
    }

    fn arith(&mut self) -> Option<()> {
        const BIN: [Op; 14] = INT_BINARY_OPS;
        const UN: [Op; 4] = [Op::Not, Op::SNegate, Op::BitReverse, Op::BitCount];
        let t = self.bytes.pick(&INTS);
        let k = self.bytes.below(BIN.len() + UN.len() + 2);
        if k < BIN.len() {
            // OpUDiv and OpUMod need an unsigned result type (SPIR-V §3.49.13).
            let t = if matches!(BIN[k], Op::UDiv | Op::UMod) && t == Ty::I32 {
                Ty::U32
            } else {
                t
            };
            let a = self.value(t)?;
            let b = self.value(t)?;
            self.op(BIN[k], t, &[Arg::Id(a), Arg::Id(b)])
        } else if k < BIN.len() + UN.len() {
            let a = self.value(t)?;
            self.op(UN[k - BIN.len()], t, &[Arg::Id(a)])
        } else {
            // BitFieldInsert / UBitFieldExtract with random offset and count.
            let a = self.value(t)?;
            let o = self.value(Ty::U32)?;
            let c = self.value(Ty::U32)?;
            if k == BIN.len() + UN.len() {
                let b = self.value(t)?;
                self.op(
                    Op::BitFieldInsert,
                    t,
                    &[Arg::Id(a), Arg::Id(b), Arg::Id(o), Arg::Id(c)],
                )
            } else {
                self.op(
                    Op::BitFieldUExtract,
                    t,
                    &[Arg::Id(a), Arg::Id(o), Arg::Id(c)],
                )
            }
        }
    }

    fn float_arith(&mut self) -> Option<()> {
        const BIN: [Op; 6] = FLOAT_BINARY_OPS;
        let t = self.bytes.pick(&FLOATS);
        let k = self.bytes.below(BIN.len() + 1);
        if k < BIN.len() {
            let a = self.value(t)?;
            let b = self.value(t)?;
            self.op(BIN[k], t, &[Arg::Id(a), Arg::Id(b)])
        } else {
            let a = self.value(t)?;
            self.op(Op::FNegate, t, &[Arg::Id(a)])
        }
    }

    fn compare(&mut self) -> Option<()> {
        const INT: [Op; 6] = [
            Op::IEqual,
            Op::INotEqual,
            Op::ULessThan,
            Op::SLessThan,
            Op::UGreaterThanEqual,
            Op::SGreaterThan,
        ];
        const FLT: [Op; 5] = [
            Op::FOrdLessThan,
            Op::FUnordEqual,
            Op::FOrdEqual,
            Op::FUnordGreaterThanEqual,
            Op::FOrdNotEqual,
        ];
        match self.bytes.below(4) {
            0 => {
                let t = self.bytes.pick(&INTS);
                let (a, b) = (self.value(t)?, self.value(t)?);
                let name = self.bytes.pick(&INT);
                self.op(name, Ty::Bool, &[Arg::Id(a), Arg::Id(b)])
            }
            1 => {
                let t = self.bytes.pick(&FLOATS);
                let (a, b) = (self.value(t)?, self.value(t)?);
                let name = self.bytes.pick(&FLT);
                self.op(name, Ty::Bool, &[Arg::Id(a), Arg::Id(b)])
            }
            2 => {
                let t = self.bytes.pick(&FLOATS);
                let a = self.value(t)?;
                let name = self.bytes.pick(&[Op::IsNan, Op::IsInf]);
                self.op(name, Ty::Bool, &[Arg::Id(a)])
            }
            _ => {
                let (a, b) = (self.value(Ty::Bool)?, self.value(Ty::Bool)?);
                match self.bytes.below(3) {
                    0 => self.op(Op::LogicalAnd, Ty::Bool, &[Arg::Id(a), Arg::Id(b)]),
                    1 => self.op(Op::LogicalNotEqual, Ty::Bool, &[Arg::Id(a), Arg::Id(b)]),
                    _ => self.op(Op::LogicalNot, Ty::Bool, &[Arg::Id(a)]),
                }
            }
        }
    }

    fn convert(&mut self) -> Option<()> {
        let i = self.bytes.pick(&INTS);
        let f = self.bytes.pick(&FLOATS);
        match self.bytes.below(7) {
            0 => {
                let a = self.value(i)?;
                let name = self.bytes.pick(&[Op::ConvertUToF, Op::ConvertSToF]);
                self.op(name, f, &[Arg::Id(a)])
            }
            1 => {
                let a = self.value(f)?;
                let name = self.bytes.pick(&[Op::ConvertFToU, Op::ConvertFToS]);
                // ConvertFToU needs an unsigned result type (SPIR-V §3.49.11).
                let i = if name == Op::ConvertFToU && i == Ty::I32 {
                    Ty::U32
                } else {
                    i
                };
                self.op(name, i, &[Arg::Id(a)])
            }
            2 => {
                let to = self.bytes.pick(&INTS);
                if width(to) == width(i) {
                    let a = self.value(i)?;
                    return self.op(Op::Bitcast, to, &[Arg::Id(a)]);
                }
                let a = self.value(i)?;
                let name = self.bytes.pick(&[Op::UConvert, Op::SConvert]);
                // UConvert needs an unsigned result type (SPIR-V §3.49.11).
                let to = if name == Op::UConvert && to == Ty::I32 {
                    Ty::U32
                } else {
                    to
                };
                if width(to) == width(i) {
                    return self.op(Op::Bitcast, to, &[Arg::Id(a)]);
                }
                self.op(name, to, &[Arg::Id(a)])
            }
            3 => {
                let to = self.bytes.pick(&FLOATS);
                let a = self.value(f)?;
                if to == f {
                    return self.op(Op::CopyObject, to, &[Arg::Id(a)]);
                }
                self.op(Op::FConvert, to, &[Arg::Id(a)])
            }
            4 => {
                // Bitcast between equal widths: u32/i32/f32, u64/f64/v2u32, u16/f16.
                let groups: [&[Ty]; 3] = [
                    &[Ty::U32, Ty::I32, Ty::F32],
                    &[Ty::U64, Ty::F64, Ty::V2U32],
                    &[Ty::U16, Ty::F16],
                ];
                let g = self.bytes.pick(&groups);
                let from = self.bytes.pick(g);
                let to = self.bytes.pick(g);
                let a = self.value(from)?;
                self.op(Op::Bitcast, to, &[Arg::Id(a)])
            }
            5 => {
                let a = self.value(Ty::Bool)?;
                let (one, zero) = (self.value(i)?, self.value(i)?);
                self.op(Op::Select, i, &[Arg::Id(a), Arg::Id(one), Arg::Id(zero)])
            }
            _ => {
                let a = self.value(i)?;
                self.op(Op::CopyObject, i, &[Arg::Id(a)])
            }
        }
    }

    fn composite(&mut self) -> Option<()> {
        match self.bytes.below(6) {
            0 => {
                let c: Vec<Arg> = (0..4)
                    .map(|_| self.value(Ty::F32).map(Arg::Id))
                    .collect::<Option<_>>()?;
                self.op(Op::CompositeConstruct, Ty::V4F32, &c)
            }
            1 => {
                let v = self.value(Ty::V4F32)?;
                let k = self.bytes.below(4) as u32;
                self.op(Op::CompositeExtract, Ty::F32, &[Arg::Id(v), Arg::Int(k)])
            }
            2 => {
                let (a, b) = (self.value(Ty::V4F32)?, self.value(Ty::V4F32)?);
                let mut args = vec![Arg::Id(a), Arg::Id(b)];
                for _ in 0..4 {
                    let k = self.bytes.below(9) as u32;
                    args.push(Arg::Int(if k == 8 { 0xffff_ffff } else { k }));
                }
                self.op(Op::VectorShuffle, Ty::V4F32, &args)
            }
            3 => {
                let (a, b) = (self.value(Ty::V4F32)?, self.value(Ty::V4F32)?);
                self.op(Op::Dot, Ty::F32, &[Arg::Id(a), Arg::Id(b)])
            }
            4 => {
                let v = self.value(Ty::V4F32)?;
                let i = self.value(Ty::U32)?;
                self.op(Op::VectorExtractDynamic, Ty::F32, &[Arg::Id(v), Arg::Id(i)])
            }
            _ => {
                let v = self.value(Ty::V2U32)?;
                let x = self.value(Ty::U32)?;
                let k = self.bytes.below(2) as u32;
                self.op(
                    Op::CompositeInsert,
                    Ty::V2U32,
                    &[Arg::Id(x), Arg::Id(v), Arg::Int(k)],
                )
            }
        }
    }

    fn glsl_call(&mut self) -> Option<()> {
        // GLSL.std.450 numbers: unary float, binary float, ternary float, integer.
        const UN: [u32; 12] = [4, 6, 8, 9, 10, 13, 14, 27, 28, 29, 31, 32];
        const BIN: [u32; 4] = [26, 37, 40, 48];
        let t = FLOATS[self.bytes.below(2)]; // f32, f64 (f16 too rarely supported by libm)
        // Transcendentals (Sin, Cos, Pow, Exp, Log, Exp2, InverseSqrt) take 16/32-bit floats only.
        let narrow = |n: u32, t: Ty| {
            if matches!(n, 13 | 14 | 26 | 27 | 28 | 29 | 32) {
                Ty::F32
            } else {
                t
            }
        };
        match self.bytes.below(5) {
            0 | 1 => {
                let n = self.bytes.pick(&UN);
                let t = narrow(n, t);
                let a = self.value(t)?;
                self.ext(n, t, &[a])
            }
            2 => {
                let n = self.bytes.pick(&BIN);
                let t = narrow(n, t);
                let (a, b) = (self.value(t)?, self.value(t)?);
                self.ext(n, t, &[a, b])
            }
            3 => {
                let (a, b, c) = (self.value(t)?, self.value(t)?, self.value(t)?);
                let n = self.bytes.pick(&[43, 46, 50]);
                self.ext(n, t, &[a, b, c])
            }
            _ => {
                // Integer: SAbs, SSign, FindILsb, FindSMsb, FindUMsb, UMin, SMin, UMax, SMax,
                // UClamp, SClamp (the JIT compiles them natively: `jit::lower_imath`).
                let a = self.value(Ty::I32)?;
                let n = self.bytes.pick(&[5, 7, 73, 74, 75, 38, 39, 41, 42, 44, 45]);
                let mut args = vec![a];
                let arity = match n {
                    38 | 39 | 41 | 42 => 2,
                    44 | 45 => 3,
                    _ => 1,
                };
                for _ in 1..arity {
                    args.push(self.value(Ty::I32)?);
                }
                self.ext(n, Ty::I32, &args)
            }
        }
    }

    fn atomic(&mut self) -> Option<()> {
        let p = self.element(self.buf0)?;
        let v = self.value(Ty::U32)?;
        let (s, m) = (self.scope_device, self.sem_none);
        let name = self.bytes.pick(&[
            Op::AtomicIAdd,
            Op::AtomicExchange,
            Op::AtomicUMax,
            Op::AtomicAnd,
            Op::AtomicCompareExchange,
            Op::AtomicLoad,
            Op::AtomicIIncrement,
        ]);
        match name {
            Op::AtomicCompareExchange => {
                let c = self.value(Ty::U32)?;
                self.op(
                    name,
                    Ty::U32,
                    &[
                        Arg::Id(p),
                        Arg::Id(s),
                        Arg::Id(m),
                        Arg::Id(m),
                        Arg::Id(v),
                        Arg::Id(c),
                    ],
                )
            }
            Op::AtomicLoad | Op::AtomicIIncrement => {
                self.op(name, Ty::U32, &[Arg::Id(p), Arg::Id(s), Arg::Id(m)])
            }
            _ => self.op(
                name,
                Ty::U32,
                &[Arg::Id(p), Arg::Id(s), Arg::Id(m), Arg::Id(v)],
            ),
        }
    }

    /// Runs `f` with the value pool restored afterwards (values of a construct's blocks do not
    /// dominate its merge block).
    fn scoped(&mut self, f: impl FnOnce(&mut Self) -> Option<()>) -> Option<()> {
        let keep = self.pool.len();
        let r = f(self);
        self.pool.truncate(keep);
        r
    }

    fn selection(&mut self, depth: u32) -> Option<()> {
        let c = self.value(Ty::Bool)?;
        let (then, other, merge) = self.b.open_selection(c)?;
        self.block(then)?;
        let early_return = !self.in_helper && self.bytes.below(6) == 0;
        self.scoped(|g| g.statements(depth + 1))?;
        if early_return {
            self.b.inst(Op::Return, None, &[]).ok()?;
        } else {
            self.b.branch(merge)?;
        }
        self.block(other)?;
        self.scoped(|g| g.statements(depth + 1))?;
        self.b.branch(merge)?;
        self.block(merge)?;
        Some(())
    }

    /// The rest of a switch whose operands are `args`: the merge declaration, the OpSwitch,
    /// a block of random statements for each case label and the default, then the merge block.
    fn switch_arms(
        &mut self,
        args: &[Arg],
        labels: &[u32],
        default: u32,
        merge: u32,
        depth: u32,
    ) -> Option<()> {
        self.b.selection_merge(merge)?;
        self.b.inst(Op::Switch, None, args).ok()?;
        for &label in labels.iter().chain([&default]) {
            self.block(label)?;
            self.scoped(|g| g.statements(depth + 1))?;
            self.b.branch(merge)?;
        }
        self.block(merge)?;
        Some(())
    }

    fn switch(&mut self, depth: u32) -> Option<()> {
        let sel = self.value(Ty::U32)?;
        let merge = self.b.fresh_id();
        let default = self.b.fresh_id();
        let n = 1 + self.bytes.below(3);
        let mut cases = Vec::new();
        let mut args = vec![Arg::Id(sel), Arg::Id(default)];
        for k in 0..n {
            let label = self.b.fresh_id();
            let lit = (k as u32) * (1 + self.bytes.below(3) as u32);
            if cases.iter().any(|&(l, _)| l == lit) {
                continue;
            }
            cases.push((lit, label));
            args.push(Arg::Int(lit));
            args.push(Arg::Id(label));
        }
        let labels: Vec<u32> = cases.iter().map(|c| c.1).collect();
        self.switch_arms(&args, &labels, default, merge, depth)
    }

    /// A counted loop ([`counted_loop`]) whose bound is any uint in scope (a small constant,
    /// possibly huge) or, one time in sixteen, never reached (an infinite loop).
    fn lp(&mut self, depth: u32) -> Option<()> {
        let counter = *self.counters.get(depth as usize)?;
        let forever = self.bytes.below(16) == 0;
        let bound = self.value(Ty::U32)?;
        let bound = (!forever).then_some(bound);
        counted_loop(self, counter, bound, |g| {
            g.scoped(|g| g.statements(depth + 1))
        })
    }
}
