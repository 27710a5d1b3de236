//! Physical addressing and its address map (docs: "Pointers under physical addressing"):
//! the clang-15 + llvm-spirv-15 kernels tests/corpus/opencl/phys32.cl (pointer ↔ integer
//! round trips, pointers stored in buffers, private arrays and structs, pointer differences)
//! compiled for 32-bit SPIR (Physical32) and 64-bit SPIR (Physical64), at -O2 and -O0.
//! Expected values come from the OpenCL C source and from the address map as documented
//! (slot size, base in the middle of the slot), computed here independently of the engine.

mod opencl_support;
use opencl_support::*;
use spvx_exec::resources::KernelArg;

/// The documented address map: `bits`-bit addresses, `spaces` memory spaces (null, private,
/// workgroup, then the buffers); the address of byte `offset` of space `space`.
fn address(bits: u32, spaces: u32, space: u32, offset: u64) -> u64 {
    let slots = spaces.next_power_of_two() as u64;
    let slot = if bits == 64 {
        (1u128 << 64) / slots as u128
    } else {
        (1u128 << bits) / slots as u128
    } as u64;
    space as u64 * slot + slot / 2 + offset
}

fn check_ptrint(file: &str, bits: u32) {
    let m = kernel(file, "ptrint");
    let n = 12usize;
    let data: Vec<i32> = (0..n as i32).map(|i| 10 * i + 3).collect();
    let word = bits as usize / 8;
    let (res, _) = run(
        &m,
        [3, 1, 1],
        Some([4, 1, 1]),
        vec![
            KernelArg::Buffer(bytes_i32(&data)),
            KernelArg::Buffer(vec![0; n * word]),
            KernelArg::Buffer(vec![0; n * word]),
            KernelArg::Buffer(vec![0; 16]),
            KernelArg::Scalar((n as i32).to_le_bytes().to_vec()),
        ],
    );
    let pair = if bits == 32 { 12 } else { 24 };
    assert_eq!(
        i32s(out(&res, 3)),
        [word as i32, word as i32, pair, n as i32],
        "{file}: sizeof(size_t), sizeof(void*), sizeof(pair), global size"
    );
    // Spaces: null, private, workgroup, then the 4 buffer arguments (data = space 3).
    let spaces = 3 + 4;
    let want_addr: Vec<u64> = (0..n)
        .map(|i| address(bits, spaces, 3, 4 * i as u64))
        .collect();
    let words = |b: &[u8]| -> Vec<u64> {
        if bits == 32 {
            u32s(b).into_iter().map(u64::from).collect()
        } else {
            u64s(b)
        }
    };
    assert_eq!(
        words(out(&res, 1)),
        want_addr,
        "{file}: (uintptr_t)&data[i]"
    );
    assert_eq!(
        words(out(&res, 2)),
        want_addr,
        "{file}: pointers stored in a buffer"
    );
    let want: Vec<i32> = (0..n).map(|i| data[i] + data[(i ^ 1) % n]).collect();
    assert_eq!(
        i32s(out(&res, 0)),
        want,
        "{file}: data[i] += data[(i ^ 1) % n]"
    );
}

#[test]
fn physical32_pointers_are_32_bit_addresses() {
    check_ptrint("phys32.spir.spv", 32);
    check_ptrint("phys32.spir.O0.spv", 32);
}

#[test]
fn physical64_pointers_are_64_bit_addresses() {
    check_ptrint("phys32.spv", 64);
    check_ptrint("phys32.O0.spv", 64);
}

fn check_ptrmem(file: &str, bits: u32) {
    let m = kernel(file, "ptrmem");
    let n = 9usize;
    let a: Vec<i32> = (0..n as i32).map(|i| 100 + i).collect();
    let b: Vec<i32> = (0..n as i32).map(|i| -7 * i - 1).collect();
    let (res, _) = run(
        &m,
        [3, 1, 1],
        Some([3, 1, 1]),
        vec![
            KernelArg::Buffer(bytes_i32(&a)),
            KernelArg::Buffer(bytes_i32(&b)),
            KernelArg::Buffer(vec![0; 16 * n]),
        ],
    );
    let spaces = 3 + 3;
    let (base_a, base_b) = (address(bits, spaces, 3, 0), address(bits, spaces, 4, 0));
    let mut want = Vec::new();
    for i in 0..n {
        // table = {a + i, b + i, a}; s = {table[i % 3], i, table[(i + 1) % 3]}
        let table = [(0u8, i), (1, i), (0, 0)];
        let (p, q) = (table[i % 3], table[(i + 1) % 3]);
        let (buf, idx) = if i % 2 == 1 { q } else { p };
        let value = if buf == 0 { a[idx] } else { b[idx] };
        let addr = if buf == 0 { base_a } else { base_b } + 4 * idx as u64;
        let diff = addr.wrapping_sub(base_a);
        let diff = if bits == 32 {
            diff as u32 as i32
        } else {
            diff as i64 as i32
        };
        let diff_elems = if bits == 32 {
            (addr.wrapping_sub(base_a) as u32 as i32) / 4
        } else {
            ((addr.wrapping_sub(base_a) as i64) / 4) as i32
        };
        let is_b_i = (buf == 1 && idx == i) as i32;
        want.extend([value, diff_elems, is_b_i + 2, diff]);
    }
    assert_eq!(i32s(out(&res, 2)), want, "{file}");
}

#[test]
fn pointers_in_private_arrays_and_structs() {
    check_ptrmem("phys32.spir.spv", 32);
    check_ptrmem("phys32.spir.O0.spv", 32);
    check_ptrmem("phys32.spv", 64);
    check_ptrmem("phys32.O0.spv", 64);
}
