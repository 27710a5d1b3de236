//! Packed 4×8 dot products over slices (32-bit results): every backend this CPU has is checked
//! against an independent per-word reference written here in `i64` arithmetic (bytes read with
//! `as i8`/`as u8`, saturation by comparison with the 32-bit bounds), on random words and on
//! edge words (0x80 bytes, all-0xFF, 0x7F, mixed), with accumulators at and near the saturation
//! bounds and lengths that leave SIMD tails. The single-word `DotSpec` path is checked against
//! the same reference, and the component order of PackedVectorFormat4x8Bit against the spec.

use proptest::prelude::*;
use spvx_num::intdot::{
    self, Backend, DotKind, DotSpec, IntDotError, packed4x8_acc_sat_slice, packed4x8_slice,
    unpack4x8,
};

const KINDS: [DotKind; 3] = [DotKind::Signed, DotKind::Unsigned, DotKind::Mixed];

fn reference_dot(kind: DotKind, a: u32, b: u32) -> i64 {
    let (sa, sb) = match kind {
        DotKind::Signed => (true, true),
        DotKind::Unsigned => (false, false),
        DotKind::Mixed => (true, false),
    };
    let byte = |w: u32, i: u32, signed: bool| -> i64 {
        let v = (w >> (8 * i)) & 0xff;
        if signed {
            v as u8 as i8 as i64
        } else {
            v as i64
        }
    };
    (0..4).map(|i| byte(a, i, sa) * byte(b, i, sb)).sum()
}

fn reference_acc_sat(kind: DotKind, a: u32, b: u32, acc: u32) -> u32 {
    let d = reference_dot(kind, a, b);
    if kind == DotKind::Unsigned {
        let t = acc as i64 + d;
        if t > u32::MAX as i64 {
            u32::MAX
        } else {
            t as u32
        }
    } else {
        let t = acc as i32 as i64 + d;
        if t > i32::MAX as i64 {
            i32::MAX as u32
        } else if t < i32::MIN as i64 {
            i32::MIN as u32
        } else {
            t as i32 as u32
        }
    }
}

fn available() -> Vec<Backend> {
    static REPORT: std::sync::Once = std::sync::Once::new();
    let list: Vec<Backend> = Backend::ALL
        .into_iter()
        .filter(|b| b.is_available())
        .collect();
    REPORT.call_once(|| eprintln!("packed 4x8 backends exercised on this CPU: {list:?}"));
    list
}

const EDGE_WORDS: [u32; 10] = [
    0,
    0x8080_8080,
    0xffff_ffff,
    0x7f7f_7f7f,
    0x0101_0101,
    0x80ff_7f00,
    0x7f80_ff01,
    0xff00_ff00,
    0x8000_0000,
    0x0000_0080,
];
const EDGE_ACCS: [u32; 10] = [
    0,
    1,
    0x7fff_ffff,
    0x8000_0000,
    0xffff_ffff,
    0x7fff_0000,
    0x8000_ffff,
    0xfffc_0000,
    0x7ffc_0000,
    0x8003_0000,
];

fn check_all(a: &[u32], b: &[u32], acc: &[u32]) {
    // Every backend agrees with the portable one (and, below, each with the reference).
    for kind in KINDS {
        let mut portable = vec![0u32; a.len()];
        packed4x8_acc_sat_slice(Backend::Portable, kind, a, b, acc, &mut portable).unwrap();
        for backend in available() {
            let mut out = vec![0u32; a.len()];
            packed4x8_acc_sat_slice(backend, kind, a, b, acc, &mut out).unwrap();
            assert_eq!(out, portable, "{backend} vs portable, {kind:?}");
        }
    }
    for backend in available() {
        for kind in KINDS {
            let mut out = vec![0u32; a.len()];
            packed4x8_slice(backend, kind, a, b, &mut out).unwrap();
            for i in 0..a.len() {
                assert_eq!(
                    out[i],
                    reference_dot(kind, a[i], b[i]) as u32,
                    "{backend} {kind:?} plain {:#x}·{:#x}",
                    a[i],
                    b[i]
                );
            }
            packed4x8_acc_sat_slice(backend, kind, a, b, acc, &mut out).unwrap();
            for i in 0..a.len() {
                assert_eq!(
                    out[i],
                    reference_acc_sat(kind, a[i], b[i], acc[i]),
                    "{backend} {kind:?} accsat {:#x}·{:#x}+{:#x}",
                    a[i],
                    b[i],
                    acc[i]
                );
            }
        }
    }
}

/// All edge word pairs with all edge accumulators, laid out in a slice of length 1000 (not a
/// multiple of 8 or 16, so every SIMD kernel also runs its tail).
#[test]
fn edge_words_and_saturation_bounds() {
    let (mut a, mut b, mut acc) = (vec![], vec![], vec![]);
    for &x in &EDGE_WORDS {
        for &y in &EDGE_WORDS {
            for &c in &EDGE_ACCS {
                a.push(x);
                b.push(y);
                acc.push(c);
            }
        }
    }
    check_all(&a, &b, &acc);
    for len in 0..40 {
        check_all(&a[..len], &b[..len], &acc[..len]);
    }
}

/// Accumulators within ±260100 of the bounds, where the final addition saturates or just fails to.
#[test]
fn accumulators_straddling_the_bounds() {
    let mut rng = 0x1234_5678_9abc_def0u64;
    let mut next = || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng
    };
    let n = 4099;
    let a: Vec<u32> = (0..n).map(|_| next() as u32).collect();
    let b: Vec<u32> = (0..n).map(|_| next() as u32).collect();
    let acc: Vec<u32> = (0..n)
        .map(|i| {
            let off = (next() % 520_201) as u32;
            match i % 4 {
                0 => 0x7fff_ffffu32.wrapping_sub(off),
                1 => 0x8000_0000u32.wrapping_add(off),
                2 => 0xffff_ffffu32.wrapping_sub(off),
                _ => off,
            }
        })
        .collect();
    check_all(&a, &b, &acc);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn random_slices(words in prop::collection::vec((any::<u32>(), any::<u32>(), any::<u32>()), 0..100)) {
        let a: Vec<u32> = words.iter().map(|w| w.0).collect();
        let b: Vec<u32> = words.iter().map(|w| w.1).collect();
        let acc: Vec<u32> = words.iter().map(|w| w.2).collect();
        check_all(&a, &b, &acc);
    }

    /// The general single-lane path with 8-bit components agrees with the same reference.
    #[test]
    fn single_word_dotspec(a in any::<u32>(), b in any::<u32>(), acc in any::<u32>()) {
        for kind in KINDS {
            let spec = DotSpec::packed4x8(kind, 32).unwrap();
            prop_assert_eq!(spec.dot(&unpack4x8(a), &unpack4x8(b)).unwrap(), reference_dot(kind, a, b) as u32 as u64);
            let r = spec.dot_acc_sat(&unpack4x8(a), &unpack4x8(b), acc as u64).unwrap();
            prop_assert_eq!(r.value, reference_acc_sat(kind, a, b, acc) as u64);
            prop_assert_eq!(r.undefined, None);
        }
    }
}

/// "Vector components follow byte significance order with the lowest-numbered component
/// stored in the least significant byte."
#[test]
fn packed_component_order_follows_the_spec() {
    assert_eq!(unpack4x8(0x0403_0201), [1, 2, 3, 4]);
    assert_eq!(intdot::pack4x8([1, 2, 3, 4]), 0x0403_0201);
    // (1,2,3,4)·(0,0,0,1) selects component 3, the most significant byte: 4.
    let mut out = [0i32; 1];
    intdot::sdot4x8_slice(&[0x0403_0201], &[0x0100_0000], &mut out).unwrap();
    assert_eq!(out, [4]);
    // Hand-computed: all -128: 4·16384 = 65536; all 0xFF: signed 4, unsigned 4·65025, mixed −1020.
    intdot::sdot4x8_slice(&[0x8080_8080], &[0x8080_8080], &mut out).unwrap();
    assert_eq!(out, [65536]);
    intdot::sudot4x8_slice(&[0xffff_ffff], &[0xffff_ffff], &mut out).unwrap();
    assert_eq!(out, [-1020]);
    let mut uout = [0u32; 1];
    intdot::udot4x8_slice(&[0xffff_ffff], &[0xffff_ffff], &mut uout).unwrap();
    assert_eq!(uout, [260_100]);
    intdot::udot4x8_acc_sat_slice(
        &[0xffff_ffff],
        &[0xffff_ffff],
        &[u32::MAX - 260_099],
        &mut uout,
    )
    .unwrap();
    assert_eq!(uout, [u32::MAX]);
    intdot::sdot4x8_acc_sat_slice(
        &[0x8080_8080],
        &[0x8080_8080],
        &[i32::MAX - 65535],
        &mut out,
    )
    .unwrap();
    assert_eq!(out, [i32::MAX]);
    intdot::sudot4x8_acc_sat_slice(&[0xffff_ffff], &[0xffff_ffff], &[i32::MIN + 1019], &mut out)
        .unwrap();
    assert_eq!(out, [i32::MIN]);
    intdot::sdot4x8_acc_sat_slice(&[0xffff_ffff], &[0xffff_ffff], &[7], &mut out).unwrap();
    assert_eq!(out, [11]);
}

#[test]
fn slice_length_errors() {
    let mut out = [0u32; 2];
    assert_eq!(
        packed4x8_slice(Backend::Portable, DotKind::Signed, &[1], &[1, 2], &mut out),
        Err(IntDotError::SliceLength {
            name: "a",
            len: 1,
            expected: 2
        })
    );
    assert_eq!(
        packed4x8_acc_sat_slice(
            Backend::Portable,
            DotKind::Signed,
            &[1, 2],
            &[1, 2],
            &[0],
            &mut out
        ),
        Err(IntDotError::SliceLength {
            name: "acc",
            len: 1,
            expected: 2
        })
    );
    for backend in Backend::ALL.into_iter().filter(|b| !b.is_available()) {
        assert_eq!(
            packed4x8_slice(backend, DotKind::Signed, &[1, 2], &[1, 2], &mut out),
            Err(IntDotError::BackendUnavailable(backend))
        );
    }
}
