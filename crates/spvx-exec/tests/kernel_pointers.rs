//! Physical pointers of the Kernel execution model, hand-written modules: what a kernel sees
//! as a pointer's integer value, the null pointer, forged integers, pointer arithmetic that
//! wraps within its object (isolation: it never reaches another buffer), generic casts,
//! OpPtrDiff, OpPtrEqual and OpCopyMemorySized. Expected values follow the documented
//! address map (docs: "Pointers under physical addressing": 5 spaces → 8 slots of 2^61 bytes,
//! an object's base in the middle of its slot; buffer arguments are spaces 3, 4, …).

use spvx_exec::resources::KernelArg;
use spvx_exec::{CompileOptions, CompiledModule, Resources, RunConfig, UbKind};
use spvx_spirv::asm::{AsmOptions, assemble};

const HEAD: &str = r#"
OpCapability Addresses
OpCapability Kernel
OpCapability Int64
OpCapability GenericPointer
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %main "main" %gid
OpExecutionMode %main LocalSize 2 1 1
OpDecorate %gid BuiltIn GlobalInvocationId
%void = OpTypeVoid
%bool = OpTypeBool
%uint = OpTypeInt 32 0
%ulong = OpTypeInt 64 0
%v3ulong = OpTypeVector %ulong 3
%pin = OpTypePointer Input %v3ulong
%pg = OpTypePointer CrossWorkgroup %ulong
%pgen = OpTypePointer Generic %ulong
%pw = OpTypePointer Workgroup %ulong
%fn = OpTypeFunction %void %pg %pg
%gid = OpVariable %pin Input
%u0 = OpConstant %ulong 0
%u1 = OpConstant %ulong 1
%u5 = OpConstant %ulong 5
%u8 = OpConstant %ulong 8
%u16 = OpConstant %ulong 16
%wrap = OpConstant %ulong 35184372088832
%forged = OpConstant %ulong 27866022694354944
%c3 = OpConstant %ulong 3
%c4 = OpConstant %ulong 4
%c6 = OpConstant %ulong 6
%c7 = OpConstant %ulong 7
%c9 = OpConstant %ulong 9
%c10 = OpConstant %ulong 10
%c11 = OpConstant %ulong 11
%null = OpConstantNull %pg
"#;

/// out (arg 0) gets one row of 12 values per invocation; src (arg 1) is read.
const BODY: &str = r#"
%main = OpFunction %void None %fn
%out = OpFunctionParameter %pg
%src = OpFunctionParameter %pg
%entry = OpLabel
%ids = OpLoad %v3ulong %gid
%i = OpCompositeExtract %ulong %ids 0
%row0 = OpIMul %ulong %i %c12
%row = OpPtrAccessChain %pg %out %row0
; 0, 1: the integer values of the two buffer pointers
%ia = OpConvertPtrToU %ulong %out
OpStore %row %ia
%r1 = OpPtrAccessChain %pg %row %u1
%ib = OpConvertPtrToU %ulong %src
OpStore %r1 %ib
; 2: src[i] through an integer: ConvertUToPtr(int(src) + 8 i)
%off = OpIMul %ulong %i %u8
%isum = OpIAdd %ulong %ib %off
%p = OpConvertUToPtr %pg %isum
%v2 = OpLoad %ulong %p
%r2 = OpPtrAccessChain %pg %row %c2
OpStore %r2 %v2
; 3: src + 2^45 elements = 2^48 bytes: wraps to src[0] (never the other buffer)
%q = OpPtrAccessChain %pg %src %wrap
%v3 = OpLoad %ulong %q
%r3 = OpPtrAccessChain %pg %row %c3
OpStore %r3 %v3
; 4: a load through the null pointer gives 0 (reported)
%v4 = OpLoad %ulong %null
%r4 = OpPtrAccessChain %pg %row %c4
OpStore %r4 %v4
; 5: a forged integer in the null slot (99 << 48 < 2^61) gives 0 (reported)
%fp = OpConvertUToPtr %pg %forged
%v5 = OpLoad %ulong %fp
%r5 = OpPtrAccessChain %pg %row %u5
OpStore %r5 %v5
; 6: generic → Workgroup of a buffer pointer is null; 7: → CrossWorkgroup is the pointer
%g = OpPtrCastToGeneric %pgen %src
%gw = OpGenericCastToPtrExplicit %pw %g Workgroup
%igw = OpConvertPtrToU %ulong %gw
%r6 = OpPtrAccessChain %pg %row %c6
OpStore %r6 %igw
%gc = OpGenericCastToPtr %pg %g
%igc = OpConvertPtrToU %ulong %gc
%r7 = OpPtrAccessChain %pg %row %c7
OpStore %r7 %igc
; 8: OpPtrDiff(src + 5, src) = 5; 9: OpPtrEqual(src + 5, src + 5) = 1
%s5 = OpPtrAccessChain %pg %src %u5
%d = OpPtrDiff %ulong %s5 %src
%r8 = OpPtrAccessChain %pg %row %u8
OpStore %r8 %d
%s5b = OpPtrAccessChain %pg %src %u5
%eq = OpPtrEqual %bool %s5 %s5b
%eqi = OpSelect %ulong %eq %u1 %u0
%r9 = OpPtrAccessChain %pg %row %c9
OpStore %r9 %eqi
; 10, 11: OpCopyMemorySized of 16 bytes from src + 2 to row + 10
%from = OpPtrAccessChain %pg %src %c2
%r10 = OpPtrAccessChain %pg %row %c10
OpCopyMemorySized %r10 %from %u16
OpReturn
OpFunctionEnd
"#;

fn module() -> CompiledModule {
    let text = format!("{HEAD}%c2 = OpConstant %ulong 2\n%c12 = OpConstant %ulong 12\n{BODY}");
    let a = assemble(&text, &AsmOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    CompiledModule::from_bytes(&a.bytes(), "main", &CompileOptions::default())
        .unwrap_or_else(|e| panic!("{e}"))
}

fn u64s(b: &[u8]) -> Vec<u64> {
    b.chunks_exact(8)
        .map(|c| u64::from_le_bytes(c.try_into().unwrap_or([0; 8])))
        .collect()
}

#[test]
fn pointer_values_null_forged_wrapping_generic_and_diff() {
    let m = module();
    let src: Vec<u64> = (0..8).map(|k| 1000 + k).collect();
    let mut res = Resources::new();
    res.set_arg(0, KernelArg::Buffer(vec![0; 8 * 12 * 2]));
    res.set_arg(
        1,
        KernelArg::Buffer(src.iter().flat_map(|v| v.to_le_bytes()).collect()),
    );
    let report = m
        .run(&mut res, [1, 1, 1], &RunConfig::default())
        .unwrap_or_else(|e| panic!("{e}"));
    let out = u64s(res.arg_buffer(0).unwrap_or(&[]));
    // Addresses: slot 3 and 4 of 2^61 bytes, bases in the middle (+ 2^60).
    let (space_a, space_b) = (3u64 << 61 | 1 << 60, 4u64 << 61 | 1 << 60);
    for i in 0..2usize {
        let want = [
            space_a, space_b, src[i], src[0], 0, 0, 0, space_b, 5, 1, src[2], src[3],
        ];
        assert_eq!(&out[12 * i..12 * i + 12], &want, "invocation {i}");
    }
    // The null and forged loads, per invocation, are the only events.
    assert_eq!(report.total_events, 4, "{:?}", report.events);
    assert!(
        report
            .events
            .iter()
            .all(|e| matches!(e.kind, UbKind::OutOfBoundsRead { .. }))
    );
}

#[test]
fn strict_mode_names_the_null_load() {
    let m = module();
    let mut res = Resources::new();
    res.set_arg(0, KernelArg::Buffer(vec![0; 8 * 24]));
    res.set_arg(1, KernelArg::Buffer(vec![0; 64]));
    let cfg = RunConfig {
        strict: true,
        ..RunConfig::default()
    };
    let e = m.run(&mut res, [1, 1, 1], &cfg).unwrap_err().to_string();
    assert!(e.contains("OpLoad") && e.contains("no memory"), "{e}");
}

/// `out[i] = *(src + idx[i])` for 64-bit element indices.
const WALK: &str = r#"
OpCapability Addresses
OpCapability Kernel
OpCapability Int64
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %main "main" %gid
OpExecutionMode %main LocalSize 8 1 1
OpDecorate %gid BuiltIn GlobalInvocationId
%void = OpTypeVoid
%ulong = OpTypeInt 64 0
%v3ulong = OpTypeVector %ulong 3
%pin = OpTypePointer Input %v3ulong
%pg = OpTypePointer CrossWorkgroup %ulong
%fn = OpTypeFunction %void %pg %pg %pg
%gid = OpVariable %pin Input
%main = OpFunction %void None %fn
%out = OpFunctionParameter %pg
%src = OpFunctionParameter %pg
%idx = OpFunctionParameter %pg
%entry = OpLabel
%ids = OpLoad %v3ulong %gid
%i = OpCompositeExtract %ulong %ids 0
%pi = OpPtrAccessChain %pg %idx %i
%k = OpLoad %ulong %pi
%p = OpPtrAccessChain %pg %src %k
%v = OpLoad %ulong %p
%po = OpPtrAccessChain %pg %out %i
OpStore %po %v
OpReturn
OpFunctionEnd
"#;

use proptest::prelude::Strategy as _;

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]

    /// Isolation: whatever the element index, a load through `src + index` reads `src` at
    /// `8·index mod 2^48` when that is inside `src`, and 0 otherwise — never `out` or `idx`,
    /// which hold other values.
    #[test]
    fn pointer_arithmetic_stays_in_its_buffer(
        idx in proptest::collection::vec(
            proptest::prop_oneof![
                -40i64..40,
                proptest::prelude::any::<i64>(),
                (0i64..16).prop_map(|k| k + (1 << 45)),
                (0i64..16).prop_map(|k| k - (1 << 45)),
            ],
            8,
        )
    ) {
        let a = assemble(WALK, &AsmOptions::default()).unwrap_or_else(|e| panic!("{e}"));
        let m = CompiledModule::from_bytes(&a.bytes(), "main", &CompileOptions::default())
            .unwrap_or_else(|e| panic!("{e}"));
        let src: Vec<u64> = (0..16).map(|k| 0x5000 + k).collect();
        let mut res = Resources::new();
        res.set_arg(0, KernelArg::Buffer(vec![0xee; 64]));
        res.set_arg(1, KernelArg::Buffer(src.iter().flat_map(|v| v.to_le_bytes()).collect()));
        res.set_arg(2, KernelArg::Buffer(idx.iter().flat_map(|v| v.to_le_bytes()).collect()));
        m.run(&mut res, [1, 1, 1], &RunConfig::default()).unwrap_or_else(|e| panic!("{e}"));
        let out = u64s(res.arg_buffer(0).unwrap_or(&[]));
        for (k, &ix) in idx.iter().enumerate() {
            let offset = (ix as i128 * 8).rem_euclid(1 << 48) as u64;
            let want = if offset + 8 <= 128 && offset.is_multiple_of(8) { src[(offset / 8) as usize] } else { 0 };
            proptest::prop_assert_eq!(out[k], want, "index {}", ix);
        }
    }
}
