//! `RunConfig::track_writers`: every byte of a storage buffer names the invocation that stored
//! it last (what `spvx diff` prints beside a mismatch). Expected writers are worked out by hand
//! from the kernel: invocation with GlobalInvocationId.x = i stores out[i].

mod support;
use spvx_exec::{InvocationId, RunConfig};
use support::{compile, run_words};

#[test]
fn each_output_word_names_its_writer_and_untouched_bytes_name_none() {
    let text = support::kernel(4, "", "%r = OpIAdd %uint %x %u1");
    let m = compile(&text).unwrap_or_else(|e| panic!("{e}"));
    let input: Vec<u32> = (0..12).collect();
    for subgroup_size in [1, 2, 4, 32] {
        let cfg = RunConfig {
            track_writers: true,
            subgroup_size,
            ..RunConfig::default()
        };
        let (out, report) = run_words(&m, &input, 16, 3, &cfg).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(&out[..12], &(1..13).collect::<Vec<u32>>()[..]);
        for i in 0..12u32 {
            for byte in 0..4 {
                assert_eq!(
                    report.writer_of(0, 1, (4 * i + byte) as usize),
                    Some(InvocationId {
                        workgroup: [i / 4, 0, 0],
                        local: [i % 4, 0, 0],
                    }),
                    "word {i}, subgroup size {subgroup_size}"
                );
            }
        }
        for byte in 48..64 {
            assert_eq!(report.writer_of(0, 1, byte), None, "byte {byte} is input");
        }
        assert_eq!(
            report.writer_of(0, 0, 0),
            None,
            "the input buffer is not written"
        );
        let named = report.writer_of(0, 1, 20).map(|w| w.to_string());
        assert_eq!(
            named.as_deref(),
            Some("invocation (1, 0, 0) of workgroup (1, 0, 0)")
        );
    }
}

#[test]
fn without_tracking_the_report_has_no_writers() {
    let text = support::kernel(4, "", "%r = OpCopyObject %uint %x");
    let m = compile(&text).unwrap_or_else(|e| panic!("{e}"));
    let (_, report) =
        run_words(&m, &[1, 2, 3, 4], 4, 1, &RunConfig::default()).unwrap_or_else(|e| panic!("{e}"));
    assert!(report.writers.is_empty());
    assert_eq!(report.writer_of(0, 1, 0), None);
}
