//! Fuzz target `exec`: runs `spvx_fuzz::exec::exec` (see fuzz/checks/exec.rs).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| spvx_fuzz::exec::exec(data));
