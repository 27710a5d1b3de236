//! OpenCL C kernels compiled by clang-15 + llvm-spirv-15 (sources and regen script in
//! tests/corpus/opencl/) run on the Kernel execution model. Expected results are computed here
//! from the OpenCL C semantics of each kernel, never by the engine.

mod opencl_support;
use opencl_support::*;
use spvx_exec::resources::{KernelArg, KernelArgKind};

#[test]
fn saxpy_uses_the_dispatch_local_size_and_writes_back_buffers() {
    let m = kernel("saxpy.spv", "saxpy");
    let kinds: Vec<_> = m.kernel_args().iter().map(|a| a.kind).collect();
    assert_eq!(
        kinds,
        [
            KernelArgKind::Scalar,
            KernelArgKind::Buffer,
            KernelArgKind::Buffer
        ]
    );
    assert_eq!(m.kernel_args()[1].name.as_deref(), Some("x"));
    let n = 96;
    let x: Vec<f32> = (0..n).map(|i| i as f32 * 0.25 - 3.0).collect();
    let y: Vec<f32> = (0..n).map(|i| 1.0 / (i as f32 + 1.0)).collect();
    let a = 1.5f32;
    let (res, _) = run(
        &m,
        [4, 1, 1],
        Some([24, 1, 1]),
        vec![
            KernelArg::Scalar(a.to_le_bytes().to_vec()),
            KernelArg::Buffer(bytes_f32(&x)),
            KernelArg::Buffer(bytes_f32(&y)),
        ],
    );
    // clang contracts a*x+y into llvm.fmuladd, which llvm-spirv emits as OpenCL.std mad;
    // spvx's mad rounds the product, then the sum (docs: "OpenCL.std").
    let want: Vec<u32> = x
        .iter()
        .zip(&y)
        .map(|(x, y)| (a * x + y).to_bits())
        .collect();
    let got: Vec<u32> = f32s(out(&res, 2)).iter().map(|v| v.to_bits()).collect();
    assert_eq!(got, want);
    assert_eq!(out(&res, 1), bytes_f32(&x).as_slice(), "x is unchanged");
}

#[test]
fn saxpy_without_a_local_size_is_an_error() {
    let m = kernel("saxpy.spv", "saxpy");
    let mut res = spvx_exec::Resources::new();
    res.set_arg(0, KernelArg::Scalar(vec![0; 4]));
    res.set_arg(1, KernelArg::Buffer(vec![0; 16]));
    res.set_arg(2, KernelArg::Buffer(vec![0; 16]));
    let e = m
        .run(&mut res, [1, 1, 1], &spvx_exec::RunConfig::default())
        .unwrap_err();
    assert!(e.to_string().contains("local size"), "{e}");
    res.local_size = Some([4, 1, 1]);
    res.set_arg(0, KernelArg::Buffer(vec![0; 4]));
    let e = m
        .run(&mut res, [1, 1, 1], &spvx_exec::RunConfig::default())
        .unwrap_err();
    assert!(e.to_string().contains("kernel argument 0"), "{e}");
}

fn check_reduce(file: &str) {
    let m = kernel(file, "reduce");
    let groups = 5u32;
    let n = 16 * groups as usize;
    let input: Vec<i32> = splitmix(7, n)
        .iter()
        .map(|v| (*v % 2001) as i32 - 1000)
        .collect();
    let (res, _) = run(
        &m,
        [groups, 1, 1],
        None,
        vec![
            KernelArg::Buffer(bytes_i32(&input)),
            KernelArg::Buffer(vec![0; 4 * groups as usize]),
            KernelArg::Local(16 * 4),
            KernelArg::Buffer(vec![0; 8 * 8 * n]),
        ],
    );
    let want: Vec<i32> = input.chunks(16).map(|c| c.iter().sum()).collect();
    assert_eq!(i32s(out(&res, 1)), want, "{file}: workgroup sums");
    let ids = u64s(out(&res, 3));
    for g in 0..n as u64 {
        let row = &ids[8 * g as usize..8 * g as usize + 8];
        let want = [g, g % 16, g / 16, groups as u64, n as u64, 16, 1, g];
        assert_eq!(row, want, "{file}: built-ins of invocation {g}");
    }
}

#[test]
fn reduce_with_local_memory_and_barriers() {
    check_reduce("reduce.spv");
}

#[test]
fn reduce_at_o0() {
    check_reduce("reduce.O0.spv");
}

fn check_loops(file: &str) {
    let m = kernel(file, "loops");
    let (rows, width) = (40usize, 12usize);
    let data: Vec<i32> = splitmix(3, rows * width)
        .iter()
        .map(|v| match v % 10 {
            0 => 0,
            1 | 2 => -(((v >> 8) % 50) as i32) - 1,
            _ => ((v >> 8) % 300) as i32 + 1,
        })
        .collect();
    let (res, _) = run(
        &m,
        [5, 1, 1],
        Some([8, 1, 1]),
        vec![
            KernelArg::Buffer(bytes_i32(&data)),
            KernelArg::Buffer(vec![0; 8 * rows]),
            KernelArg::Scalar((width as i32).to_le_bytes().to_vec()),
        ],
    );
    let mut want = Vec::new();
    for r in 0..rows {
        let (mut sum, mut steps) = (0i32, 0i32);
        for k in 0..width {
            steps += 1;
            let v = data[r * width + k];
            if v < 0 {
                continue;
            }
            if v == 0 {
                break;
            }
            sum += v;
            if sum > 1000 {
                sum = -1;
                break;
            }
        }
        want.extend([sum, steps]);
    }
    assert_eq!(i32s(out(&res, 1)), want, "{file}");
}

#[test]
fn loops_with_break_and_continue() {
    check_loops("loops.spv");
}

#[test]
fn loops_at_o0() {
    check_loops("loops.O0.spv");
}

/// One `Item` in C layout: float4 pos (0..16), int id (16), char tag (20), short weight (22);
/// size 32 (aligned to the float4's 16).
fn item_bytes(pos: [f32; 4], id: i32, tag: i8, weight: i16) -> Vec<u8> {
    let mut b = vec![0u8; 32];
    for (k, p) in pos.iter().enumerate() {
        b[4 * k..4 * k + 4].copy_from_slice(&p.to_le_bytes());
    }
    b[16..20].copy_from_slice(&id.to_le_bytes());
    b[20] = tag as u8;
    b[22..24].copy_from_slice(&weight.to_le_bytes());
    b
}

fn check_structs(file: &str) {
    let m = kernel(file, "structs");
    let kinds: Vec<_> = m.kernel_args().iter().map(|a| (a.kind, a.size)).collect();
    assert_eq!(
        kinds[0],
        (KernelArgKind::Buffer, 32),
        "{file}: sizeof(Item)"
    );
    assert_eq!(kinds[2].1, 8, "{file}: sizeof(Params)");
    let n = 10usize;
    let mut items = Vec::new();
    let mut rows = Vec::new();
    for (i, r) in splitmix(11, n).iter().enumerate() {
        let pos = [i as f32 + 0.5, 2.0, 3.0, (r % 7) as f32];
        let (id, tag, weight) = (
            (r % 100) as i32 - 50,
            ((r >> 8) % 200) as i8,
            ((r >> 16) % 30) as i16,
        );
        items.extend(item_bytes(pos, id, tag, weight));
        rows.push((pos, id, tag, weight));
    }
    let (scale, bias) = (3i32, -7i32);
    let mut params = scale.to_le_bytes().to_vec();
    params.extend(bias.to_le_bytes());
    let (res, _) = run(
        &m,
        [n as u32, 1, 1],
        Some([1, 1, 1]),
        vec![
            KernelArg::Buffer(items),
            KernelArg::Buffer(vec![0; 12 * n]),
            KernelArg::Scalar(params),
            KernelArg::Scalar((n as i32).to_le_bytes().to_vec()),
        ],
    );
    let mut want = Vec::new();
    for i in 0..n {
        let s: i32 = rows[i..]
            .iter()
            .map(|(_, id, tag, w)| id * *w as i32 + *tag as i32)
            .sum();
        let (pos, ..) = rows[i];
        want.extend([s * scale + bias, (n - i) as i32, (pos[0] + pos[3]) as i32]);
    }
    assert_eq!(i32s(out(&res, 1)), want, "{file}");
}

#[test]
fn struct_arrays_pointer_walking_and_by_value_structs() {
    check_structs("structs.spv");
}

#[test]
fn structs_at_o0() {
    check_structs("structs.O0.spv");
}

/// Every committed kernel module is valid for the reference validator (SPIRV-Tools 2025.5,
/// found through `$SPVX_SPIRV_TOOLS` as scripts/test sets it; skipped when it is not set), so
/// the engine is tested on modules both validators accept.
#[test]
fn corpus_modules_pass_the_reference_validator() {
    let Some(dir) = std::env::var_os("SPVX_SPIRV_TOOLS") else {
        eprintln!("SPVX_SPIRV_TOOLS not set: skipped");
        return;
    };
    let val = std::path::Path::new(&dir).join("spirv-val");
    let corpus = format!("{}/tests/corpus/opencl", env!("CARGO_MANIFEST_DIR"));
    let mut checked = 0;
    for entry in std::fs::read_dir(&corpus).unwrap_or_else(|e| panic!("{corpus}: {e}")) {
        let path = entry.map(|e| e.path()).unwrap_or_default();
        if path.extension().is_none_or(|e| e != "spv") {
            continue;
        }
        let out = std::process::Command::new(&val)
            .arg(&path)
            .output()
            .unwrap_or_else(|e| panic!("{}: {e}", val.display()));
        assert!(
            out.status.success(),
            "{}: {}",
            path.display(),
            String::from_utf8_lossy(&out.stderr)
        );
        checked += 1;
    }
    assert!(checked >= 20, "only {checked} modules");
}
