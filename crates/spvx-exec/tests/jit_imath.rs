//! The integer functions of GLSL.std.450 (SAbs, SSign, UMin, UMax, SMin, SMax, UClamp, SClamp,
//! FindILsb, FindSMsb, FindUMsb) on the JIT, which compiles them natively: for 16-, 32- and
//! 64-bit operands (FindSMsb and FindUMsb at 32 bits only, as the specification and spirv-val
//! allow them) at the range ends and at random, every result against the function computed here
//! with Rust's own integer operations at that width, and the JIT's bytes against the
//! interpreter's.

use spvx_exec::{CompileOptions, CompiledModule, JitUse, Resources, RunConfig};
use spvx_spirv::asm::{AsmOptions, assemble};

mod glsl_corpus;

use glsl_corpus::Rng;

/// The functions in the order the module stores them.
const FUNCS: [&str; 11] = [
    "SAbs", "SSign", "UMin", "UMax", "SMin", "SMax", "UClamp", "SClamp", "FindILsb", "FindSMsb",
    "FindUMsb",
];

/// Operands per function.
fn arity(f: &str) -> usize {
    match f {
        "UMin" | "UMax" | "SMin" | "SMax" => 2,
        "UClamp" | "SClamp" => 3,
        _ => 1,
    }
}

/// The functions GLSL.std.450 allows at other widths than 32 bits (FindSMsb and FindUMsb are
/// "currently limited to 32-bit width components").
const FUNCS_ANY_WIDTH: [&str; 9] = [
    "SAbs", "SSign", "UMin", "UMax", "SMin", "SMax", "UClamp", "SClamp", "FindILsb",
];

/// The body storing every function of `funcs` of `a`, `b`, `c` (loaded from `in_var` at
/// 3i..3i+2) to `out_var` at `funcs.len()`·i.., for the integer type `t` and its pointer type
/// `p`.
fn body(funcs: &[&str], (t, p): (&str, &str), (in_var, out_var): (&str, &str), w: &str) -> String {
    let mut s = String::new();
    s += &format!("%{w}i3 = OpIMul %uint %i %u3\n");
    for k in 0..3 {
        s += &format!("%{w}ix{k} = OpIAdd %uint %{w}i3 %u{k}\n");
        s += &format!("%{w}p{k} = OpAccessChain %{p} %{in_var} %u0 %{w}ix{k}\n");
        s += &format!("%{w}v{k} = OpLoad %{t} %{w}p{k}\n");
    }
    s += &format!("%{w}o = OpIMul %uint %i %u{}\n", funcs.len());
    for (j, f) in funcs.iter().enumerate() {
        let args: Vec<String> = (0..arity(f)).map(|k| format!("%{w}v{k}")).collect();
        s += &format!("%{w}r{j} = OpExtInst %{t} %glsl {f} {}\n", args.join(" "));
        s += &format!("%{w}oj{j} = OpIAdd %uint %{w}o %u{j}\n");
        s += &format!("%{w}q{j} = OpAccessChain %{p} %{out_var} %u0 %{w}oj{j}\n");
        s += &format!("OpStore %{w}q{j} %{w}r{j}\n");
    }
    s
}

/// The body of the 16-bit case: each input word's low half as a 16-bit operand (OpUConvert),
/// each result widened back (OpUConvert) and stored to `Out16` at 9i...
fn body16() -> String {
    let mut s = String::from("%hi3 = OpIMul %uint %i %u3\n");
    for k in 0..3 {
        s += &format!("%hix{k} = OpIAdd %uint %hi3 %u{k}\n");
        s += &format!("%hp{k} = OpAccessChain %puint %In %u0 %hix{k}\n");
        s += &format!("%hw{k} = OpLoad %uint %hp{k}\n");
        s += &format!("%hv{k} = OpUConvert %ushort %hw{k}\n");
    }
    s += "%ho = OpIMul %uint %i %u9\n";
    for (j, f) in FUNCS_ANY_WIDTH.iter().enumerate() {
        let args: Vec<String> = (0..arity(f)).map(|k| format!("%hv{k}")).collect();
        s += &format!("%hr{j} = OpExtInst %ushort %glsl {f} {}\n", args.join(" "));
        s += &format!("%hx{j} = OpUConvert %uint %hr{j}\n");
        s += &format!("%hoj{j} = OpIAdd %uint %ho %u{j}\n");
        s += &format!("%hq{j} = OpAccessChain %puint %Out16 %u0 %hoj{j}\n");
        s += &format!("OpStore %hq{j} %hx{j}\n");
    }
    s
}

fn module_text() -> String {
    let consts: String = (0..12)
        .map(|k| format!("%u{k} = OpConstant %uint {k}\n"))
        .collect();
    format!(
        r#"OpCapability Shader
OpCapability Int64
OpCapability Int16
%glsl = OpExtInstImport "GLSL.std.450"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %gid %In %Out %In64 %Out64 %Out16
OpExecutionMode %main LocalSize 16 1 1
OpDecorate %gid BuiltIn GlobalInvocationId
OpDecorate %rarr ArrayStride 4
OpDecorate %rarr64 ArrayStride 8
OpMemberDecorate %Buf 0 Offset 0
OpMemberDecorate %Buf64 0 Offset 0
OpDecorate %Buf Block
OpDecorate %Buf64 Block
OpDecorate %In DescriptorSet 0
OpDecorate %In Binding 0
OpDecorate %Out DescriptorSet 0
OpDecorate %Out Binding 1
OpDecorate %In64 DescriptorSet 0
OpDecorate %In64 Binding 2
OpDecorate %Out64 DescriptorSet 0
OpDecorate %Out64 Binding 3
OpDecorate %Out16 DescriptorSet 0
OpDecorate %Out16 Binding 4
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%ulong = OpTypeInt 64 0
%ushort = OpTypeInt 16 0
%v3uint = OpTypeVector %uint 3
%rarr = OpTypeRuntimeArray %uint
%rarr64 = OpTypeRuntimeArray %ulong
%Buf = OpTypeStruct %rarr
%Buf64 = OpTypeStruct %rarr64
%pbuf = OpTypePointer StorageBuffer %Buf
%pbuf64 = OpTypePointer StorageBuffer %Buf64
%puint = OpTypePointer StorageBuffer %uint
%pulong = OpTypePointer StorageBuffer %ulong
%pgid = OpTypePointer Input %v3uint
%gid = OpVariable %pgid Input
%In = OpVariable %pbuf StorageBuffer
%Out = OpVariable %pbuf StorageBuffer
%In64 = OpVariable %pbuf64 StorageBuffer
%Out64 = OpVariable %pbuf64 StorageBuffer
%Out16 = OpVariable %pbuf StorageBuffer
{consts}%main = OpFunction %void None %fn
%entry = OpLabel
%id = OpLoad %v3uint %gid
%i = OpCompositeExtract %uint %id 0
{}{}{}OpReturn
OpFunctionEnd
"#,
        body(&FUNCS, ("uint", "puint"), ("In", "Out"), "a"),
        body(
            &FUNCS_ANY_WIDTH,
            ("ulong", "pulong"),
            ("In64", "Out64"),
            "b"
        ),
        body16(),
    )
}

/// The functions at 32 bits, with Rust's u32/i32 operations.
fn reference32(f: &str, a: u32, b: u32, c: u32) -> u32 {
    let (sa, sb, sc) = (a as i32, b as i32, c as i32);
    let none = u32::MAX;
    match f {
        "SAbs" => sa.wrapping_abs() as u32,
        "SSign" => sa.signum() as u32,
        "UMin" => a.min(b),
        "UMax" => a.max(b),
        "SMin" => sa.min(sb) as u32,
        "SMax" => sa.max(sb) as u32,
        "UClamp" => a.max(b).min(c),
        "SClamp" => sa.max(sb).min(sc) as u32,
        "FindILsb" if a == 0 => none,
        "FindILsb" => a.trailing_zeros(),
        "FindUMsb" if a == 0 => none,
        "FindUMsb" => 31 - a.leading_zeros(),
        "FindSMsb" => {
            let v = if sa < 0 { !a } else { a };
            if v == 0 { none } else { 31 - v.leading_zeros() }
        }
        _ => unreachable!("{f}"),
    }
}

/// The functions at 64 bits (all but FindSMsb and FindUMsb), with Rust's u64/i64 operations.
fn reference64(f: &str, a: u64, b: u64, c: u64) -> u64 {
    let (sa, sb, sc) = (a as i64, b as i64, c as i64);
    let none = u64::MAX;
    match f {
        "SAbs" => sa.wrapping_abs() as u64,
        "SSign" => sa.signum() as u64,
        "UMin" => a.min(b),
        "UMax" => a.max(b),
        "SMin" => sa.min(sb) as u64,
        "SMax" => sa.max(sb) as u64,
        "UClamp" => a.max(b).min(c),
        "SClamp" => sa.max(sb).min(sc) as u64,
        "FindILsb" if a == 0 => none,
        "FindILsb" => a.trailing_zeros() as u64,
        _ => unreachable!("{f}"),
    }
}

/// The functions at 16 bits (all but FindSMsb and FindUMsb), with Rust's u16/i16 operations.
fn reference16(f: &str, a: u16, b: u16, c: u16) -> u16 {
    let (sa, sb, sc) = (a as i16, b as i16, c as i16);
    match f {
        "SAbs" => sa.wrapping_abs() as u16,
        "SSign" => sa.signum() as u16,
        "UMin" => a.min(b),
        "UMax" => a.max(b),
        "SMin" => sa.min(sb) as u16,
        "SMax" => sa.max(sb) as u16,
        "UClamp" => a.max(b).min(c),
        "SClamp" => sa.max(sb).min(sc) as u16,
        "FindILsb" if a == 0 => u16::MAX,
        "FindILsb" => a.trailing_zeros() as u16,
        _ => unreachable!("{f}"),
    }
}

fn bytes32(v: &[u32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

fn bytes64(v: &[u64]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

#[test]
fn integer_functions_run_natively_and_give_rusts_results() {
    let words = assemble(&module_text(), &AsmOptions::default())
        .unwrap_or_else(|e| panic!("{e}"))
        .bytes();
    let m = CompiledModule::from_bytes(&words, "main", &CompileOptions::default())
        .unwrap_or_else(|e| panic!("{e}"));
    let (native, called) = m.jit_code().expect("the JIT takes it").instruction_counts();
    assert!(
        native > 0 && called == 0,
        "{native} native, {called} called out"
    );

    // Triples of the range ends and of random values.
    let ends64 = [
        0u64,
        1,
        2,
        3,
        u64::MAX,
        u64::MAX - 1,
        i64::MIN as u64,
        i64::MAX as u64,
        1 << 40,
        0xff00,
        0x8000,
        0x7fff,
    ];
    let ends32 = [
        0u32,
        1,
        2,
        3,
        u32::MAX,
        u32::MAX - 1,
        i32::MIN as u32,
        i32::MAX as u32,
        1 << 20,
        0xff00,
        0x8000,
        0x7fff,
    ];
    let mut rng = Rng(0x1a7a);
    let mut t32: Vec<[u32; 3]> = Vec::new();
    let mut t64: Vec<[u64; 3]> = Vec::new();
    for x in 0..ends32.len() {
        for y in 0..ends32.len() {
            let z = (x * 7 + y * 3) % ends32.len();
            t32.push([ends32[x], ends32[y], ends32[z]]);
            t64.push([ends64[x], ends64[y], ends64[z]]);
        }
    }
    while !t32.len().is_multiple_of(16) || t32.len() < 256 {
        let r = [rng.next(), rng.next(), rng.next()];
        // Some with few bits, so that the Find functions meet every position.
        let k = (rng.next() % 64) as u32;
        t32.push(r.map(|v| (v >> (k % 32)) as u32));
        t64.push(r.map(|v| v >> k));
    }
    let n = t32.len();
    let mut res = Resources::new();
    res.set_buffer(0, 0, bytes32(&t32.concat()));
    res.set_buffer(0, 1, vec![0; 4 * 11 * n]);
    res.set_buffer(0, 2, bytes64(&t64.concat()));
    res.set_buffer(0, 3, vec![0; 8 * 9 * n]);
    res.set_buffer(0, 4, vec![0; 4 * 9 * n]);
    let groups = [(n / 16) as u32, 1, 1];

    let mut want32 = Vec::new();
    let mut want64 = Vec::new();
    let mut want16 = Vec::new();
    for (p, q) in t32.iter().zip(&t64) {
        for f in FUNCS {
            want32.push(reference32(f, p[0], p[1], p[2]));
        }
        for f in FUNCS_ANY_WIDTH {
            want64.push(reference64(f, q[0], q[1], q[2]));
        }
        for f in FUNCS_ANY_WIDTH {
            let h = p.map(|v| v as u16);
            want16.push(u32::from(reference16(f, h[0], h[1], h[2])));
        }
    }
    let mut interpreted = None;
    for jit in [true, false] {
        let mut r = res.clone();
        let report = m
            .run(
                &mut r,
                groups,
                &RunConfig {
                    jit,
                    ..RunConfig::default()
                },
            )
            .unwrap_or_else(|e| panic!("{e}"));
        if jit {
            assert_eq!(report.jit, JitUse::Ran);
        }
        let got32 = r.buffer(0, 1).expect("Out");
        let got64 = r.buffer(0, 3).expect("Out64");
        for (k, w) in want32.iter().enumerate() {
            let g = u32::from_le_bytes(got32[4 * k..4 * k + 4].try_into().expect("4 bytes"));
            let (t, f) = (t32[k / 11], FUNCS[k % 11]);
            assert_eq!(g, *w, "32-bit {f}{t:x?} (JIT {jit})");
        }
        for (k, w) in want64.iter().enumerate() {
            let g = u64::from_le_bytes(got64[8 * k..8 * k + 8].try_into().expect("8 bytes"));
            let (t, f) = (t64[k / 9], FUNCS_ANY_WIDTH[k % 9]);
            assert_eq!(g, *w, "64-bit {f}{t:x?} (JIT {jit})");
        }
        let got16 = r.buffer(0, 4).expect("Out16");
        for (k, w) in want16.iter().enumerate() {
            let g = u32::from_le_bytes(got16[4 * k..4 * k + 4].try_into().expect("4 bytes"));
            let (t, f) = (t32[k / 9].map(|v| v as u16), FUNCS_ANY_WIDTH[k % 9]);
            assert_eq!(g, *w, "16-bit {f}{t:x?} (JIT {jit})");
        }
        match &interpreted {
            None => interpreted = Some(r),
            Some(other) => assert!(*other == r, "the JIT's bytes differ from the interpreter's"),
        }
    }
}
