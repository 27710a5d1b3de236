from typing import Any, Optional

import numpy as np

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
) -> np.ndarray: ...
