//! The runner on a small vector add: the engine's outputs are checked against the reference
//! run and the expected bytes (computed here with wrapping u32 additions, independently of the
//! engine); a host "device" that adds on the CPU is compared with the reference, and one that
//! flips a bit is caught.

use spvx_bench::{
    BenchCase, BenchOptions, Device, DeviceKernel, DeviceOutputs, DeviceResult, DeviceSupport,
    Table, Work, run_case,
};
use spvx_exec::{CompileOptions, CompiledModule, Resources, RunConfig};
use spvx_spirv::asm::{AsmOptions, assemble};
use std::collections::BTreeMap;

const VADD: &str = r#"
               OpCapability Shader
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main "main" %gid %a %b %c
               OpExecutionMode %main LocalSize 64 1 1
               OpDecorate %gid BuiltIn GlobalInvocationId
               OpDecorate %arr ArrayStride 4
               OpMemberDecorate %Buf 0 Offset 0
               OpDecorate %Buf Block
               OpDecorate %a DescriptorSet 0
               OpDecorate %a Binding 0
               OpDecorate %b DescriptorSet 0
               OpDecorate %b Binding 1
               OpDecorate %c DescriptorSet 0
               OpDecorate %c Binding 2
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
       %uint = OpTypeInt 32 0
     %v3uint = OpTypeVector %uint 3
    %ptr_gid = OpTypePointer Input %v3uint
        %gid = OpVariable %ptr_gid Input
        %arr = OpTypeRuntimeArray %uint
        %Buf = OpTypeStruct %arr
    %ptr_buf = OpTypePointer StorageBuffer %Buf
   %ptr_uint = OpTypePointer StorageBuffer %uint
          %a = OpVariable %ptr_buf StorageBuffer
          %b = OpVariable %ptr_buf StorageBuffer
          %c = OpVariable %ptr_buf StorageBuffer
         %u0 = OpConstant %uint 0
       %main = OpFunction %void None %fn
      %entry = OpLabel
         %id = OpLoad %v3uint %gid
          %i = OpCompositeExtract %uint %id 0
         %pa = OpAccessChain %ptr_uint %a %u0 %i
         %pb = OpAccessChain %ptr_uint %b %u0 %i
         %pc = OpAccessChain %ptr_uint %c %u0 %i
         %va = OpLoad %uint %pa
         %vb = OpLoad %uint %pb
         %vc = OpIAdd %uint %va %vb
               OpStore %pc %vc
               OpReturn
               OpFunctionEnd
"#;

const N: usize = 4096;

fn inputs() -> (Vec<u32>, Vec<u32>) {
    let a = (0..N as u32).map(|i| i.wrapping_mul(0x9e37_79b9)).collect();
    let b = (0..N as u32)
        .map(|i| u32::MAX - i.wrapping_mul(7))
        .collect();
    (a, b)
}

fn le(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

fn case(expected_c: Vec<u32>) -> BenchCase {
    let asm = assemble(VADD, &AsmOptions::default()).expect("assembles");
    let module = CompiledModule::from_bytes(&asm.bytes(), "main", &CompileOptions::default())
        .expect("compiles");
    let (a, b) = inputs();
    let mut resources = Resources::new();
    resources.set_words(0, 0, &a);
    resources.set_words(0, 1, &b);
    resources.set_words(0, 2, &vec![0; N]);
    BenchCase {
        name: "vadd".into(),
        module,
        spirv: asm.words(),
        entry: "main".into(),
        spec: BTreeMap::new(),
        groups: [(N / 64) as u32, 1, 1],
        resources,
        config: RunConfig::default(),
        subgroup_size_from_device: false,
        work: Work {
            macs: None,
            bytes: Some(12 * N as u64),
        },
        device: DeviceSupport::Supported,
        expected: vec![((0, 2), le(&expected_c))],
    }
}

/// Wrapping sums, computed on the host.
fn host_sum() -> Vec<u32> {
    let (a, b) = inputs();
    a.iter().zip(&b).map(|(x, y)| x.wrapping_add(*y)).collect()
}

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
        Ok(vec![((0, 0), le(&a)), ((0, 1), le(&b)), ((0, 2), le(&c))])
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
    assert_eq!(row.engine.len(), 3);
    assert_eq!(row.check.engine_runs, 4);
    assert_eq!(row.check.engine_mismatches, 0);
    assert_eq!(row.check.expected, Some(Ok(())));
    assert_eq!(row.device, DeviceResult::NotRequested);
    assert_eq!(row.invocations, N as u64);
    assert!(row.passed());
    assert_eq!(lines.len(), 1 + 4, "{lines:?}");
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
            assert_eq!((samples.len(), *runs, *mismatches), (3, 4, 0));
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
            assert_eq!(*mismatches, 4);
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
    assert!(table.to_markdown().contains("DEVICE MISMATCH 4/4"));
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
