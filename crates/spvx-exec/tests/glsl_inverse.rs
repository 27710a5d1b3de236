//! GLSL.std.450 MatrixInverse (and Determinant) zero signs: each entry of the inverse is the
//! cofactor (a minor negated at odd positions, the minor by Laplace expansion along the first
//! row as written) over the determinant, so a zero entry carries the sign IEEE arithmetic gives
//! that formula (docs/semantics/arithmetic.md, "Determinant, MatrixInverse"). The VK-GL-CTS
//! expects −0.0 at the odd off-diagonal positions of a diagonal fp16 3×3 matrix's inverse; spvx
//! gave +0.0. Expected values are worked out by hand in the comments (exact rationals, all
//! representable in every format), and compared as bits, at fp16, fp32 and fp64, on the
//! interpreter and on the JIT.

use spvx_exec::{CompileOptions, CompiledModule, Resources, RunConfig};
use spvx_spirv::asm::{AsmOptions, assemble};

/// A module storing MatrixInverse of the constant n×n matrix `cols` (column by column) of
/// `width`-bit floats into a buffer, column by column.
fn module(width: u32, n: usize, cols: &[f64]) -> String {
    let (caps, ext) = match width {
        16 => (
            "OpCapability Float16\nOpCapability StorageBuffer16BitAccess\n",
            "OpExtension \"SPV_KHR_16bit_storage\"\n",
        ),
        64 => ("OpCapability Float64\n", ""),
        _ => ("", ""),
    };
    let mut s = format!(
        "OpCapability Shader\n{caps}{ext}%glsl = OpExtInstImport \"GLSL.std.450\"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main \"main\" %out
OpExecutionMode %main LocalSize 1 1 1
OpDecorate %rarr ArrayStride {stride}
OpMemberDecorate %Buf 0 Offset 0
OpDecorate %Buf Block
OpDecorate %out DescriptorSet 0
OpDecorate %out Binding 0
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%f = OpTypeFloat {width}
%v = OpTypeVector %f {n}
%m = OpTypeMatrix %v {n}
%rarr = OpTypeRuntimeArray %f
%Buf = OpTypeStruct %rarr
%pbuf = OpTypePointer StorageBuffer %Buf
%pf = OpTypePointer StorageBuffer %f
%out = OpVariable %pbuf StorageBuffer
%u0 = OpConstant %uint 0
",
        stride = width / 8
    );
    for (k, x) in cols.iter().enumerate() {
        s += &format!("%e{k} = OpConstant %f {x:?}\n");
    }
    for c in 0..n {
        let parts: Vec<String> = (0..n).map(|r| format!("%e{}", c * n + r)).collect();
        s += &format!("%c{c} = OpConstantComposite %v {}\n", parts.join(" "));
    }
    let cs: Vec<String> = (0..n).map(|c| format!("%c{c}")).collect();
    s += &format!("%mat = OpConstantComposite %m {}\n", cs.join(" "));
    for k in 0..n * n {
        s += &format!("%i{k} = OpConstant %uint {k}\n");
    }
    s += "%main = OpFunction %void None %fn\n%entry = OpLabel\n";
    s += "%inv = OpExtInst %m %glsl MatrixInverse %mat\n";
    for c in 0..n {
        for r in 0..n {
            let k = c * n + r;
            s += &format!(
                "%x{k} = OpCompositeExtract %f %inv {c} {r}\n%p{k} = OpAccessChain %pf %out %u0 %i{k}\nOpStore %p{k} %x{k}\n"
            );
        }
    }
    s + "OpReturn\nOpFunctionEnd\n"
}

/// The bits of `x` (exactly representable) in the `width`-bit format.
fn bits(width: u32, x: f64) -> u64 {
    match width {
        16 => {
            // Every expected value here is 0 or ±2^k with −4 ≤ k ≤ 1, or ±1.5, ±0.5, …: exact.
            let b = x.to_bits();
            let sign = (b >> 63) << 15;
            if x == 0.0 {
                return sign;
            }
            let e = ((b >> 52) & 0x7ff) as i64 - 1023 + 15;
            let m = (b >> 42) & 0x3ff;
            assert!((1..31).contains(&e) && b & ((1 << 42) - 1) == 0, "{x}");
            sign | (e as u64) << 10 | m
        }
        32 => (x as f32).to_bits() as u64,
        _ => x.to_bits(),
    }
}

fn check(n: usize, cols: &[f64], expected_cols: &[f64]) {
    for width in [16u32, 32, 64] {
        let text = module(width, n, cols);
        let asm = assemble(&text, &AsmOptions::default()).unwrap_or_else(|e| panic!("{e}"));
        let m = CompiledModule::from_bytes(&asm.bytes(), "main", &CompileOptions::default())
            .unwrap_or_else(|e| panic!("{e}"));
        for jit in [false, true] {
            let cfg = RunConfig {
                jit,
                ..RunConfig::default()
            };
            let mut res = Resources::new();
            res.set_buffer(0, 0, vec![0; n * n * width as usize / 8]);
            m.run(&mut res, [1, 1, 1], &cfg)
                .unwrap_or_else(|e| panic!("{e}"));
            let out = res.buffer(0, 0).unwrap_or_default();
            let w = width as usize / 8;
            for (k, &x) in expected_cols.iter().enumerate() {
                let mut b = [0u8; 8];
                b[..w].copy_from_slice(&out[k * w..k * w + w]);
                let got = u64::from_le_bytes(b);
                assert_eq!(
                    got,
                    bits(width, x),
                    "f{width} {n}×{n} jit={jit}: leaf {k} (column {}, row {}): expected {x:?}",
                    k / n,
                    k % n
                );
            }
        }
    }
}

/// 2×2: inverse = (1/det)·[[d, −b], [−c, a]] for rows [[a, b], [c, d]].
#[test]
fn inverse_2x2_zero_signs() {
    // diag(2, 4): det 8; −b/8 = −(+0)/8 = −0, −c/8 = −0.
    check(2, &[2.0, 0.0, 0.0, 4.0], &[0.5, -0.0, -0.0, 0.25]);
    // diag(−2, 4): det −8; d/det = −0.5, −b/det = −0/−8 = +0, a/det = 0.25.
    check(2, &[-2.0, 0.0, 0.0, 4.0], &[-0.5, 0.0, 0.0, 0.25]);
    // rows [[2, −0], [+0, 4]]: −b/8 = +0, −c/8 = −0. Columns: (2, +0), (−0, 4).
    check(2, &[2.0, 0.0, -0.0, 4.0], &[0.5, -0.0, 0.0, 0.25]);
    // rows [[1, 2], [3, 4]]: det −2; inverse rows [[−2, 1], [1.5, −0.5]].
    check(2, &[1.0, 3.0, 2.0, 4.0], &[-2.0, 1.5, 1.0, -0.5]);
}

/// 3×3: inverse[r][c] = (−1)^(r+c)·M(c, r)/det, M(c, r) = a·d − b·c of the 2×2 left after
/// removing row c and column r.
#[test]
fn inverse_3x3_zero_signs() {
    // diag(2, 4, 8), det 64: every off-diagonal minor is +0 (0·x − 0·y = +0 − +0); negated at
    // odd r+c: inverse rows [[0.5, −0, +0], [−0, 0.25, −0], [+0, −0, 0.125]] (the CTS case).
    check(
        3,
        &[2.0, 0.0, 0.0, 0.0, 4.0, 0.0, 0.0, 0.0, 8.0],
        &[0.5, -0.0, 0.0, -0.0, 0.25, -0.0, 0.0, -0.0, 0.125],
    );
    // diag(2, −4, 8), det −64. M(1,0) = [[0,0],[0,8]] = +0 → −0/−64 = +0; M(0,1) likewise +0;
    // M(2,0) = [[0,0],[−4,0]] = 0·0 − 0·(−4) = +0 − (−0) = +0 → +0/−64 = −0; M(0,2) =
    // [[0,−4],[0,0]] = +0 − (−0) = +0 → −0; M(2,1), M(1,2) = [[2,0],[0,0]] = +0, odd → +0.
    // Diagonal: (−32)/−64 = 0.5, 16/−64 = −0.25, (−8)/−64 = 0.125.
    // Rows [[0.5, +0, −0], [+0, −0.25, +0], [−0, +0, 0.125]] (symmetric: columns the same).
    check(
        3,
        &[2.0, 0.0, 0.0, 0.0, -4.0, 0.0, 0.0, 0.0, 8.0],
        &[0.5, 0.0, -0.0, 0.0, -0.25, 0.0, -0.0, 0.0, 0.125],
    );
    // rows [[1, 2, 0], [0, 1, 0], [0, 0, 2]], det 2: inverse rows
    // [[1, −4/2, +0/2], [−(+0)/2, 1, −(+0)/2], [+0/2, −(+0)/2, 0.5]]
    // = [[1, −2, +0], [−0, 1, −0], [+0, −0, 0.5]]; columns: (1, −0, +0), (−2, 1, −0), (+0, −0, 0.5).
    check(
        3,
        &[1.0, 0.0, 0.0, 2.0, 1.0, 0.0, 0.0, 0.0, 2.0],
        &[1.0, -0.0, 0.0, -2.0, 1.0, -0.0, 0.0, -0.0, 0.5],
    );
}

/// 4×4: the 3×3 minors by Laplace expansion along their first row.
#[test]
fn inverse_4x4_zero_signs() {
    // diag(2, 4, 8, 16), det 1024: an off-diagonal minor's first row is zeros; its terms
    // +0·M0, −(0·M1), +0·M2 with M0, M2 ≥ +0 give +0 + … = +0 (not all −0): the inverse's
    // off-diagonal zeros are −0 at odd r+c, +0 at even; diagonal 1/2, 1/4, 1/8, 1/16.
    let mut cols = vec![0.0; 16];
    let mut exp = vec![0.0; 16];
    for c in 0..4 {
        for r in 0..4 {
            if r == c {
                cols[c * 4 + r] = 2f64.powi(c as i32 + 1);
                exp[c * 4 + r] = 2f64.powi(-(c as i32 + 1));
            } else if (r + c) % 2 == 1 {
                exp[c * 4 + r] = -0.0;
            }
        }
    }
    check(4, &cols, &exp);
}
