//! DebugPrintf: the glslang shader printf.comp (records, their order, their text) and the
//! formatting of single directives, both against glibc's snprintf (called through FFI) as the
//! independent reference.

mod glsl_corpus;

use glsl_corpus::{Rng, module};
use spvx_exec::exec::printf::format_one;
use spvx_exec::program::print::Conv;
use spvx_exec::{Resources, RunConfig};
use std::ffi::{CString, c_char, c_int};

unsafe extern "C" {
    fn snprintf(buf: *mut c_char, n: usize, fmt: *const c_char, ...) -> c_int;
}

/// glibc's snprintf of a format with one double argument.
fn c_double(fmt: &str, x: f64) -> String {
    let f = CString::new(fmt).unwrap_or_default();
    let mut buf = vec![0u8; 512];
    // SAFETY: the buffer is 512 bytes and snprintf writes at most that many.
    let n = unsafe { snprintf(buf.as_mut_ptr().cast(), buf.len(), f.as_ptr(), x) };
    buf.truncate(n.clamp(0, 511) as usize);
    String::from_utf8_lossy(&buf).into_owned()
}

/// glibc's snprintf of a format with one 64-bit integer argument (`ll` directives).
fn c_long(fmt: &str, x: i64) -> String {
    let f = CString::new(fmt).unwrap_or_default();
    let mut buf = vec![0u8; 512];
    // SAFETY: as above.
    let n = unsafe { snprintf(buf.as_mut_ptr().cast(), buf.len(), f.as_ptr(), x) };
    buf.truncate(n.clamp(0, 511) as usize);
    String::from_utf8_lossy(&buf).into_owned()
}

fn conv(flags: &str, width: Option<usize>, precision: Option<usize>, c: char, bits: u32) -> Conv {
    Conv {
        left: flags.contains('-'),
        plus: flags.contains('+'),
        space: flags.contains(' '),
        zero: flags.contains('0'),
        alt: flags.contains('#'),
        width,
        precision,
        conversion: c,
        slot: 0,
        count: 1,
        bits,
    }
}

fn directive(
    flags: &str,
    width: Option<usize>,
    precision: Option<usize>,
    len: &str,
    c: char,
) -> String {
    let mut s = format!("%{flags}");
    if let Some(w) = width {
        s += &w.to_string();
    }
    if let Some(p) = precision {
        s += &format!(".{p}");
    }
    format!("{s}{len}{c}")
}

/// Float directives on random doubles and floats (bit patterns of every kind) with random
/// flags, widths and precisions.
#[test]
fn float_directives_match_glibc() {
    let mut rng = Rng(81);
    let flags = ["", "-", "+", " ", "0", "#", "+0", "-#", " 0#"];
    for _ in 0..20000 {
        let r = rng.next();
        let (bits, width_bits, x) = match r % 3 {
            0 => (r, 64, f64::from_bits(r)),
            1 => {
                let b = (rng.next() >> 32) as u32;
                (u64::from(b), 32, f64::from(f32::from_bits(b)))
            }
            _ => {
                // Moderate magnitudes, where fixed notation is readable.
                let v = (rng.next() as i64 >> 20) as f64 * 2f64.powi(-((rng.next() % 40) as i32));
                (v.to_bits(), 64, v)
            }
        };
        let c = ['f', 'e', 'E', 'g', 'G', 'a'][(rng.next() % 6) as usize];
        let fl = flags[(rng.next() % flags.len() as u64) as usize];
        let width = rng
            .next()
            .is_multiple_of(3)
            .then(|| (rng.next() % 30) as usize);
        let prec = if c == 'a' {
            None
        } else {
            rng.next()
                .is_multiple_of(2)
                .then(|| (rng.next() % 20) as usize)
        };
        if c == 'f' && x.abs() > 1e30 {
            continue;
        }
        let want = c_double(&directive(fl, width, prec, "", c), x);
        let got = format_one(&conv(fl, width, prec, c, width_bits), bits);
        assert_eq!(got, want, "{} of {x:e}", directive(fl, width, prec, "", c));
    }
}

/// Integer directives at 8, 16, 32 and 64 bits.
#[test]
fn integer_directives_match_glibc() {
    let mut rng = Rng(91);
    let flags = ["", "-", "+", " ", "0", "#", "-+", "#0"];
    for _ in 0..20000 {
        let bits = [8u32, 16, 32, 64][(rng.next() % 4) as usize];
        let raw = rng.next() >> (rng.next() % 64);
        let masked = if bits == 64 {
            raw
        } else {
            raw & ((1 << bits) - 1)
        };
        let c = ['d', 'i', 'u', 'x', 'X', 'o'][(rng.next() % 6) as usize];
        let fl = flags[(rng.next() % flags.len() as u64) as usize];
        let width = rng
            .next()
            .is_multiple_of(3)
            .then(|| (rng.next() % 25) as usize);
        let prec = rng
            .next()
            .is_multiple_of(4)
            .then(|| (rng.next() % 22) as usize);
        // The value C sees: sign-extended for d/i, zero-extended otherwise.
        let v = if matches!(c, 'd' | 'i') && bits < 64 {
            ((masked << (64 - bits)) as i64) >> (64 - bits)
        } else {
            masked as i64
        };
        let want = c_long(&directive(fl, width, prec, "ll", c), v);
        let got = format_one(&conv(fl, width, prec, c, bits), masked);
        assert_eq!(
            got,
            want,
            "{} of {masked:#x} ({bits} bits)",
            directive(fl, width, prec, "", c)
        );
    }
}

/// printf.comp on 2 workgroups of 4×2: one record per call, ordered by workgroup, then
/// LocalInvocationIndex, then program order; texts as glibc formats them.
#[test]
fn shader_records_in_order() {
    let m = module("printf.comp");
    let f: Vec<f32> = vec![
        0.5,
        -1.25,
        3.0e-5,
        1234.5678,
        -0.0,
        1e10,
        2.0f32.sqrt(),
        -7.125,
    ];
    let mut res = Resources::new();
    res.set_buffer(0, 0, f.iter().flat_map(|x| x.to_le_bytes()).collect());
    for subgroup_size in [1, 4, 32] {
        let cfg = RunConfig {
            subgroup_size,
            ..RunConfig::default()
        };
        let report = m
            .run(&mut res, [2, 1, 1], &cfg)
            .unwrap_or_else(|e| panic!("{e}"));
        let mut want = Vec::new();
        for wg in 0..2u32 {
            for i in 0..8u32 {
                let (lx, ly) = (i % 4, i / 4);
                let x = f64::from(f[i as usize]);
                let gid = [wg * 4 + lx, ly, 0];
                if ly == 1 {
                    let t = format!(
                        "wg {wg} inv {i}: x={} e={} g={} a={}",
                        c_double("%f", x),
                        c_double("%e", x),
                        c_double("%g", x),
                        c_double("%a", x)
                    );
                    want.push((wg, [lx, ly, 0], gid, t));
                }
                let t = format!(
                    "{} {} {} {} {} {}% {}, {}, {}",
                    i as i32 - 3,
                    -(i as i32),
                    c_long("%x", 255 + i as i64),
                    "ABC",
                    c_long("%o", 8 + i as i64),
                    c_double("%5.2f", x),
                    gid[0],
                    gid[1],
                    gid[2]
                );
                want.push((wg, [lx, ly, 0], gid, t));
            }
        }
        let got: Vec<_> = report
            .prints
            .iter()
            .map(|p| {
                (
                    p.workgroup[0],
                    p.local_invocation,
                    p.global_invocation,
                    p.text.clone(),
                )
            })
            .collect();
        assert_eq!(got, want, "subgroup size {subgroup_size}");
        assert!(report.prints.iter().all(|p| p.workgroup[1..] == [0, 0]));
    }
}
