"""spvx.fixed and spvx.mixdot, vectorised over arrays, against exact integer arithmetic."""

import math
from fractions import Fraction

import numpy as np
import pytest

import spvx


def test_fixed_sqrt_is_the_truncated_exact_root():
    # Unsigned <16, 4>: x = X / 2^12; TRN gives floor(sqrt(x) * 2^12) = isqrt(X * 2^12).
    xs = np.arange(0, 65536, 97, dtype=np.uint32).reshape(-1, 1)
    got = spvx.fixed.sqrt(xs, w=16, i=4)
    assert got.shape == xs.shape and got.dtype == np.uint64
    want = [math.isqrt(int(x) << 12) for x in xs.reshape(-1)]
    assert got.reshape(-1).tolist() == want


def test_fixed_wide_formats_are_python_ints():
    # Unsigned <100, 10>: 90 fraction bits; result <120, 10> has 110: isqrt(X * 2^130).
    xs = [3 << 90, (1 << 99) + 12345, 7]
    got = spvx.fixed.sqrt(xs, w=100, i=10, rw=120, ri=10)
    assert got.dtype == object
    assert list(got) == [math.isqrt(x << 130) for x in xs]


def test_fixed_rounding_and_saturation_by_name():
    # recip of 0.25 in unsigned <8, 4> (X = 4) is 4.0 = 0x40; of 1/16 (X = 1) is 16, which
    # overflows <8, 4> (max 15.9375 = 0xff): SAT gives 0xff, WRAP gives 16 mod 16 = 0.
    assert spvx.fixed.recip([4, 1], w=8, i=4, o="SAT").tolist() == [0x40, 0xFF]
    assert spvx.fixed.recip([4, 1], w=8, i=4, o="WRAP").tolist() == [0x40, 0x00]
    assert spvx.fixed.recip([4, 1], w=8, i=4, o=1).tolist() == [0x40, 0xFF]


def test_fixed_sincos_is_a_pair():
    # sin(0) = 0, cos(0) = 1: signed <16, 2> has 14 fraction bits, 1.0 = 0x4000.
    s, c = spvx.fixed.sincos(np.zeros(3, np.uint16), w=16, i=2, signed=True)
    assert s.tolist() == [0, 0, 0] and c.tolist() == [0x4000] * 3
    s, c = spvx.fixed.sincospi([], w=16, i=2, signed=True)
    assert s.shape == (0,) and c.shape == (0,)


def test_fixed_errors():
    with pytest.raises(spvx.ArgumentError, match="q:"):
        spvx.fixed.sqrt([1], w=8, i=4, q="NEAREST")
    with pytest.raises(spvx.CalcError, match=r"bits\[1\]"):
        spvx.fixed.sqrt([1, 1 << 9], w=8, i=4)
    with pytest.raises(spvx.ArgumentError):
        spvx.fixed.sqrt([-1], w=8, i=4)
    assert callable(spvx.fixed.exp) and callable(spvx.fixed.log)
    # Every function of 1.0 in unsigned <8, 4> (0x10).
    for name in spvx.fixed.__all__:
        getattr(spvx.fixed, name)([0x10], w=8, i=4)
    assert spvx.fixed.log([0x10], w=8, i=4).tolist() == [0]


def f16_bits(v):
    return np.asarray(v, np.float16).view(np.uint16).astype(np.uint32)


def test_mixdot_dot2acc32_exact_sums():
    # Integer-valued f16 components and f32 accumulators: the exact sum is an f32, so the
    # exact model's result is float32(acc + a0 b0 + a1 b1).
    rng = np.random.default_rng(2)
    a = rng.integers(-64, 65, (100, 2))
    b = rng.integers(-64, 65, (100, 2))
    acc = rng.integers(-1000, 1000, 100).astype(np.float32)
    pa = f16_bits(a[:, 0]) | (f16_bits(a[:, 1]) << 16)
    pb = f16_bits(b[:, 0]) | (f16_bits(b[:, 1]) << 16)
    got = spvx.mixdot("dot2acc32", pa, pb, acc.view(np.uint32), enc="f16")
    want = (acc.astype(np.int64) + (a * b).sum(axis=1)).astype(np.float32)
    assert got.dtype == np.uint32
    np.testing.assert_array_equal(got, want.view(np.uint32))


def test_mixdot_rounds_once_and_broadcasts():
    # 1 + 2^-11 + 2^-11 ... in dot2acc16 f16: a = (1, 2^-11), b = (1, 1), acc = 2^-11 in f16:
    # exact 1 + 2^-10 is an f16 (0x3c01); the sequential model rounds 1 + 2^-11 to 1 first
    # (ties to even), then adds 2^-11 again: 1.
    one, tiny = 0x3C00, 0x1000  # 2^-11 in f16: exponent -11 -> 0x1000
    assert Fraction(float(np.uint16(tiny).view(np.float16))) == Fraction(1, 2048)
    a = np.uint32(one | (tiny << 16))
    b = np.uint32(one | (one << 16))
    got = spvx.mixdot("dot2acc16", a, b, [tiny, tiny], enc="f16")
    assert got.dtype == np.uint16 and got.tolist() == [0x3C01, 0x3C01]
    seq = spvx.mixdot("dot2acc16", a, b, tiny, enc="f16", model="sequential")
    assert int(seq) == 0x3C00
    with pytest.raises(spvx.ArgumentError):
        spvx.mixdot("dot2acc16", a, b, tiny)
    with pytest.raises(spvx.ArgumentError):
        spvx.mixdot("dot2acc16", a, b, tiny, enc="f16", model="nope")
