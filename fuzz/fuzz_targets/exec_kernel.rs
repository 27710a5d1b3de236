//! Fuzz target `exec_kernel`: runs `spvx_fuzz::exec_kernel::exec_kernel` (see fuzz/checks/exec_kernel.rs).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| spvx_fuzz::exec_kernel::exec_kernel(data));
