//! The runner on a small vector add: the engine's outputs are checked against the reference
//! run and the expected bytes (computed here with wrapping u32 additions, independently of the
//! engine); a host "device" that adds on the CPU is compared with the reference, and one that
//! flips a bit is caught. The kernel is short (under `SHORT_KERNEL`), so it gets
//! `SHORT_KERNEL_ROUNDS` timed rounds instead of the 3 asked for.

mod common;

use common::{N, case, host_sum, le};
use spvx_bench::{
    BenchCase, BenchOptions, Device, DeviceKernel, DeviceOutputs, DeviceResult, DeviceSupport,
    SHORT_KERNEL_ROUNDS, Table, run_case,
};
use spvx_exec::Resources;

/// A device that adds on the host, optionally flipping bit 5 of element 100 of C.
struct HostDevice {
    flip: bool,
}

struct HostKernel {
    flip: bool,
}

impl Device for HostDevice {
    fn name(&self) -> String {
        "host adder".into()
    }
    fn subgroup_size(&self) -> Option<u32> {
        Some(8)
    }
    fn prepare<'a>(&'a mut self, _case: &BenchCase) -> Result<Box<dyn DeviceKernel + 'a>, String> {
        Ok(Box::new(HostKernel { flip: self.flip }))
    }
}

impl DeviceKernel for HostKernel {
    fn dispatch(&mut self, inputs: &Resources) -> Result<DeviceOutputs, String> {
        let a = inputs.words(0, 0).ok_or("no a")?;
        let b = inputs.words(0, 1).ok_or("no b")?;
        let mut c: Vec<u32> = a.iter().zip(&b).map(|(x, y)| x.wrapping_add(*y)).collect();
        if self.flip {
            c[100] ^= 1 << 5;
        }
        Ok(vec![
            ((0, 0, 0), le(&a)),
            ((0, 1, 0), le(&b)),
            ((0, 2, 0), le(&c)),
        ])
    }
}

const OPTS: BenchOptions = BenchOptions {
    warmup: 1,
    rounds: 3,
};

#[test]
fn engine_runs_are_checked_against_reference_and_expected() {
    let mut lines = Vec::new();
    let row = run_case(&case(host_sum()), None, &OPTS, &mut |l| {
        lines.push(l.to_string())
    })
    .expect("runs");
    assert_eq!(row.engine.len(), SHORT_KERNEL_ROUNDS);
    // The JIT runs this kernel: each round also times the interpreter, and both are checked.
    assert_eq!(row.jit, spvx_exec::JitUse::Ran);
    assert_eq!(row.interpreter.len(), SHORT_KERNEL_ROUNDS);
    assert_eq!(row.check.engine_runs, 2 * (1 + SHORT_KERNEL_ROUNDS));
    assert_eq!(row.check.engine_mismatches, 0);
    assert_eq!(row.check.expected, Some(Ok(())));
    assert_eq!(row.device, DeviceResult::NotRequested);
    assert_eq!(row.invocations, N as u64);
    assert!(row.passed());
    // The reference run, the warm-up and the timed rounds.
    assert_eq!(lines.len(), 1 + 1 + SHORT_KERNEL_ROUNDS, "{lines:?}");
}

#[test]
fn a_wrong_expectation_is_reported() {
    let mut wrong = host_sum();
    wrong[7] = wrong[7].wrapping_add(1);
    let row = run_case(&case(wrong), None, &OPTS, &mut |_| {}).expect("runs");
    match &row.check.expected {
        Some(Err(e)) => assert!(e.contains("binding 0.2: byte 28"), "{e}"),
        other => panic!("expected a mismatch, got {other:?}"),
    }
    assert!(!row.passed());
}

#[test]
fn device_outputs_are_compared_and_a_flipped_bit_is_caught() {
    let mut good = HostDevice { flip: false };
    let row = run_case(
        &case(host_sum()),
        Some(Ok(&mut good as &mut dyn Device)),
        &OPTS,
        &mut |_| {},
    )
    .expect("runs");
    match &row.device {
        DeviceResult::Measured {
            samples,
            runs,
            mismatches,
            ..
        } => {
            assert_eq!(
                (samples.len(), *runs, *mismatches),
                (SHORT_KERNEL_ROUNDS, 1 + SHORT_KERNEL_ROUNDS, 0)
            );
        }
        other => panic!("not measured: {other:?}"),
    }
    assert!(row.ratio().is_some());
    assert!(row.passed());

    let mut bad = HostDevice { flip: true };
    let row = run_case(
        &case(host_sum()),
        Some(Ok(&mut bad as &mut dyn Device)),
        &OPTS,
        &mut |_| {},
    )
    .expect("runs");
    match &row.device {
        DeviceResult::Measured {
            mismatches,
            first_mismatch,
            ..
        } => {
            assert_eq!(*mismatches, 1 + SHORT_KERNEL_ROUNDS);
            let d = first_mismatch.as_deref().unwrap_or("");
            assert!(d.starts_with("binding 0.2: byte 400:"), "{d}");
        }
        other => panic!("not measured: {other:?}"),
    }
    assert!(!row.passed());
    let table = Table {
        machine: "test".into(),
        device: "host adder".into(),
        warmup: 1,
        rounds: 3,
        rows: vec![row],
    };
    let all = 1 + SHORT_KERNEL_ROUNDS;
    assert!(
        table
            .to_markdown()
            .contains(&format!("DEVICE MISMATCH {all}/{all}"))
    );
}

#[test]
fn unsupported_and_unavailable_devices_are_shown_not_run() {
    let mut c = case(host_sum());
    c.device = DeviceSupport::Unsupported("needs X".into());
    let mut dev = HostDevice { flip: true };
    let row = run_case(
        &c,
        Some(Ok(&mut dev as &mut dyn Device)),
        &OPTS,
        &mut |_| {},
    )
    .expect("runs");
    assert_eq!(row.device, DeviceResult::Unsupported("needs X".into()));
    let row = run_case(&c, Some(Err("no loader".into())), &OPTS, &mut |_| {}).expect("runs");
    assert_eq!(row.device, DeviceResult::NotAvailable("no loader".into()));
    assert!(row.passed());
}

#[test]
fn subgroup_size_follows_the_device_when_asked() {
    let mut c = case(host_sum());
    c.subgroup_size_from_device = true;
    let mut dev = HostDevice { flip: false };
    let row = run_case(
        &c,
        Some(Ok(&mut dev as &mut dyn Device)),
        &OPTS,
        &mut |_| {},
    )
    .expect("runs");
    assert_eq!(row.subgroup_size, 8);
    let zero = BenchOptions {
        warmup: 0,
        rounds: 0,
    };
    assert!(run_case(&c, None, &zero, &mut |_| {}).is_err());
}
