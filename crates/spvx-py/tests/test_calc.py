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


def _random_patterns(w, n, seed):
    """n random w-bit patterns with the special ones first: 0, 1, the largest, the sign bit
    (the most negative signed value), all ones (−1 unit when signed), 1.0-like powers of two."""
    rng = np.random.default_rng(seed)
    top = (1 << w) - 1
    special = [0, 1, top, 1 << (w - 1), top - 1, 1 << (w // 2), (1 << (w - 1)) - 1]
    rand = [int(x) & top for x in rng.integers(0, 1 << 63, size=n, dtype=np.uint64)]
    rand = [x ^ (int(y) << 32 & top) for x, y in zip(rand, rng.integers(0, 1 << 32, size=n, dtype=np.uint64))]
    return special + rand


@pytest.mark.parametrize("w,i,rw,ri,signed,q,o", [
    (8, 4, 8, 4, False, "TRN", "WRAP"),
    (16, 5, 20, 3, True, "RND_CONV", "SAT"),
    (32, 4, 32, 4, False, "TRN", "WRAP"),
    (32, 8, 24, 2, True, "RND", "SAT_SYM"),
    (48, 20, 64, 30, True, "RND_INF", "SAT_ZERO"),
    (64, 2, 64, 2, True, "RND_CONV_ODD", "SAT"),
    (64, 40, 40, 10, False, "RND_ZERO", "WRAP"),
])
def test_fixed_batch_path_equals_the_exact_path(w, i, rw, ri, signed, q, o):
    # Widths up to 64 go through spvx-num's batch API. The exact path alone is what evaluate
    # takes for an input wider than 64 bits: the same values as <w + 64, i> patterns shifted
    # left by 64 (64 more fraction bits, all zero), evaluated one by one on Python ints.
    xs = _random_patterns(w, 60, seed=w * 1000 + rw)
    arr = np.array(xs, dtype=np.uint64)
    wide = [x << 64 for x in xs]

    def outcome(f, bits, w):
        # The result components as lists, or the error (an input the exact path cannot
        # evaluate within its limits, e.g. exp overflowing under WRAP) with its message.
        try:
            r = f(bits, w=w, i=i, rw=rw, ri=ri, signed=signed, q=q, o=o)
        except spvx.CalcError as e:
            return str(e)
        r = r if isinstance(r, tuple) else (r,)
        assert all(g.dtype == np.uint64 and g.shape == (len(xs),) for g in r)
        return [g.tolist() for g in r]

    for name in spvx.fixed.__all__:
        f = getattr(spvx.fixed, name)
        want = outcome(f, wide, w + 64)
        assert outcome(f, arr, w) == want, name
        # Python ints in an object array (the list-of-ints entry point) take the batch API too.
        assert outcome(f, np.array(xs, dtype=object), w) == want, name


def test_fixed_sqrt_and_recip_at_w32_against_integer_arithmetic():
    # Unsigned <32, 4>, TRN: sqrt(X / 2^28) · 2^28 floored = isqrt(X · 2^28); recip
    # 2^56 / X floored (WRAP: modulo 2^32; recip of 0 is documented as the saturated maximum).
    xs = _random_patterns(32, 5000, seed=7)
    arr = np.array(xs, dtype=np.uint32)
    got = spvx.fixed.sqrt(arr, w=32, i=4)
    assert got.tolist() == [math.isqrt(x << 28) for x in xs]
    got = spvx.fixed.recip(arr, w=32, i=4)
    assert [g for g, x in zip(got.tolist(), xs) if x] == [((1 << 56) // x) % (1 << 32) for x in xs if x]


def test_fixed_batch_errors_name_the_element():
    # The first bad element is named, whatever the array type; signed int arrays with a
    # negative value are refused before any evaluation.
    with pytest.raises(spvx.CalcError, match=r"^error: bits\[3\]: input bits need 9 bits but the input width is 8$"):
        spvx.fixed.sqrt(np.array([1, 2, 3, 0x100, 0x200], dtype=np.uint64), w=8, i=4)
    with pytest.raises(spvx.CalcError, match=r"^error: bits\[1\]: input bits need 65 bits but the input width is 64$"):
        spvx.fixed.sqrt([1, 1 << 64], w=64, i=4)
    with pytest.raises(spvx.ArgumentError, match="unsigned"):
        spvx.fixed.sqrt(np.array([1, -1], dtype=np.int64), w=8, i=4)
    s, c = spvx.fixed.sincos(np.zeros((2, 3), np.int32), w=16, i=2, signed=True)
    assert s.shape == c.shape == (2, 3) and c.tolist() == [[0x4000] * 3] * 2


def test_mixdot_element_errors_and_random_exact_sums():
    with pytest.raises(spvx.CalcError, match=r"^error: element 2: accumulator 0x10000 does not fit"):
        spvx.mixdot("dot2acc16", [0, 0, 0, 0], [0, 0, 0, 0], [0, 1, 0x10000, 0x20000], enc="f16")
    # Small integers in f16: products and sums exact in f32, so every model gives the exact sum.
    rng = np.random.default_rng(5)
    n = 20000
    va = rng.integers(-64, 64, size=(n, 2))
    vb = rng.integers(-64, 64, size=(n, 2))
    vacc = rng.integers(-1000, 1000, size=n)
    pa = f16_bits(va[:, 0]) | f16_bits(va[:, 1]) << 16
    pb = f16_bits(vb[:, 0]) | f16_bits(vb[:, 1]) << 16
    acc = vacc.astype(np.float32).view(np.uint32)
    want = (va * vb).sum(axis=1) + vacc
    for model in ["exact", "sequential", "sequential-acc-first", "fused-products", "fma-chain"]:
        got = spvx.mixdot("dot2acc32", pa, pb, acc, enc="f16", model=model)
        assert got.dtype == np.uint32
        assert got.view(np.float32).astype(np.int64).tolist() == want.tolist(), model
