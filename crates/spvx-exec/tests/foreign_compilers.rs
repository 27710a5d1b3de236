//! Complete compute modules produced by compilers other than glslang and clang (clspv and
//! DXC), copied from public repositories into `tests/corpus/foreign/` (each .spvasm file's
//! comment names the repository and file it came from, and the source it was compiled from),
//! assembled by SPIRV-Tools 2025.5 spirv-as and validated by its spirv-val for the
//! environment its source targets (`corpus/foreign/regen`; the .spv files are committed).
//! Each runs here on inputs chosen in the test; the expected outputs are worked out by hand
//! from the source program.

use spvx_exec::{CompileOptions, CompiledModule, Resources, RunConfig};
use spvx_spirv::asm::{AsmOptions, assemble};
use spvx_spirv::grammar::Version;
use spvx_val::env::TargetEnv;

fn path(file: &str) -> String {
    format!("{}/tests/corpus/foreign/{file}", env!("CARGO_MANIFEST_DIR"))
}

/// Options validating for `env` (the environment the module was built for).
fn options(env: &str) -> CompileOptions {
    let mut opts = CompileOptions::default();
    opts.validation.target_env = TargetEnv::parse(env).unwrap_or_default();
    opts
}

/// Compiles entry point `entry` of `corpus/foreign/{name}.spv`.
fn module(name: &str, entry: &str, opts: &CompileOptions) -> CompiledModule {
    let file = path(&format!("{name}.spv"));
    let bytes = std::fs::read(&file).unwrap_or_else(|e| panic!("{file}: {e}"));
    CompiledModule::from_bytes(&bytes, entry, opts).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// spvx's own assembler gives the committed spirv-as words for the clspv modules (their
/// instructions are all in spvx's grammar; the DXC ones use NonSemantic.Shader.DebugInfo.100,
/// an extended instruction set spvx's assembler does not know by name).
#[test]
fn spvx_assembles_the_clspv_modules_as_spirv_as_does() {
    for name in [
        "clspv_struct_return",
        "clspv_read_constant_data",
        "clspv_stripe",
    ] {
        let text = std::fs::read_to_string(path(&format!("{name}.spvasm"))).unwrap_or_default();
        let opts = AsmOptions {
            version: Version::new(1, 0), // vulkan1.0
        };
        let asm = assemble(&text, &opts).unwrap_or_else(|e| panic!("{name}: {e}"));
        let want = std::fs::read(path(&format!("{name}.spv"))).unwrap_or_default();
        // Word 2 is the generator (spirv-as writes its own, spvx its own).
        let (got, want) = (words(&asm.bytes()), words(&want));
        assert_eq!(got.len(), want.len(), "{name}");
        let differ: Vec<usize> = (0..got.len())
            .filter(|&i| i != 2 && got[i] != want[i])
            .collect();
        assert!(differ.is_empty(), "{name}: words {differ:?} differ");
    }
}

fn le32(v: &[u32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

fn words(b: &[u8]) -> Vec<u32> {
    b.chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

fn run(m: &CompiledModule, res: &mut Resources, groups: u32) {
    let before = res.clone();
    let cfg = RunConfig {
        strict: true,
        ..RunConfig::default()
    };
    m.run(res, [groups, 1, 1], &cfg)
        .unwrap_or_else(|e| panic!("run failed: {e}"));
    // The same run on the JIT (where the module allows it) gives the same bytes.
    let mut again = before;
    let jit = m
        .with_jit_always()
        .run(&mut again, [groups, 1, 1], &RunConfig::default())
        .unwrap_or_else(|e| panic!("JIT run failed: {e}"));
    assert!(again == *res, "the JIT's outputs differ");
    assert!(
        !matches!(jit.jit, spvx_exec::JitUse::FellBack(_)),
        "{:?}",
        jit.jit
    );
}

/// clspv: `*data = choose(n)` with struct returns through two calls, phis of structs (one
/// from an OpUndef) and a merge block laid out before its other predecessor. choose(n) is
/// make_s2(n − 5) for n > 0 (signed), else make_s2(0); make_s2(v) fills all five ints with v.
#[test]
fn clspv_struct_returns_and_phis() {
    let m = module("clspv_struct_return", "main", &options("vulkan1.0"));
    let cases: [(i32, i32); 7] = [
        (13, 8),
        (6, 1),
        (5, 0),
        (0, 0),
        (-7, 0),
        (i32::MIN, 0),
        (i32::MAX, i32::MAX - 5),
    ];
    for (n, v) in cases {
        let mut res = Resources::new();
        res.set_buffer(0, 0, vec![0xaa; 20]);
        res.set_buffer(0, 1, le32(&[n as u32]));
        run(&m, &mut res, 3);
        assert_eq!(
            words(res.buffer(0, 0).unwrap_or_default()),
            [v as u32; 5],
            "n = {n}"
        );
    }
}

/// clspv: a `__constant float[10]` table (a Private array with its initialiser), the bound
/// min(inWidth as size_t, 10) through GLSL.std.450 UMin, and a phi. out[i] = 2^i when
/// i < min(inWidth, 10) (inWidth read as unsigned), else −1.
#[test]
fn clspv_constant_table() {
    let m = module(
        "clspv_read_constant_data",
        "ReadConstantData",
        &options("vulkan1.0"),
    );
    for width in [8i32, 100, 0, 3, -1] {
        let bound = (width as u32).min(10);
        let mut res = Resources::new();
        res.set_buffer(0, 0, vec![0; 4 * 20]);
        res.set_buffer(0, 1, le32(&[width as u32]));
        run(&m, &mut res, 20);
        let want: Vec<u32> = (0..20u32)
            .map(|i| {
                if i < bound {
                    (1u32 << i) as f32
                } else {
                    -1.0f32
                }
                .to_bits()
            })
            .collect();
        assert_eq!(
            words(res.buffer(0, 0).unwrap_or_default()),
            want,
            "inWidth = {width}"
        );
    }
}

/// clspv: `i >= -3` compiled to OpSGreaterThan of uint operands against 0xfffffffc: every
/// global id here is ≥ 0, so every element is 1.0 — with the workgroup size left at its
/// default (1) and set to 8 through the spec constant of SpecId 0 (clspv's
/// gl_WorkGroupSize).
#[test]
fn clspv_signed_compare_of_unsigned_ids() {
    for (local, groups) in [(1u64, 40u32), (8, 5)] {
        let mut opts = options("vulkan1.0");
        opts.spec_constants.insert(0, local);
        let m = module("clspv_stripe", "foo", &opts);
        let mut res = Resources::new();
        res.set_buffer(0, 0, vec![0; 4 * 40]);
        run(&m, &mut res, groups);
        assert_eq!(
            words(res.buffer(0, 0).unwrap_or_default()),
            vec![1.0f32.to_bits(); 40],
            "local size {local}"
        );
    }
}

/// DXC with NonSemantic.Shader.DebugInfo.100 (forward references through
/// OpExtInstWithForwardRefsKHR): output[id.x] = input[id.x], 10 invocations per workgroup;
/// the debug records change nothing.
#[test]
fn dxc_copy_with_debug_info() {
    let m = module("dxc_static_method", "main", &options("vulkan1.3"));
    let input: Vec<u32> = (0..20u32)
        .map(|i| i.wrapping_mul(0x9e37_79b9) ^ 0x55)
        .collect();
    let mut res = Resources::new();
    res.set_buffer(0, 0, le32(&input));
    res.set_buffer(0, 1, vec![0; 4 * 20]);
    run(&m, &mut res, 2);
    assert_eq!(words(res.buffer(0, 1).unwrap_or_default()), input);
}

/// DXC: RWByteAddressBuffer `data.Store(0, uint(int(data.Load(68))))` = word 0 ← word 17
/// (byte 68), through two bitcasts; the other words unchanged.
#[test]
fn dxc_byte_address_buffer() {
    let m = module("dxc_byte_address", "main", &options("vulkan1.2"));
    let data: Vec<u32> = (0..18u32).map(|i| 0x8000_0000 | (i * 1000 + 7)).collect();
    let mut res = Resources::new();
    res.set_buffer(0, 0, le32(&data));
    run(&m, &mut res, 1);
    let mut want = data.clone();
    want[0] = data[17];
    assert_eq!(words(res.buffer(0, 0).unwrap_or_default()), want);
}
