"""The fixed-point math functions of SPV_INTEL_arbitrary_precision_fixed_point over arrays of
bit patterns (``spvx calc fixed``): ``spvx.fixed.sqrt(bits, w=16, i=4, signed=True, q="RND",
o="SAT")``.

Each function takes the input bit patterns (an integer array, or Python ints of any width),
the input format (``w`` bits, ``i`` integer bits, ``signed``), the result format (``rw``,
``ri``; default ``w``, ``i``), the quantization mode ``q`` and overflow mode ``o`` (SPIR-V
numbers or names: TRN TRN_ZERO RND RND_ZERO RND_INF RND_MIN_INF RND_CONV RND_CONV_ODD; WRAP
SAT SAT_ZERO SAT_SYM; ac_types' AC_ spellings too) and returns the result bit patterns in the
input's shape: uint64 when ``rw`` is at most 64, else an object array of Python ints.
``sincos`` and ``sincospi`` return a pair (sine, cosine).
"""

from __future__ import annotations

from typing import Any, Tuple, Union

import numpy as np

from . import _spvx
from ._errors import ArgumentError

__all__ = ["sqrt", "recip", "rsqrt", "sin", "cos", "sincos", "sinpi", "cospi", "sincospi", "log", "exp"]

Result = Union[np.ndarray, Tuple[np.ndarray, np.ndarray]]


def _evaluate(function: str, bits: Any, w: int, i: int, rw: Any, ri: Any, signed: bool,
              q: Union[int, str], o: Union[int, str]) -> Result:
    arr = np.asarray(bits)
    if arr.dtype.kind not in "uiO" and arr.size:
        raise ArgumentError(f"error: bits: give bit patterns as integers, not {arr.dtype}")
    rw = w if rw is None else rw
    ri = i if ri is None else ri
    args = (int(w), int(i), int(rw), int(ri), bool(signed), str(q), str(o))
    if arr.dtype.kind in "ui" and 0 < args[0] <= 64 and 0 < args[2] <= 64:
        # Widths up to 64 bits: the array's bytes to spvx-num's batch API and back.
        if arr.dtype.kind == "i" and arr.size and arr.min() < 0:
            raise ArgumentError("error: bits: bit patterns are unsigned (a negative value is not one)")
        blob, components = _spvx.fixed_words(function, arr.astype("<u8").reshape(-1).tobytes(), *args)
        out = np.frombuffer(blob, dtype="<u8").astype(np.uint64).reshape(-1, components)
        arrays = [out[:, k].reshape(arr.shape) for k in range(components)]
        return (arrays[0], arrays[1]) if len(arrays) == 2 else arrays[0]
    flat = [int(x) for x in arr.reshape(-1).tolist()]
    if any(x < 0 for x in flat):
        raise ArgumentError("error: bits: bit patterns are unsigned (a negative value is not one)")
    results, components = _spvx.fixed(function, flat, *args)
    dtype = np.uint64 if rw <= 64 else object
    parts = [[r[k] for r in results] for k in range(components)]
    arrays = [np.array(list(p), dtype=dtype).reshape(arr.shape) for p in parts]
    return (arrays[0], arrays[1]) if len(arrays) == 2 else arrays[0]


def _function(name: str):
    def f(bits: Any, *, w: int, i: int, rw: Any = None, ri: Any = None, signed: bool = False,
          q: Union[int, str] = "TRN", o: Union[int, str] = "WRAP") -> Result:
        return _evaluate(name, bits, w, i, rw, ri, signed, q, o)

    f.__name__ = f.__qualname__ = name
    f.__doc__ = f"The fixed-point {name} of each input bit pattern; see help(spvx.fixed)."
    return f


sqrt = _function("sqrt")
recip = _function("recip")
rsqrt = _function("rsqrt")
sin = _function("sin")
cos = _function("cos")
sincos = _function("sincos")
sinpi = _function("sinpi")
cospi = _function("cospi")
sincospi = _function("sincospi")
log = _function("log")
exp = _function("exp")
