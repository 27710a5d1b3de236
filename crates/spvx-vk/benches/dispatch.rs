//! What the prepared form saves per dispatch on the first Vulkan device (lavapipe here): a
//! 4096-element u32 vector add run with `VkRunner::run` (buffers, pipeline and command buffer
//! created and destroyed every time) against `Prepared::dispatch` on objects created once
//! (inputs copied in, dispatch, outputs copied out). Without a device it prints why and
//! measures nothing.

use criterion::{Criterion, criterion_group, criterion_main};
use spvx_vk::{BufferData, DeviceChoice, VkInputs, VkRun, VkRunner};
use std::collections::BTreeMap;

/// `bench/vadd.comp` compiled (`bench/regen.sh`): c[i] = a[i] + b[i], local size 256.
const VADD_SPV: &[u8] = include_bytes!("../../../bench/vadd.spv");

fn dispatch(c: &mut Criterion) {
    let runner = match VkRunner::new(&DeviceChoice::First) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("no Vulkan device, nothing measured: {e}");
            return;
        }
    };
    let n = 4096u32;
    let words = VADD_SPV
        .chunks_exact(4)
        .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
        .collect();
    let le = |v: Vec<u32>| -> Vec<u8> { v.iter().flat_map(|x| x.to_le_bytes()).collect() };
    let run = VkRun {
        words,
        entry: None,
        groups: [n / 256, 1, 1],
        buffers: vec![
            BufferData {
                set: 0,
                binding: 0,
                bytes: le((0..n).collect()),
            },
            BufferData {
                set: 0,
                binding: 1,
                bytes: le((0..n).map(|i| i * 3).collect()),
            },
            BufferData {
                set: 0,
                binding: 2,
                bytes: vec![0; 4 * n as usize],
            },
        ],
        elements: Vec::new(),
        push: None,
        spec: BTreeMap::new(),
        subgroup_size: None,
    };
    let mut g = c.benchmark_group("vadd_u32_4096");
    g.sample_size(20);
    g.bench_function("run (prepare + dispatch)", |bench| {
        bench.iter(|| runner.run(&run).expect("run"))
    });
    let mut prepared = runner.prepare(&run).expect("prepare");
    let inputs = VkInputs::of_run(&run, &[]);
    g.bench_function("prepared dispatch", |bench| {
        bench.iter(|| prepared.dispatch(&inputs).expect("dispatch"))
    });
    g.finish();
}

criterion_group!(benches, dispatch);
criterion_main!(benches);
