#!/usr/bin/env python3
"""Writes the run files of examples/ with their expected outputs.

The expected outputs are computed here, from the source documents, with plain Python integers and
fractions, independently of spvx: nothing in this script calls spvx or shares code with it.

- gemm_int8.toml: OpSDotAccSatKHR on packed 4x8-bit words (SPV_KHR_integer_dot_product): "the
  dot product of Vector 1 and Vector 2 ... added to Accumulator, saturating" at each packed word.
  A and Bt are random fills (SplitMix64, as `spvx run --help` defines them, re-implemented here
  and checked against the published reference outputs).
- tensor.toml: SPV_ARM_tensors reads (with OutOfBoundsValueARM), writes and size queries, by the
  VK_ARM_tensors rules.
- fixed.toml: the eleven functions of SPV_INTEL_arbitrary_precision_fixed_point on signed
  <32, 4> values, RND_CONV and SAT: f(x) evaluated with mpmath at 400 bits (the only
  non-standard-library module used; `pip install mpmath` to regenerate), then rounded to nearest
  even at 2^-28 and clamped; every value is checked to be far from a rounding tie.
- mixdot.toml: OpFDot2MixAcc32VALVE (f16 and bf16), OpFDot2MixAcc16VALVE (f16) and
  OpFDot4MixAcc32VALVE (E4M3 x E5M2) under spvx's default `exact` model: acc + sum of products
  computed exactly, rounded once (to nearest even) to the result type.

Run it from anywhere: `python3 examples/make_examples.py` rewrites the .toml files beside it.
"""

from fractions import Fraction
import os
import random

HERE = os.path.dirname(os.path.abspath(__file__))
MASK64 = (1 << 64) - 1


# ---------------------------------------------------------------- SplitMix64 and the fills
def splitmix64(seed):
    state = seed & MASK64
    while True:
        state = (state + 0x9E3779B97F4A7C15) & MASK64
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        yield z ^ (z >> 31)


_ref = splitmix64(1234567)
assert [next(_ref) for _ in range(5)] == [
    6457827717110365317, 3203168211198807973, 9817491932198370423,
    4593380528125082431, 16408922859458223821,
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


# ---------------------------------------------------------------- float formats
class Fmt:
    def __init__(self, name, ebits, mbits, ieee_specials=True):
        self.name, self.ebits, self.mbits = name, ebits, mbits
        self.bias = (1 << (ebits - 1)) - 1
        self.ieee_specials = ieee_specials  # False: E4M3 (no inf, NaN = S.1111.111)

    def decode(self, bits):
        sign = -1 if bits >> (self.ebits + self.mbits) & 1 else 1
        e = (bits >> self.mbits) & ((1 << self.ebits) - 1)
        f = bits & ((1 << self.mbits) - 1)
        emax = (1 << self.ebits) - 1
        if self.ieee_specials and e == emax:
            raise ValueError("special")
        if not self.ieee_specials and e == emax and f == (1 << self.mbits) - 1:
            raise ValueError("nan")
        if e == 0:
            return sign * Fraction(f, 1 << self.mbits) * Fraction(2) ** (1 - self.bias)
        return sign * (1 + Fraction(f, 1 << self.mbits)) * Fraction(2) ** (e - self.bias)

    def round(self, x):
        """x (a Fraction) rounded to nearest even; IEEE formats only; overflow gives inf."""
        sign = 1 if x < 0 else 0
        a = abs(x)
        top = sign << (self.ebits + self.mbits)
        if a == 0:
            return top
        e = a.numerator.bit_length() - a.denominator.bit_length()
        if Fraction(2) ** e > a:
            e -= 1
        e = max(e, 1 - self.bias)  # subnormals share the minimum exponent
        q = a / Fraction(2) ** (e - self.mbits)  # significand scaled to an integer
        n, r = divmod(q.numerator, q.denominator)
        twice = 2 * r
        if twice > q.denominator or (twice == q.denominator and n % 2 == 1):
            n += 1
        if n >= 1 << (self.mbits + 1):  # carry into the next binade
            n >>= 1
            e += 1
        if e > self.bias:  # overflow
            return top | (((1 << self.ebits) - 1) << self.mbits)
        if n < 1 << self.mbits:  # subnormal
            return top | n
        return top | ((e + self.bias) << self.mbits) | (n - (1 << self.mbits))


F16 = Fmt("f16", 5, 10)
BF16 = Fmt("bf16", 8, 7)
F32 = Fmt("f32", 8, 23)
E4M3 = Fmt("e4m3", 4, 3, ieee_specials=False)
E5M2 = Fmt("e5m2", 5, 2)

# Hand checks of the rounding (values from the IEEE 754 tables).
assert F32.round(Fraction(1)) == 0x3F800000 and F16.round(Fraction(1, 3)) == 0x3555
assert F16.round(Fraction(65520)) == 0x7C00 and F16.round(Fraction(1, 1 << 25)) == 0
assert F16.round(Fraction(3, 1 << 26)) == 0x0001 and F32.round(Fraction(1) + Fraction(1, 1 << 24)) == 0x3F800000
assert E4M3.decode(0x7E) == 448 and E5M2.decode(0x7B) == 57344 and BF16.decode(0x3F80) == 1


def hexs(bits, digits):
    return '"0x%0*x"' % (digits, bits)


def toml_list(items, per_line=8, indent="  "):
    lines = [", ".join(items[i:i + per_line]) for i in range(0, len(items), per_line)]
    return "[\n" + ",\n".join(indent + l for l in lines) + ",\n]"


# ---------------------------------------------------------------- int8 GEMM
def gemm():
    M, N, K = 8, 8, 32
    KW = K // 4
    a = random_ints(1, M * K, -128, 127)  # A[m][k] at m*K + k
    bt = random_ints(2, N * K, -128, 127)  # Bt[n][k] = B[k][n] at n*K + k
    rnd = random.Random(5)
    bias = [rnd.randint(-100000, 100000) for _ in range(M * N)]
    # Accumulators near the int32 limits, so that the saturation of some steps shows.
    bias[0] = 2**31 - 1 - 1000
    bias[9] = -(2**31) + 500
    bias[18] = 2**31 - 1
    bias[27] = -(2**31)
    lo, hi = -(2**31), 2**31 - 1
    c = []
    for m in range(M):
        for n in range(N):
            acc = bias[m * N + n]
            for j in range(KW):
                dot = sum(a[m * K + 4 * j + i] * bt[n * K + 4 * j + i] for i in range(4))
                acc = min(hi, max(lo, acc + dot))
            c.append(acc)
    text = f"""# int8 GEMM with OpSDotAccSatKHR on packed words: C = A x B + Bias, {M}x{N}x{K}, the
# accumulator saturated to int32 after each packed word (see gemm_int8.spvasm).
# Written by make_examples.py; the expected C comes from plain integer arithmetic there.
module = "gemm_int8.spvasm"
groups = [{N // 4}, {M // 4}]

[spec]
0 = {KW}  # KW = K / 4 packed words per row
1 = {N}   # N columns

[[buffer]]
binding = 0
name = "A ({M}x{K} int8, row-major, four per word)"
data = {{ random = "i8", count = {M * K}, min = -128, max = 127, seed = 1 }}

[[buffer]]
binding = 1
name = "Bt (B transposed: {N}x{K} int8)"
data = {{ random = "i8", count = {N * K}, min = -128, max = 127, seed = 2 }}

[[buffer]]
binding = 2
name = "Bias ({M}x{N} int32)"
data = {{ i32 = {toml_list([str(v) for v in bias])} }}

[[buffer]]
binding = 3
name = "C ({M}x{N} int32)"
data = {{ zeros = {4 * M * N} }}
expect = {{ i32 = {toml_list([str(v) for v in c])} }}
"""
    with open(os.path.join(HERE, "gemm_int8.toml"), "w") as f:
        f.write(text)


# ---------------------------------------------------------------- VALVE mixed float dots
def finite_bits(fmt, rnd, count, width):
    out = []
    while len(out) < count:
        b = rnd.getrandbits(width)
        try:
            v = fmt.decode(b)
        except ValueError:
            continue
        # Keep magnitudes moderate so that the sums are not all dominated by one term.
        if abs(v) <= 64:
            out.append(b)
    return out


def mixdot():
    n = 8
    rnd = random.Random(7)
    a16 = finite_bits(F16, rnd, 2 * n, 16)
    b16 = finite_bits(F16, rnd, 2 * n, 16)
    abf = finite_bits(BF16, rnd, 2 * n, 16)
    bbf = finite_bits(BF16, rnd, 2 * n, 16)
    a8 = finite_bits(E4M3, rnd, 4 * n, 8)
    b8 = finite_bits(E5M2, rnd, 4 * n, 8)
    acc = [F32.round(Fraction(rnd.randint(-4000, 4000), 64)) for _ in range(n)]
    acc16 = [F16.round(Fraction(rnd.randint(-400, 400), 16)) for _ in range(n)]
    # Hand-made cases in invocation 0 and 1:
    # (1.5, 2)·(2, -0.25) + 0.5 = 3; f16 1.5 = 0x3e00, 2 = 0x4000, -0.25 = 0xb400.
    a16[0:2], b16[0:2], acc[0] = [0x3E00, 0x4000], [0x4000, 0xB400], 0x3F000000
    # (1, 1)·(2^-24, 2^-24) + 1 = 1 + 2^-23 exactly (one rounding keeps it; adding the
    # products to the accumulator one at a time would give 1).
    a16[2:4], b16[2:4], acc[1] = [0x3C00, 0x3C00], [0x0001, 0x0001], 0x3F800000
    d16, dbf, d8, h16 = [], [], [], []
    for i in range(n):
        p16 = sum(F16.decode(a16[2 * i + c]) * F16.decode(b16[2 * i + c]) for c in range(2))
        pbf = sum(BF16.decode(abf[2 * i + c]) * BF16.decode(bbf[2 * i + c]) for c in range(2))
        p8 = sum(E4M3.decode(a8[4 * i + c]) * E5M2.decode(b8[4 * i + c]) for c in range(4))
        fa = F32.decode(acc[i])
        d16.append(F32.round(fa + p16))
        dbf.append(F32.round(fa + pbf))
        d8.append(F32.round(fa + p8))
        h16.append(F16.round(F16.decode(acc16[i]) + p16))
    hx16 = lambda v: [hexs(x, 4) for x in v]
    hx8 = lambda v: [hexs(x, 2) for x in v]
    hx32 = lambda v: [hexs(x, 8) for x in v]
    text = f"""# SPV_VALVE_mixed_float_dot_product: per invocation i,
#   D16[i] = OpFDot2MixAcc32VALVE(A16[i], B16[i], Acc[i])     2 x f16,  f32 accumulator
#   Dbf[i] = OpFDot2MixAcc32VALVE(Abf[i], Bbf[i], Acc[i])     2 x bf16, f32 accumulator
#   D8[i]  = OpFDot4MixAcc32VALVE(A8[i], B8[i], Acc[i])       4 x E4M3 by 4 x E5M2, f32 accumulator
#   H16[i] = OpFDot2MixAcc16VALVE(A16[i], B16[i], Acc16[i])   2 x f16,  f16 accumulator (low half
#                                                             of a 32-bit word)
# Expected results: the `exact` model (exact sum, one rounding to nearest even), computed with
# Python fractions by make_examples.py. Values are written as their bits.
module = "mixdot.spvasm"
groups = [{n // 4}]

[run]
mixdot_model = "exact"

[[buffer]]
binding = 0
name = "A16"
data = {{ f16 = {toml_list(hx16(a16))} }}

[[buffer]]
binding = 1
name = "B16"
data = {{ f16 = {toml_list(hx16(b16))} }}

[[buffer]]
binding = 2
name = "Abf"
data = {{ bf16 = {toml_list(hx16(abf))} }}

[[buffer]]
binding = 3
name = "Bbf"
data = {{ bf16 = {toml_list(hx16(bbf))} }}

[[buffer]]
binding = 4
name = "A8 (E4M3)"
data = {{ e4m3 = {toml_list(hx8(a8))} }}

[[buffer]]
binding = 5
name = "B8 (E5M2)"
data = {{ e5m2 = {toml_list(hx8(b8))} }}

[[buffer]]
binding = 6
name = "Acc"
data = {{ f32 = {toml_list(hx32(acc))} }}

[[buffer]]
binding = 7
name = "Acc16 (f16 in the low half of each word)"
data = {{ u32 = {toml_list(hx32(acc16))} }}

[[buffer]]
binding = 8
name = "D16"
data = {{ zeros = {4 * n} }}
expect = {{ f32 = {toml_list(hx32(d16))} }}

[[buffer]]
binding = 9
name = "Dbf"
data = {{ zeros = {4 * n} }}
expect = {{ f32 = {toml_list(hx32(dbf))} }}

[[buffer]]
binding = 10
name = "D8"
data = {{ zeros = {4 * n} }}
expect = {{ f32 = {toml_list(hx32(d8))} }}

[[buffer]]
binding = 11
name = "H16 (f16 result in the low half of each word)"
data = {{ zeros = {4 * n} }}
expect = {{ u32 = {toml_list(hx32(h16))} }}
"""
    with open(os.path.join(HERE, "mixdot.toml"), "w") as f:
        f.write(text)


# ---------------------------------------------------------------- SPV_ARM_tensors
def tensor():
    """VK_ARM_tensors rules (reference/tensors.md): an element whose coordinates are not all in
    [0, dimension) is replaced by the OutOfBoundsValueARM value on read (each element of an array
    read on its own); a write outside has no effect; OpTensorQuerySizeARM gives the dimension."""
    rows, cols = 3, 4
    t = [[(10 * r + c + 1) * (-1 if (r + c) % 3 == 0 else 1) for c in range(cols)] for r in range(rows)]
    u = [[7] * rows for _ in range(cols)]  # U is cols x rows, initially all 7
    oob = -1

    def read(r, c):
        return t[r][c] if 0 <= r < rows and 0 <= c < cols else oob

    e, p = [], []
    for i in range(16):
        r, c = divmod(i, 4)
        e.append(read(r, c))
        p.append(read(r, c + 1))
        if 0 <= c < cols and 0 <= r < rows:  # U[c, r]
            u[c][r] = 2 * e[-1] + 1
    flat = lambda m: [str(v) for row in m for v in row]
    text = f"""# SPV_ARM_tensors: reads with OutOfBoundsValueARM (element and 2-element array reads), writes
# (those outside the tensor have no effect), size queries. See tensor.spvasm.
# Written by make_examples.py; expected values from the VK_ARM_tensors rules there.
module = "tensor.spvasm"
groups = 1

[[tensor]]
binding = 0
name = "T (3x4 int32)"
shape = [3, 4]
data = {{ i32 = {toml_list(flat(t), per_line=4)} }}

[[tensor]]
binding = 1
name = "U (4x3 int32), U[c, r] = 2 T[r, c] + 1"
shape = [4, 3]
data = {{ i32 = {toml_list(flat([[7] * rows for _ in range(cols)]), per_line=3)} }}
expect = {{ i32 = {toml_list(flat(u), per_line=3)} }}

[[buffer]]
binding = 2
name = "E: T[r, c] or -1"
data = {{ zeros = 64 }}
expect = {{ i32 = {toml_list([str(v) for v in e], per_line=4)} }}

[[buffer]]
binding = 3
name = "P: T[r, c + 1] or -1"
data = {{ zeros = 64 }}
expect = {{ i32 = {toml_list([str(v) for v in p], per_line=4)} }}

[[buffer]]
binding = 4
name = "S: sizes of T and U"
data = {{ zeros = 16 }}
expect = {{ u32 = [{rows}, {cols}, {cols}, {rows}] }}
"""
    with open(os.path.join(HERE, "tensor.toml"), "w") as f:
        f.write(text)


# ---------------------------------------------------------------- fixed point
def fixed():
    import mpmath

    mpmath.mp.prec = 400
    frac_bits = 28  # <32, 4>: raw N means N * 2^-28, for the input and every result
    lo, hi = -(2**31), 2**31 - 1
    values = ["0.5", "1", "2", "3.75", "0.1", "7.9", "0.001", "3.14159265358979"]
    raws = [int(mpmath.nint(mpmath.mpf(v) * 2**frac_bits)) for v in values]

    def q(fx):
        """RND_CONV (nearest, ties to even) at 2^-28, then SAT."""
        t = fx * mpmath.mpf(2) ** frac_bits
        n = int(mpmath.floor(t))
        rest = t - n
        if rest != 0:  # exact values (sqrt 4, recip 2, ...) are integers here
            assert abs(rest - mpmath.mpf(0.5)) > mpmath.mpf(2) ** -300, "too close to a tie"
        if rest > 0.5 or (rest == 0.5 and n % 2 == 1):
            n += 1
        return min(hi, max(lo, n))

    pi = mpmath.pi
    out = []
    for n in raws:
        x = mpmath.mpf(n) / 2**frac_bits
        out += [
            q(mpmath.sqrt(x)), q(1 / x), q(1 / mpmath.sqrt(x)),
            q(mpmath.sin(x)), q(mpmath.cos(x)), q(mpmath.sin(x)), q(mpmath.cos(x)),
            q(mpmath.sin(pi * x)), q(mpmath.cos(pi * x)), q(mpmath.sin(pi * x)), q(mpmath.cos(pi * x)),
            q(mpmath.log(x)), q(mpmath.exp(x)),
        ]
    text = f"""# SPV_INTEL_arbitrary_precision_fixed_point: all eleven functions on eight inputs, signed
# <32, 4> in and out (raw N means N * 2^-28), RND_CONV (nearest, ties to even), SAT.
# Out[13 i + k]: sqrt, recip, rsqrt, sin, cos, sincos (sin, cos), sinpi, cospi,
# sincospi (sin, cos), log, exp of X[i]. Written by make_examples.py (mpmath at 400 bits).
# Inputs: {", ".join(values)} (each rounded to the nearest multiple of 2^-28).
module = "fixed.spvasm"
groups = 1

[[buffer]]
binding = 0
name = "X"
data = {{ i32 = {toml_list([str(v) for v in raws], per_line=4)} }}

[[buffer]]
binding = 1
name = "Out"
data = {{ zeros = {4 * 13 * len(raws)} }}
expect = {{ i32 = {toml_list([str(v) for v in out], per_line=13, indent="  ")} }}
"""
    with open(os.path.join(HERE, "fixed.toml"), "w") as f:
        f.write(text)


if __name__ == "__main__":
    gemm()
    mixdot()
    tensor()
    fixed()
