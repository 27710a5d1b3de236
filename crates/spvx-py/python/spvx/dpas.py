"""Intel DPAS through spvx's bit-exact simulator (``spvx dpas matmul``)."""

from __future__ import annotations

import io
from typing import Any, Optional

import numpy as np

from . import _npy, _spvx


def matmul(
    A: Any,
    B: Any,
    C: Optional[Any] = None,
    *,
    a_type: str,
    b_type: str,
    dst_type: str,
    platform: str = "pvc",
    model: str = "emulator",
    bf_rounding: str = "rne",
    instructions: bool = False,
) -> np.ndarray:
    """D = C + A × B through DPAS (C absent: a null Src0, zero).

    ``a_type``/``b_type``: the precisions of A (Src2) and B (Src1): u1 s1 u2 s2 u4 s4 u8 s8 bf
    hf tf32 bf8 hf8. ``dst_type``: d, ud, f, bf, hf. Element conventions (as the command
    line's .npy files): integer A/B as int8 or uint8 arrays, hf as float16, bf as uint16
    bits, bf8/hf8 as uint8 bits, tf32 as float32; C and D as int32 (D), uint32 (UD), float32
    (F), uint16 bits (BF/HF; C may be float16 for HF). ``platform``: xehp, dg2, pvc, xe2, xe3,
    xe3p. ``model``: the float accumulation model (emulator, exact, esimd, cm, mesa,
    bf-tf-ftz). ``bf_rounding``: rne or emulator. ``instructions``: simulate each DPAS
    instruction instead of the fast GEMM (the same bits).
    """
    d = _spvx.dpas_matmul(
        _npy(A),
        _npy(B),
        None if C is None else _npy(C),
        a_type,
        b_type,
        dst_type,
        platform,
        model,
        bf_rounding,
        instructions,
    )
    return np.load(io.BytesIO(d), allow_pickle=False)
