//! Replays the saved fuzz findings and seeds of the spvx-spirv fuzz targets (`fuzz/`) through
//! the same check functions the targets call (`fuzz/checks/spirv.rs`): binary reader,
//! assembler, disassembler round trip. Inputs: `tests/regressions/<target>/`.

#[path = "../../../fuzz/checks/replay.rs"]
mod replay;
#[path = "../../../fuzz/checks/spirv.rs"]
mod spirv;

use std::path::Path;

fn dir() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/regressions"))
}

#[test]
fn binary_reader_regressions() {
    replay::replay(dir(), "binary_reader", spirv::binary_reader);
}

#[test]
fn asm_regressions() {
    replay::replay(dir(), "asm", spirv::asm);
}

#[test]
fn dis_roundtrip_regressions() {
    replay::replay(dir(), "dis_roundtrip", spirv::dis_roundtrip);
}
