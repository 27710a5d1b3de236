//! Every pattern of f16, bf16, e4m3, e5m2 and tf32 through conversion to every format, under
//! every rounding mode, with and without saturation, compared with the independent table-based
//! oracle of `float_ref` (its own decoder; neighbours found in a sorted table of all values).

mod float_ref;
use float_ref::*;
use spvx_num::float::convert;

fn check_source(src: RefFormat) {
    let oracle = Oracle::new();
    let lib_src = lib_format(src);
    let mut failures = Vec::new();
    for i in 0..src.count_patterns() {
        let bits = src.pattern(i);
        for dst in ALL {
            let lib_dst = lib_format(dst);
            for mode in MODES {
                for sat in [false, true] {
                    let want = oracle.expected(src, bits, dst, mode, sat);
                    let got = convert(lib_src, bits, lib_dst, lib_mode(mode), sat);
                    if got != want && failures.len() < 20 {
                        failures.push(format!(
                            "{} {bits:#x} -> {} {mode:?} sat={sat}: got {got:#x} want {want:#x}",
                            src.name, dst.name
                        ));
                    }
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn all_f16_patterns() {
    check_source(F16);
}

#[test]
fn all_bf16_patterns() {
    check_source(BF16);
}

#[test]
fn all_fp8_patterns() {
    check_source(E4M3);
    check_source(E5M2);
}

#[test]
fn all_tf32_patterns() {
    check_source(TF32);
}
