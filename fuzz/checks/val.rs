//! Fuzz checks of spvx-val: the validator on raw bytes (whatever the binary reader accepts) and
//! on generated modules (`gen.rs`: typed ones meant to be valid, and `chaos` ones with operands
//! of any type; and, from the same bytes, the Kernel-model module of `gen_kernel.rs` and the
//! tensor module of `gen_tensor.rs`). It must return a list of errors, never panic; the errors
//! come sorted by instruction index; validating twice gives the same answer. Called by the
//! fuzz targets `val_raw` and `val_gen`, replayed by `crates/spvx-val/tests/fuzz_regressions.rs`.

use crate::generator::generate;
use crate::{gen_kernel, gen_tensor};
use spvx_spirv::binary::read_bytes;
use spvx_val::{Options, TargetEnv, errors};

fn check(
    header: &spvx_spirv::binary::Header,
    insts: &[spvx_spirv::instruction::Instruction],
    env: u8,
) {
    let name = ["spv1.6", "vulkan1.3", "spv1.3"][env as usize % 3];
    let opts = Options {
        target_env: TargetEnv::parse(name).unwrap_or_default(),
        ..Options::default()
    };
    let first = errors(header, insts, &opts);
    assert_eq!(
        errors(header, insts, &opts),
        first,
        "validating twice gave another answer"
    );
    assert!(
        first.windows(2).all(|w| w[0].index <= w[1].index),
        "errors not sorted by instruction"
    );
    for e in &first {
        let _ = e.to_string();
    }
}

/// The validator on a binary read from arbitrary bytes.
pub fn val_raw(data: &[u8]) {
    let Some((&env, rest)) = data.split_first() else {
        return;
    };
    if let Ok(m) = read_bytes(rest) {
        check(&m.header, &m.instructions, env);
    }
}

/// The validator on the modules the three generators make of the same bytes (first byte:
/// chaos mode, or race-free for the tensor generator, and target environment).
pub fn val_gen(data: &[u8]) {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    if let Some((module, _)) = generate(rest, mode & 1 == 1) {
        check(&module.header, &module.to_instructions(), mode >> 1);
    }
    if let Some((module, _)) = gen_kernel::generate(rest) {
        check(&module.header, &module.to_instructions(), mode >> 1);
    }
    if let Some((module, _)) = gen_tensor::generate(rest, mode & 1 == 1) {
        check(&module.header, &module.to_instructions(), mode >> 1);
    }
}
