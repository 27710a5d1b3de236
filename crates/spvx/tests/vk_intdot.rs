//! Differential corpus for SPV_KHR_integer_dot_product: every instruction (OpSDot, OpUDot,
//! OpSUDot and their AccSat forms) at every component width (8, 16, 32, 64), vector length
//! (2, 3, 4 and packed 4×8) and result width (each of 8, 16, 32, 64 not below the component
//! width), run on the engine and on the Vulkan device (lavapipe in CI) over 8,192 inputs each
//! (> 1.6 million in all), with every boundary value (0, ±1, min and max of the width, min+1,
//! max−1) and accumulators at and next to the saturation limits.
//!
//! Each result is checked three ways: engine == device, and both == an exact reference
//! computed here with i128/num-bigint arithmetic from the extension text. The one exception
//! is the AccSat undefined case (docs/semantics/integer-dot.md "AccSat forms: the undefined case"): there
//! the engine must still give its documented value saturate(R + acc), and the device may give
//! anything; such elements are counted and printed, never failed.

mod vk_common;

use num_bigint::BigInt;
use spvx_vk::BufferData;
use std::collections::BTreeMap;
use vk_common::{SplitMix, asm, device, run_both};

/// Invocations per configuration.
const N_INPUTS: usize = 8192;
const LOCAL: usize = 64;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Family {
    Signed,
    Unsigned,
    Mixed,
}

#[derive(Clone, Copy, Debug)]
struct Config {
    family: Family,
    acc_sat: bool,
    /// Component width.
    w: u32,
    /// Components; 0 = packed 4×8 in a 32-bit scalar.
    n: u32,
    /// Result width.
    r: u32,
}

impl Config {
    fn packed(&self) -> bool {
        self.n == 0
    }
    fn comps(&self) -> usize {
        if self.packed() { 4 } else { self.n as usize }
    }
    fn opcode(&self) -> String {
        let base = match self.family {
            Family::Signed => "OpSDot",
            Family::Unsigned => "OpUDot",
            Family::Mixed => "OpSUDot",
        };
        if self.acc_sat {
            format!("{base}AccSat")
        } else {
            base.to_string()
        }
    }
}

/// Every configuration the device can run.
fn configs() -> Vec<Config> {
    let mut out = Vec::new();
    for family in [Family::Signed, Family::Unsigned, Family::Mixed] {
        for acc_sat in [false, true] {
            for w in [8u32, 16, 32, 64] {
                for n in [2u32, 3, 4] {
                    for r in [8u32, 16, 32, 64].into_iter().filter(|&r| r >= w) {
                        out.push(Config {
                            family,
                            acc_sat,
                            w,
                            n,
                            r,
                        });
                    }
                }
            }
            for r in [8u32, 16, 32, 64] {
                out.push(Config {
                    family,
                    acc_sat,
                    w: 8,
                    n: 0,
                    r,
                });
            }
        }
    }
    out
}

/// The module: out[i] = OP(a[i*n..], b[i*n..] (, acc[i])), one invocation per element.
fn module(c: &Config) -> String {
    let mut widths: Vec<u32> = vec![32, c.w, c.r];
    widths.sort_unstable();
    widths.dedup();
    let mut s = String::from("OpCapability Shader\n");
    for (w, cap, storage) in [
        (8, "Int8", "StorageBuffer8BitAccess"),
        (16, "Int16", "StorageBuffer16BitAccess"),
        (64, "Int64", ""),
    ] {
        if widths.contains(&w) {
            s += &format!("OpCapability {cap}\n");
            if !storage.is_empty() {
                s += &format!("OpCapability {storage}\n");
            }
        }
    }
    s += "OpCapability DotProduct\n";
    if c.packed() {
        s += "OpCapability DotProductInput4x8BitPacked\n";
    } else if c.w == 8 && c.n == 4 {
        s += "OpCapability DotProductInput4x8Bit\n";
    } else {
        s += "OpCapability DotProductInputAll\n";
    }
    s += "OpMemoryModel Logical GLSL450\n";
    s += "OpEntryPoint GLCompute %main \"main\" %gid %a %b %acc %out\n";
    s += &format!("OpExecutionMode %main LocalSize {LOCAL} 1 1\n");
    s += "OpDecorate %gid BuiltIn GlobalInvocationId\n";
    for w in &widths {
        s += &format!(
            "OpDecorate %arr{w} ArrayStride {}\nOpMemberDecorate %Buf{w} 0 Offset 0\nOpDecorate %Buf{w} Block\n",
            w / 8
        );
    }
    for (i, v) in ["a", "b", "acc", "out"].iter().enumerate() {
        s += &format!("OpDecorate %{v} DescriptorSet 0\nOpDecorate %{v} Binding {i}\n");
    }
    s += "%void = OpTypeVoid\n%fn = OpTypeFunction %void\n";
    for w in &widths {
        s += &format!(
            "%u{w} = OpTypeInt {w} 0\n%arr{w} = OpTypeRuntimeArray %u{w}\n%Buf{w} = OpTypeStruct %arr{w}\n%pBuf{w} = OpTypePointer StorageBuffer %Buf{w}\n%p{w} = OpTypePointer StorageBuffer %u{w}\n"
        );
    }
    let (cw, comps) = if c.packed() {
        (32, 1)
    } else {
        (c.w, c.n as usize)
    };
    // uvec3 is also the GlobalInvocationId type: declared once (no duplicate vector types).
    let same_as_v3 = c.w == 32 && c.n == 3;
    if !c.packed() && !same_as_v3 {
        s += &format!("%vec = OpTypeVector %u{} {}\n", c.w, c.n);
    }
    s += "%v3 = OpTypeVector %u32 3\n%pgid = OpTypePointer Input %v3\n%gid = OpVariable %pgid Input\n";
    s += &format!(
        "%a = OpVariable %pBuf{cw} StorageBuffer\n%b = OpVariable %pBuf{cw} StorageBuffer\n%acc = OpVariable %pBuf{r} StorageBuffer\n%out = OpVariable %pBuf{r} StorageBuffer\n",
        r = c.r
    );
    s += &format!("%c0 = OpConstant %u32 0\n%cn = OpConstant %u32 {comps}\n");
    for k in 1..comps {
        s += &format!("%k{k} = OpConstant %u32 {k}\n");
    }
    s += "%main = OpFunction %void None %fn\n%l = OpLabel\n%g = OpLoad %v3 %gid\n%i = OpCompositeExtract %u32 %g 0\n%base = OpIMul %u32 %i %cn\n";
    for v in ["a", "b"] {
        for k in 0..comps {
            let idx = if k == 0 {
                "%base".to_string()
            } else {
                s += &format!("%{v}i{k} = OpIAdd %u32 %base %k{k}\n");
                format!("%{v}i{k}")
            };
            s += &format!(
                "%{v}p{k} = OpAccessChain %p{cw} %{v} %c0 {idx}\n%{v}{k} = OpLoad %u{cw} %{v}p{k}\n"
            );
        }
        if !c.packed() {
            let parts: Vec<String> = (0..comps).map(|k| format!("%{v}{k}")).collect();
            s += &format!("%{v}v = OpCompositeConstruct %vec {}\n", parts.join(" "));
        }
    }
    let (x, y) = if c.packed() {
        ("%a0", "%b0")
    } else {
        ("%av", "%bv")
    };
    let r = c.r;
    let acc = if c.acc_sat {
        s += &format!("%accp = OpAccessChain %p{r} %acc %c0 %i\n%accv = OpLoad %u{r} %accp\n");
        " %accv"
    } else {
        ""
    };
    let packed = if c.packed() {
        " PackedVectorFormat4x8Bit"
    } else {
        ""
    };
    s += &format!("%res = {} %u{r} {x} {y}{acc}{packed}\n", c.opcode());
    s += &format!(
        "%outp = OpAccessChain %p{r} %out %c0 %i\nOpStore %outp %res\nOpReturn\nOpFunctionEnd\n"
    );
    if same_as_v3 {
        s.replace("%vec ", "%v3 ")
    } else {
        s
    }
}

/// Bits of width w → its value, signed or not.
fn value(bits: u64, w: u32, signed: bool) -> i128 {
    let mask = if w == 64 { u64::MAX } else { (1 << w) - 1 };
    let b = bits & mask;
    if signed && (b >> (w - 1)) & 1 == 1 {
        i128::from(b) - (1i128 << w)
    } else {
        i128::from(b)
    }
}

fn range(r: u32, signed: bool) -> (i128, i128) {
    if signed {
        (-(1i128 << (r - 1)), (1i128 << (r - 1)) - 1)
    } else {
        (0, (1i128 << r) - 1)
    }
}

/// A component: a boundary value half of the time, else random bits.
fn component(rng: &mut SplitMix, w: u32) -> u64 {
    let mask = if w == 64 { u64::MAX } else { (1 << w) - 1 };
    let smin = 1u64 << (w - 1);
    let edges = [0, 1, mask, smin, smin - 1, smin + 1, smin - 2, 2, mask - 1];
    if rng.below(2) == 0 {
        edges[rng.below(edges.len() as u64) as usize]
    } else {
        rng.next() & mask
    }
}

/// The exact products of the components, extended as the instruction says.
fn products(c: &Config, a: &[u64], b: &[u64]) -> Vec<BigInt> {
    let (sa, sb) = match c.family {
        Family::Signed => (true, true),
        Family::Unsigned => (false, false),
        Family::Mixed => (true, false),
    };
    a.iter()
        .zip(b)
        .map(|(&x, &y)| BigInt::from(value(x, c.w, sa)) * BigInt::from(value(y, c.w, sb)))
        .collect()
}

/// The exact reference for one invocation, and whether the AccSat form is undefined.
fn reference(c: &Config, a: &[u64], b: &[u64], acc: u64) -> (u64, bool) {
    let products = products(c, a, b);
    let sum: BigInt = products.iter().sum();
    let rmask = if c.r == 64 { u64::MAX } else { (1 << c.r) - 1 };
    if !c.acc_sat {
        let m = BigInt::from(1u8) << c.r;
        let low = ((sum % &m) + &m) % &m;
        return (u64::try_from(low).unwrap_or(0) & rmask, false);
    }
    let signed = c.family != Family::Unsigned;
    let (lo, hi) = range(c.r, signed);
    let (lo, hi) = (BigInt::from(lo), BigInt::from(hi));
    let product_out = products.iter().any(|p| *p < lo || *p > hi);
    let pos: BigInt = products.iter().filter(|p| **p > BigInt::from(0)).sum();
    let neg: BigInt = products.iter().filter(|p| **p < BigInt::from(0)).sum();
    let undefined = product_out || pos > hi || neg < lo;
    let total = sum + BigInt::from(value(acc, c.r, signed));
    let sat = total.clamp(lo, hi);
    let bits = if sat < BigInt::from(0) {
        sat + (BigInt::from(1u8) << c.r)
    } else {
        sat
    };
    (u64::try_from(bits).unwrap_or(0) & rmask, undefined)
}

/// An accumulator: a boundary of the result range, or one that puts acc + R at or next to a
/// saturation limit, or random bits.
fn accumulator(rng: &mut SplitMix, c: &Config, a: &[u64], b: &[u64]) -> u64 {
    let signed = c.family != Family::Unsigned;
    let (lo, hi) = range(c.r, signed);
    let rmask = if c.r == 64 { u64::MAX } else { (1 << c.r) - 1 };
    let to_bits = |v: i128| (v.clamp(lo, hi) as u64) & rmask;
    // R itself when it fits i128 (else 0: the boundaries then are plain range limits).
    let r = i128::try_from(products(c, a, b).iter().sum::<BigInt>()).unwrap_or(0);
    let near = |limit: i128, d: i128| limit.saturating_sub(r).saturating_add(d);
    match rng.below(4) {
        0 => to_bits([0, 1, -1, lo, hi, lo + 1, hi - 1][rng.below(7) as usize]),
        1 => to_bits(near(hi, rng.below(3) as i128 - 1)),
        2 => to_bits(near(lo, rng.below(3) as i128 - 1)),
        _ => rng.next() & rmask,
    }
}

fn le(values: &[u64], w: u32) -> Vec<u8> {
    values
        .iter()
        .flat_map(|v| v.to_le_bytes()[..(w / 8) as usize].to_vec())
        .collect()
}

fn element(bytes: &[u8], i: usize, w: u32) -> u64 {
    let n = (w / 8) as usize;
    let mut b = [0u8; 8];
    b[..n].copy_from_slice(&bytes[i * n..(i + 1) * n]);
    u64::from_le_bytes(b)
}

#[test]
fn every_integer_dot_product_form_agrees_with_the_device_and_the_exact_reference() {
    let Some(dev) = device() else { return };
    let mut total_inputs = 0usize;
    let mut undefined_differences = 0usize;
    let mut undefined_inputs = 0usize;
    let mut failures = Vec::new();
    for (ci, c) in configs().iter().enumerate() {
        let mut rng = SplitMix(0x5eed_0000 + ci as u64);
        let comps = c.comps();
        let mut a = Vec::with_capacity(N_INPUTS * comps);
        let mut b = Vec::with_capacity(N_INPUTS * comps);
        let mut acc = Vec::with_capacity(N_INPUTS);
        for _ in 0..N_INPUTS {
            let xa: Vec<u64> = (0..comps).map(|_| component(&mut rng, c.w)).collect();
            let xb: Vec<u64> = (0..comps).map(|_| component(&mut rng, c.w)).collect();
            acc.push(accumulator(&mut rng, c, &xa, &xb));
            a.extend(xa);
            b.extend(xb);
        }
        let (abytes, bbytes) = if c.packed() {
            let pack = |v: &[u64]| -> Vec<u8> { v.iter().map(|&x| x as u8).collect() };
            (pack(&a), pack(&b))
        } else {
            (le(&a, c.w), le(&b, c.w))
        };
        let words = asm(&module(c));
        let buffers = vec![
            BufferData {
                set: 0,
                binding: 0,
                bytes: abytes,
            },
            BufferData {
                set: 0,
                binding: 1,
                bytes: bbytes,
            },
            BufferData {
                set: 0,
                binding: 2,
                bytes: le(&acc, c.r),
            },
            BufferData {
                set: 0,
                binding: 3,
                bytes: vec![0; N_INPUTS * (c.r / 8) as usize],
            },
        ];
        let groups = [(N_INPUTS / LOCAL) as u32, 1, 1];
        let out = run_both(&dev, &words, groups, buffers, None, BTreeMap::new());
        let (eng, devb) = (&out.engine[3].bytes, &out.device[3].bytes);
        for i in 0..N_INPUTS {
            let (want, undefined) = reference(
                c,
                &a[i * comps..(i + 1) * comps],
                &b[i * comps..(i + 1) * comps],
                acc[i],
            );
            let (e, d) = (element(eng, i, c.r), element(devb, i, c.r));
            undefined_inputs += usize::from(undefined);
            if e != want {
                failures.push(format!(
                    "{c:?} input {i}: engine {e:#x}, reference {want:#x} (a {:x?}, b {:x?}, acc {:#x})",
                    &a[i * comps..(i + 1) * comps],
                    &b[i * comps..(i + 1) * comps],
                    acc[i]
                ));
            }
            if d != want {
                if undefined {
                    undefined_differences += 1;
                } else {
                    failures.push(format!(
                        "{c:?} input {i}: device {d:#x}, engine and reference {want:#x} (a {:x?}, b {:x?}, acc {:#x})",
                        &a[i * comps..(i + 1) * comps],
                        &b[i * comps..(i + 1) * comps],
                        acc[i]
                    ));
                }
            }
        }
        total_inputs += N_INPUTS;
    }
    eprintln!(
        "{} configurations, {total_inputs} inputs on {}; {undefined_inputs} AccSat inputs in the undefined case, {undefined_differences} of them differ on the device (documented undefined)",
        configs().len(),
        dev.report()
    );
    assert!(total_inputs >= 1_000_000);
    assert!(
        failures.is_empty(),
        "{} failures, first ones:\n{}",
        failures.len(),
        failures[..failures.len().min(20)].join("\n")
    );
}

#[test]
fn the_reference_by_hand() {
    // sdot(i8 [-128, -128], [-128, -128]) = 32768: low 16 bits 0x8000; acc-sat at 16 bits is
    // undefined (each product 16384 fits, the sum 32768 does not).
    let c = Config {
        family: Family::Signed,
        acc_sat: false,
        w: 8,
        n: 2,
        r: 16,
    };
    assert_eq!(
        reference(&c, &[0x80, 0x80], &[0x80, 0x80], 0),
        (0x8000, false)
    );
    let c = Config { acc_sat: true, ..c };
    assert_eq!(
        reference(&c, &[0x80, 0x80], &[0x80, 0x80], 0),
        (0x7fff, true)
    );
    // sudot(i8 -1, u8 255) = -255; acc -32768 saturates to -32768, defined.
    let c = Config {
        family: Family::Mixed,
        ..c
    };
    assert_eq!(
        reference(&c, &[0xff, 0], &[0xff, 0], 0x8000),
        (0x8000, false)
    );
    // udot(u8 [255, 255], [255, 255]) = 130050 at 32 bits; acc 0xffff_ffff saturates.
    let c = Config {
        family: Family::Unsigned,
        r: 32,
        ..c
    };
    assert_eq!(
        reference(&c, &[0xff, 0xff], &[0xff, 0xff], 0xffff_ffff),
        (0xffff_ffff, false)
    );
    let c = Config {
        acc_sat: false,
        ..c
    };
    assert_eq!(
        reference(&c, &[0xff, 0xff], &[0xff, 0xff], 0),
        (130050, false)
    );
}
