//! Fuzz target `exec_tensor`: runs `spvx_fuzz::exec_tensor::exec_tensor` (see fuzz/checks/exec_tensor.rs).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| spvx_fuzz::exec_tensor::exec_tensor(data));
