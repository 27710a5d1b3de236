//! The JIT's code cache on disk (`jit::code_cache`): a second compile of a module takes its
//! functions from the cache and computes the same, hand-checked results; damaged entries are
//! refused and compiled again; with the cache off nothing is read or written.
//!
//! One test function: the cache's directory is a setting of the whole process.

mod support;

use spvx_exec::jit::code_cache;
use spvx_exec::{CompiledModule, JitUse, RunConfig};
use support::{compile, kernel, run_words};

/// out[i] = the number of Collatz steps of in[i] + 1 (at most 1000), a loop with a branch.
fn module() -> String {
    kernel(
        16,
        "%u1000 = OpConstant %uint 1000\n",
        "
%start = OpIAdd %uint %x %u1
OpBranch %head
%head = OpLabel
%v = OpPhi %uint %start %entry %vn %cont
%n = OpPhi %uint %u0 %entry %nn %cont
%done = OpIEqual %bool %v %u1
%limit = OpUGreaterThanEqual %bool %n %u1000
%stop = OpLogicalOr %bool %done %limit
OpLoopMerge %exit %cont None
OpBranchConditional %stop %exit %body
%body = OpLabel
%odd = OpBitwiseAnd %uint %v %u1
%isodd = OpIEqual %bool %odd %u1
%half = OpShiftRightLogical %uint %v %u1
%t3 = OpIMul %uint %v %u3
%t31 = OpIAdd %uint %t3 %u1
%vn = OpSelect %uint %isodd %t31 %half
OpBranch %cont
%cont = OpLabel
%nn = OpIAdd %uint %n %u1
OpBranch %head
%exit = OpLabel
%r = OpCopyObject %uint %n
",
    )
}

/// The Collatz steps of x + 1, by hand.
fn steps(x: u32) -> u32 {
    let (mut v, mut n) = (x as u64 + 1, 0);
    while v != 1 && n < 1000 {
        v = if v % 2 == 1 { 3 * v + 1 } else { v / 2 };
        n += 1;
    }
    n
}

/// Compiles and runs the module afresh (a new `CompiledModule`, so a new JIT compile); the
/// (hits, misses) this compile added.
fn compile_and_check(input: &[u32]) -> (u64, u64) {
    let before = code_cache::counts();
    let m: CompiledModule = compile(&module()).expect("compiles");
    let (out, report) = run_words(&m, input, input.len(), 4, &RunConfig::default()).expect("runs");
    assert_eq!(report.jit, JitUse::Ran);
    let expected: Vec<u32> = input.iter().map(|&x| steps(x)).collect();
    assert_eq!(out, expected);
    let after = code_cache::counts();
    (after.0 - before.0, after.1 - before.1)
}

fn entries(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    std::fs::read_dir(dir)
        .map(|d| d.filter_map(|e| e.ok()).map(|e| e.path()).collect())
        .unwrap_or_default()
}

#[test]
fn the_cache_reuses_code_refuses_damage_and_stays_off_when_off() {
    let dir = std::env::temp_dir().join(format!("spvx-jit-cache-test-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let input: Vec<u32> = (0..64u32).map(|i| i * 977 + 3).collect();

    // Off: nothing counted, nothing written.
    code_cache::set_dir(None);
    assert_eq!(compile_and_check(&input), (0, 0));
    assert!(entries(&dir).is_empty());

    // On: the first compile stores every function, the second takes every one back. (The
    // scalar code and the vector lanes compile at once on two threads, and hold one function
    // alike, the call-out trampoline: one entry, compiled by one thread or both.)
    code_cache::set_dir(Some(dir.clone()));
    let (hits, misses) = compile_and_check(&input);
    let functions = hits + misses;
    assert!(misses > 0);
    let stored = entries(&dir);
    assert!(!stored.is_empty() && stored.len() as u64 <= misses);
    assert_eq!(compile_and_check(&input), (functions, 0));

    // Every entry damaged (one byte in its middle flipped, inside the machine code, which is
    // most of an entry): each is refused and removed, its function compiled again and stored
    // again, and the results still right.
    for path in &stored {
        let mut bytes = std::fs::read(path).expect("entry reads");
        let middle = bytes.len() / 2;
        bytes[middle] ^= 0x40;
        std::fs::write(path, &bytes).expect("entry writes");
    }
    let (hits, misses) = compile_and_check(&input);
    assert_eq!(hits + misses, functions);
    assert!(misses >= stored.len() as u64);
    assert_eq!(entries(&dir).len(), stored.len());
    assert_eq!(compile_and_check(&input), (functions, 0));

    // Off again: the entries are left alone, none read.
    code_cache::set_dir(None);
    assert_eq!(compile_and_check(&input), (0, 0));
    assert_eq!(entries(&dir).len(), stored.len());
    let _ = std::fs::remove_dir_all(&dir);
}
