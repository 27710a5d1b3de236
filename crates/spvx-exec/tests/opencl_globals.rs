//! CrossWorkgroup program-scope variables (OpenCL C 2.0 `global int counter = 5;`) in the
//! clang-15 + llvm-spirv-15 kernels of `tests/corpus/opencl/globals.cl` (-O2 and -O0): one
//! object per dispatch, initialised from the initialisers, shared by all workgroups, at the
//! address the address map gives the space after the buffer arguments. Expected values are
//! the kernels' C semantics worked out by hand here.

mod opencl_support;

use opencl_support::{bytes_i32, i32s, kernel, out, u64s};
use spvx_exec::resources::KernelArg;
use spvx_exec::{CompiledModule, Resources, RunConfig};

const FILES: [&str; 2] = ["globals.spv", "globals.O0.spv"];
const TABLE: [i32; 8] = [3, 1, 4, 1, 5, 9, 2, 6];

/// Runs `m` with `args` on `threads` threads (`None`: the global pool).
fn run(
    m: &CompiledModule,
    groups: u32,
    local: u32,
    args: Vec<KernelArg>,
    threads: Option<usize>,
) -> Resources {
    let mut res = Resources::new();
    for (i, a) in args.into_iter().enumerate() {
        res.set_arg(i as u32, a);
    }
    res.local_size = Some([local, 1, 1]);
    let cfg = RunConfig {
        strict: true,
        threads,
        ..RunConfig::default()
    };
    m.run(&mut res, [groups, 1, 1], &cfg)
        .unwrap_or_else(|e| panic!("run failed: {e}"));
    res
}

/// Every invocation of every workgroup takes a distinct ticket from the shared counter
/// (initialised to 5) and from the atomic_int `hits` (100, step 2), in parallel and on one
/// thread; a second dispatch starts again from the initialisers.
#[test]
fn tickets_from_a_shared_counter() {
    for file in FILES {
        let m = kernel(file, "tickets");
        let (groups, local) = (16, 8);
        let n = (groups * local) as usize;
        for threads in [None, Some(1), None] {
            let res = run(
                &m,
                groups,
                local,
                vec![KernelArg::Buffer(vec![0; 12 * n])],
                threads,
            );
            let got = i32s(out(&res, 0));
            let mut tickets = got[..n].to_vec();
            tickets.sort_unstable();
            assert_eq!(tickets, (5..5 + n as i32).collect::<Vec<_>>(), "{file}");
            let mut hits = got[n..2 * n].to_vec();
            hits.sort_unstable();
            let want: Vec<i32> = (0..n as i32).map(|k| 100 + 2 * k).collect();
            assert_eq!(hits, want, "{file}");
            for i in 0..n {
                assert_eq!(
                    got[2 * n + i],
                    TABLE[i % 8] * 10 + TABLE[2 + i % 4],
                    "{file}"
                );
            }
            if threads == Some(1) {
                // Workgroups in linear order, lanes in order: tickets in invocation order.
                assert_eq!(&got[..n], &tickets[..], "{file}");
            }
        }
    }
}

/// Workgroup g reads the value workgroup g − 1 stored (single-threaded run: workgroups in
/// order); the first sees the initialiser, −1.
#[test]
fn a_value_persists_across_workgroups() {
    for file in FILES {
        let m = kernel(file, "relay");
        let groups = 6;
        let res = run(
            &m,
            groups,
            4,
            vec![KernelArg::Buffer(vec![0; 4 * groups as usize])],
            Some(1),
        );
        let want: Vec<i32> = (0..groups as i32)
            .map(|g| if g == 0 { -1 } else { 3 * (g - 1) })
            .collect();
        assert_eq!(i32s(out(&res, 0)), want, "{file}");
    }
}

/// Writes to an initialised array seen by later reads, the struct, float2 and zero
/// initialisers, and a pointer initialised to `&table[2]`.
#[test]
fn initialisers_and_writes() {
    for file in FILES {
        let m = kernel(file, "mutate");
        let res = run(
            &m,
            1,
            8,
            vec![
                KernelArg::Buffer(vec![0; 4 * 16]),
                KernelArg::Buffer(vec![0; 8]),
            ],
            None,
        );
        let got = i32s(out(&res, 0));
        assert_eq!(&got[..6], &[97, 42, -7, 2, 0, 9], "{file}");
        let table: Vec<i32> = (0..8).map(|i| TABLE[i] + 100 * i as i32).collect();
        assert_eq!(&got[8..], &table[..], "{file}");
        let f = out(&res, 1);
        assert_eq!(f, [1.5f32.to_le_bytes(), (-2.0f32).to_le_bytes()].concat());
    }
}

/// The address map: spaces 3 and 4 are the two buffer arguments, 5 the program-scope object
/// (6 spaces, 8 slots of S = 2^61 bytes under Physical64; an object's byte 0 is at i·S + S/2).
/// The variables the kernel uses are laid out in module order with C alignment: counter at
/// 0, table at 4, cursor (8-aligned) at 40; cursor's initialiser `&table[2]` is stored as the
/// address 4 + 8.
#[test]
fn addresses_of_program_scope_variables() {
    let base = |space: u64| (space << 61) + (1 << 60);
    for file in FILES {
        let m = kernel(file, "addresses");
        let res = run(
            &m,
            1,
            1,
            vec![
                KernelArg::Buffer(vec![0; 32]),
                KernelArg::Buffer(bytes_i32(&[0])),
            ],
            None,
        );
        let got = u64s(out(&res, 0));
        assert_eq!(
            got,
            [base(5), base(5) + 4 + 12, base(4), base(5) + 4 + 8],
            "{file}"
        );
        assert_eq!(i32s(out(&res, 1)), [4], "{file}");
    }
}
