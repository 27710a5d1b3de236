//! Isolation under physical addressing (issue 9 item 4; docs: "Pointers under physical
//! addressing", "Isolation"): a kernel that turns a pointer into an integer, walks it past
//! the end (or before the start) of its buffer, or adds 2^48 (the forging trick of spvx's
//! former encoding), and turns it back, gets a pointer into the *same* buffer, out of
//! bounds: the access is reported and not served, and the other buffer is untouched. The
//! kernels are tests/corpus/opencl/isolation.cl by clang-15 + llvm-spirv-15 for 32-bit SPIR
//! (Physical32) and 64-bit SPIR (Physical64), at -O2 and -O0. The step sizes come from the
//! documented address map (slot size, base in the middle of the slot), computed here.

mod opencl_support;
use opencl_support::*;
use spvx_exec::resources::KernelArg;
use spvx_exec::{JitUse, Resources, RunConfig, RunReport, UbKind};

/// Runs with reports (not strict): every out-of-bounds access is an event.
fn run_reporting(
    file: &str,
    entry: &str,
    local: u32,
    args: Vec<KernelArg>,
) -> (Resources, RunReport) {
    let m = kernel(file, entry);
    let mut res = Resources::new();
    for (i, a) in args.into_iter().enumerate() {
        res.set_arg(i as u32, a);
    }
    res.local_size = Some([local, 1, 1]);
    let report = m
        .run(&mut res, [1, 1, 1], &RunConfig::default())
        .unwrap_or_else(|e| panic!("{file}: {e}"));
    (res, report)
}

/// The slot size of the documented map: 2^bits / (least power of two ≥ spaces).
fn slot(bits: u32, spaces: u32) -> u64 {
    ((1u128 << bits) / spaces.next_power_of_two() as u128) as u64
}

/// Walks of `a` (16 bytes) by `steps` bytes through integers: each write is reported as out
/// of bounds of `a`'s buffer (argument 0), and neither `a` nor `b` changes.
fn check_walks(file: &str, bits: u32, steps: &[i64]) {
    let a = bytes_i32(&[1, 2, 3, 4]);
    let b = bytes_i32(&[5, 6, 7, 8]);
    let n = steps.len() as u32;
    let (res, report) = run_reporting(
        file,
        "walk",
        n,
        vec![
            KernelArg::Buffer(a.clone()),
            KernelArg::Buffer(b.clone()),
            KernelArg::Buffer(steps.iter().flat_map(|s| s.to_le_bytes()).collect()),
            KernelArg::Scalar(0x7777_7777i32.to_le_bytes().to_vec()),
        ],
    );
    assert_eq!(
        out(&res, 0),
        a.as_slice(),
        "{file} ({bits}-bit): a is untouched"
    );
    assert_eq!(
        out(&res, 1),
        b.as_slice(),
        "{file} ({bits}-bit): b is untouched"
    );
    let writes: Vec<_> = report
        .events
        .iter()
        .filter(|e| matches!(e.kind, UbKind::OutOfBoundsWrite { .. }))
        .collect();
    assert_eq!(
        writes.len(),
        steps.len(),
        "{file}: one reported write per walk: {:?}",
        report.events
    );
    for e in &writes {
        let UbKind::OutOfBoundsWrite { space, offset, .. } = &e.kind else {
            continue;
        };
        // The pointer keeps a's buffer and the walk's offset (48-bit, two's complement);
        // one beyond ±2^47 bytes becomes the offset 2^47 (docs: address map).
        let step = steps[e.invocation[0] as usize];
        let want = if step.unsigned_abs() < 1 << 47 {
            (step as u64) & ((1 << 48) - 1)
        } else {
            1 << 47
        };
        assert_eq!(space, "buffer", "{file}: {e}");
        assert_eq!(*offset, want, "{file}: step {step}: {e}");
    }
}

#[test]
fn physical32_integer_walks_past_a_buffer_are_reported() {
    // Spaces: null, private, workgroup, a, b, steps = 6 → 8 slots of 512 MiB; a's base is
    // in the middle of its slot, so offsets in [−256 MiB, 256 MiB) stay with a.
    let half = slot(32, 6) as i64 / 2;
    assert_eq!(half, 1 << 28);
    let steps = [16, 20, 4096, 1 << 20, half - 4, -4, -4096, -half];
    check_walks("isolation.spir.spv", 32, &steps);
    check_walks("isolation.spir.O0.spv", 32, &steps);
}

#[test]
fn physical64_integer_walks_past_a_buffer_are_reported() {
    // 8 slots of 2^61 bytes: offsets in [−2^60, 2^60) stay with a.
    let half = slot(64, 6) as i64 / 2;
    assert_eq!(half, 1 << 60);
    let steps = [
        16,
        1 << 32,
        1 << 40,
        1 << 47,
        1 << 48,
        half - 4,
        -4,
        -(1 << 48),
        -half,
    ];
    check_walks("isolation.spv", 64, &steps);
    check_walks("isolation.O0.spv", 64, &steps);
}

#[test]
fn physical64_forging_trick_is_reported_not_served() {
    // At -O2 clang forwards the stored 99 to the load (no read is left); at -O0 the read
    // happens and, out of bounds, gives 0 and is reported.
    for (file, want_out, want_events) in [
        ("isolation.spv", 99, &[true][..]),
        ("isolation.O0.spv", 0, &[true, false][..]),
    ] {
        let a = bytes_i32(&[1, 2, 3, 4]);
        let b = bytes_i32(&[5, 6, 7, 8]);
        let (res, report) = run_reporting(
            file,
            "forge",
            1,
            vec![
                KernelArg::Buffer(a.clone()),
                KernelArg::Buffer(b.clone()),
                KernelArg::Buffer(vec![0xff; 4]),
            ],
        );
        assert_eq!(out(&res, 0), a.as_slice(), "{file}: a untouched");
        assert_eq!(out(&res, 1), b.as_slice(), "{file}: b untouched");
        assert_eq!(i32s(out(&res, 2)), [want_out], "{file}");
        let writes: Vec<bool> = report
            .events
            .iter()
            .map(|e| matches!(e.kind, UbKind::OutOfBoundsWrite { .. }))
            .collect();
        assert_eq!(writes, want_events, "{file}: {:?}", report.events);
    }
}

/// The limit of the guarantee, as documented: an integer that names *another* object's
/// address (here b's first byte, one slot after a's) is a pointer into that object. The
/// kernel holds a pointer to b anyway; only computing its exact address reaches it.
#[test]
fn an_address_inside_another_buffer_is_that_buffer() {
    for (file, bits) in [("isolation.spir.spv", 32), ("isolation.spv", 64)] {
        let s = slot(bits, 6) as i64;
        let (res, report) = run_reporting(
            file,
            "walk",
            1,
            vec![
                KernelArg::Buffer(bytes_i32(&[1, 2, 3, 4])),
                KernelArg::Buffer(bytes_i32(&[5, 6, 7, 8])),
                KernelArg::Buffer(s.to_le_bytes().to_vec()),
                KernelArg::Scalar(9i32.to_le_bytes().to_vec()),
            ],
        );
        assert!(report.events.is_empty(), "{file}: {:?}", report.events);
        assert_eq!(i32s(out(&res, 1)), [9, 6, 7, 8], "{file}");
        assert_eq!(i32s(out(&res, 0)), [1, 2, 3, 4], "{file}");
    }
}

/// A pointer forged from a `__constant` buffer's address and written through: the buffer is
/// read-only, so the write is dropped and reported (`WriteToReadOnly`), the kernel's later
/// read sees the original value (clang does not forward the stored 42 across address
/// spaces, even at -O2), and the buffer comes back unchanged (the engine copies read-only
/// buffers back too). The JIT meets the write and hands the dispatch to the interpreter.
#[test]
fn a_write_through_a_pointer_forged_from_a_constant_buffer_is_dropped() {
    for file in [
        "isolation.spir.spv",
        "isolation.spir.O0.spv",
        "isolation.spv",
        "isolation.O0.spv",
    ] {
        let interpreted = kernel(file, "write_constant");
        let jitted = interpreted.with_jit_always();
        for (m, jit) in [(&interpreted, false), (&jitted, true)] {
            let c = bytes_i32(&[1, 2, 3, 4]);
            let mut res = Resources::new();
            res.set_arg(0, KernelArg::Buffer(c.clone()));
            res.set_arg(1, KernelArg::Buffer(vec![0; 4]));
            res.local_size = Some([1, 1, 1]);
            let cfg = RunConfig {
                jit,
                ..RunConfig::default()
            };
            let report = m
                .run(&mut res, [1, 1, 1], &cfg)
                .unwrap_or_else(|e| panic!("{file}: {e}"));
            assert_eq!(
                out(&res, 0),
                c.as_slice(),
                "{file} (jit {jit}): c unchanged"
            );
            assert_eq!(
                i32s(out(&res, 1)),
                [2],
                "{file} (jit {jit}): c[1] as it was"
            );
            let kinds: Vec<UbKind> = report.events.iter().map(|e| e.kind.clone()).collect();
            assert_eq!(kinds, [UbKind::WriteToReadOnly], "{file} (jit {jit})");
            assert_eq!(
                matches!(report.jit, JitUse::FellBack(_)),
                jit,
                "{file}: {:?}",
                report.jit
            );
        }
    }
}
