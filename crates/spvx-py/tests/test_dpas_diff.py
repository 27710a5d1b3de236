"""spvx.dpas.matmul against exact integer products; spvx.diff on lavapipe."""

import os

import numpy as np
import pytest

import spvx
from test_run import SHADER, inputs


def test_dpas_matmul_int8_is_the_exact_product():
    rng = np.random.default_rng(4)
    a = rng.integers(-128, 128, (8, 64), dtype=np.int8)
    b = rng.integers(-128, 128, (64, 16), dtype=np.int8)
    c = rng.integers(-(2**20), 2**20, (8, 16), dtype=np.int32)
    want = a.astype(np.int64) @ b.astype(np.int64)
    d = spvx.dpas.matmul(a, b, a_type="s8", b_type="s8", dst_type="d")
    assert d.dtype == np.int32 and d.shape == (8, 16)
    np.testing.assert_array_equal(d, want)
    d = spvx.dpas.matmul(a, b, c, a_type="s8", b_type="s8", dst_type="d", instructions=True)
    np.testing.assert_array_equal(d, want + c)


def test_dpas_matmul_u4_and_errors():
    rng = np.random.default_rng(6)
    a = rng.integers(0, 16, (8, 64), dtype=np.uint8)
    b = rng.integers(-8, 8, (64, 16), dtype=np.int8)
    d = spvx.dpas.matmul(a, b, a_type="u4", b_type="s4", dst_type="d")
    np.testing.assert_array_equal(d, a.astype(np.int64) @ b.astype(np.int64))
    with pytest.raises(spvx.DpasError, match="A: dtype <i8 .*cannot hold s8 elements"):
        spvx.dpas.matmul(a.astype(np.int64), b, a_type="s8", b_type="s8", dst_type="d")
    with pytest.raises(spvx.ArgumentError, match="unknown precision `s9`"):
        spvx.dpas.matmul(a, b, a_type="s9", b_type="s8", dst_type="d")


def test_diff_engine_against_lavapipe(compile_glsl):
    spv = compile_glsl(SHADER)
    a, b, x, y = inputs(128)
    bufs = {(0, 0): a, (0, 1): b, (0, 2): np.zeros(128, np.int32), (0, 3): x, (0, 4): y,
            (0, 5): np.zeros(128, np.float32)}
    try:
        d = spvx.diff(spv, bufs, 2, push=np.zeros(1, np.int32))
    except spvx.DeviceError as e:
        if os.environ.get("SPVX_REQUIRE_VULKAN") == "1":
            raise
        pytest.skip(f"no Vulkan device: {e}")
    assert d.passed, d.bindings
    assert len(d.bindings) == 6 and all(b["mismatches"] == 0 for b in d.bindings)
    assert d.report["subgroup_size"] >= 1 and d.device
