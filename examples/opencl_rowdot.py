#!/usr/bin/env python3
"""Writes examples/opencl_rowdot.toml (and, with --compile, opencl_rowdot.spv from
opencl_rowdot.cl with clang-15 + llvm-spirv-15).

The expected output is computed here from the OpenCL C source's meaning, with plain Python
integers, independently of spvx: out[r] = add_sat(sum_k A[r][k] * x[k], bias), add_sat
clamping the exact sum to [-2^31, 2^31 - 1] (OpenCL C 6.15.3). A and x are the run file's seeded
random fills (SplitMix64 as `spvx run --help` defines them), re-implemented here and checked
against the published reference outputs.
"""

import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
MASK64 = (1 << 64) - 1
ROWS, COLS = 8, 64
BIAS = 2147482000


def splitmix64(seed):
    state = seed & MASK64
    while True:
        state = (state + 0x9E3779B97F4A7C15) & MASK64
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        yield z ^ (z >> 31)


_ref = splitmix64(1234567)
assert [next(_ref) for _ in range(3)] == [
    6457827717110365317, 3203168211198807973, 9817491932198370423,
]  # Rosetta Code, "Pseudo-random numbers/Splitmix64"


def random_ints(seed, count, lo, hi):
    """Uniform integers in [lo, hi]: reject x >= 2^64 - (2^64 mod span), then lo + x mod span."""
    gen = splitmix64(seed)
    span = hi - lo + 1
    limit = (1 << 64) - ((1 << 64) % span)
    out = []
    while len(out) < count:
        x = next(gen)
        if x < limit:
            out.append(lo + x % span)
    return out


def main():
    if "--compile" in sys.argv:
        bc = "/tmp/opencl_rowdot.bc"
        subprocess.run(["clang-15", "-cc1", "-triple", "spir64-unknown-unknown",
                        "-cl-std=CL2.0", "-finclude-default-header", "-no-opaque-pointers",
                        "-O2", "-emit-llvm-bc", os.path.join(HERE, "opencl_rowdot.cl"),
                        "-o", bc], check=True)
        subprocess.run(["llvm-spirv-15", bc, "-o",
                        os.path.join(HERE, "opencl_rowdot.spv")], check=True)
    a = random_ints(11, ROWS * COLS, -128, 127)
    x = random_ints(12, COLS, -128, 127)
    expect = []
    for r in range(ROWS):
        row = a[r * COLS:(r + 1) * COLS]
        s = sum(p * q for p, q in zip(row, x)) + BIAS
        expect.append(max(-(1 << 31), min((1 << 31) - 1, s)))
    assert any(v == (1 << 31) - 1 for v in expect), "some row should saturate"
    assert any(v != (1 << 31) - 1 for v in expect), "some row should not saturate"
    text = f"""# Row dot products with an OpenCL C kernel (Kernel execution model, Physical64) compiled by
# clang-15 + llvm-spirv-15 from opencl_rowdot.cl: int8 A (8x64) times int8 x (64), summed in
# __local memory with barriers, plus a bias with add_sat. Written by opencl_rowdot.py, which
# computes the expected output with plain Python integers.
module = "opencl_rowdot.spv"
groups = {ROWS}

[[arg]]
index = 0
name = "a (8x64 int8, row-major)"
data = {{ random = "i8", count = {ROWS * COLS}, min = -128, max = 127, seed = 11 }}

[[arg]]
index = 1
name = "x (64 int8)"
data = {{ random = "i8", count = {COLS}, min = -128, max = 127, seed = 12 }}

[[arg]]
index = 2
name = "out (8 int32)"
data = {{ zeros = {4 * ROWS} }}
expect = {{ i32 = {expect} }}

[[arg]]
index = 3
name = "part (__local, 16 int32)"
local = 64

[[arg]]
index = 4
name = "bias"
data = {{ i32 = [{BIAS}] }}
"""
    with open(os.path.join(HERE, "opencl_rowdot.toml"), "w") as f:
        f.write(text)


if __name__ == "__main__":
    main()
