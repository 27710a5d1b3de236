//! Round trip of the whole binary corpus: for every `.spv` file under `tests/corpus`, reading and
//! writing gives the identical bytes, and so does reading the big-endian form of the same words.

mod common;

use spvx_spirv::binary::{read_bytes, to_bytes};

#[test]
fn every_corpus_module_round_trips() {
    let files = common::corpus_files();
    assert!(files.len() >= 9, "corpus has {} files", files.len());
    for p in files {
        let bytes = std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
        let m = read_bytes(&bytes).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
        assert_eq!(
            to_bytes(&m.header, &m.instructions),
            bytes,
            "{}",
            p.display()
        );

        let be: Vec<u8> = bytes
            .chunks_exact(4)
            .flat_map(|c| [c[3], c[2], c[1], c[0]])
            .collect();
        let mb = read_bytes(&be).unwrap_or_else(|e| panic!("{} (BE): {e}", p.display()));
        assert!(mb.big_endian);
        assert_eq!(mb.instructions, m.instructions, "{}", p.display());
        assert_eq!(mb.offsets, m.offsets, "{}", p.display());
    }
}
