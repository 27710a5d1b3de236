"""Type stubs of spvx (see __init__.py and docs/python.md)."""

import os
from typing import Any, Dict, List, Mapping, Optional, Tuple, Union

import numpy as np

from . import dpas as dpas
from . import fixed as fixed
from ._errors import ArgumentError as ArgumentError
from ._errors import AssembleError as AssembleError
from ._errors import CalcError as CalcError
from ._errors import DeviceError as DeviceError
from ._errors import DisassembleError as DisassembleError
from ._errors import DpasError as DpasError
from ._errors import RunError as RunError
from ._errors import RunWarning as RunWarning
from ._errors import SpvxError as SpvxError
from ._errors import UndefinedBehaviourWarning as UndefinedBehaviourWarning
from ._errors import ValidationError as ValidationError

Module = Union[str, os.PathLike, bytes, bytearray, memoryview]
Groups = Union[int, Tuple[int, ...], List[int], str]
Key = Union[Tuple[int, int], Tuple[int, int, int]]
Data = Union[np.ndarray, Any, "Raw", bytes, bytearray, memoryview, str, os.PathLike]

class Raw:
    bytes: bytes
    def __init__(self, data: Any) -> None: ...

class Local:
    nbytes: int
    def __init__(self, nbytes: int) -> None: ...

def raw(data: Any) -> Raw: ...
def local(nbytes: int) -> Local: ...

class Outputs(Dict[Union[Key, int], np.ndarray]):
    report: Dict[str, Any]

class Diff:
    bindings: List[Dict[str, Any]]
    report: Dict[str, Any]
    device: str
    passed: bool
    def __init__(self, bindings: List[Dict[str, Any]], report: Dict[str, Any]) -> None: ...

def assemble(text: str, target_env: Optional[str] = None) -> bytes: ...
def disassemble(
    binary: Union[bytes, bytearray, memoryview],
    *,
    raw_id: bool = False,
    header: bool = True,
    indent: bool = True,
    nested_indent: bool = False,
    offsets: bool = False,
    comment: bool = False,
) -> str: ...
def validate(module: Module, *, target_env: Optional[str] = None) -> None: ...
def reflect(module: Module) -> Dict[str, Any]: ...
def run(
    module: Module,
    buffers: Optional[Mapping[Key, Data]] = None,
    groups: Groups = 1,
    *,
    push: Optional[Data] = None,
    spec: Optional[Mapping[int, Union[int, bool, np.generic, str]]] = None,
    entry: Optional[str] = None,
    tensors: Optional[Mapping[Key, Data]] = None,
    args: Optional[Mapping[int, Union[Data, Local]]] = None,
    local: Union[None, int, Tuple[int, ...], List[int]] = None,
    strict_bindings: bool = False,
    strict: bool = ...,
    max_steps: int = ...,
    max_invocations: int = ...,
    max_memory: Union[int, str] = ...,
    threads: int = ...,
    subgroup_size: int = ...,
    mixdot_model: str = ...,
    mixdot_rounding: str = ...,
    mixdot_flush_inputs: bool = ...,
    mixdot_flush_outputs: bool = ...,
    jit: bool = ...,
) -> Outputs: ...
def diff(
    module: Module,
    buffers: Optional[Mapping[Key, Data]] = None,
    groups: Groups = 1,
    *,
    push: Optional[Data] = None,
    spec: Optional[Mapping[int, Union[int, bool, np.generic, str]]] = None,
    entry: Optional[str] = None,
    tensors: Optional[Mapping[Key, Data]] = None,
    strict_bindings: bool = False,
    device: str = "vulkan",
    ulps: int = 0,
    types: Optional[Mapping[Tuple[int, int], str]] = None,
    show: int = 8,
    strict: bool = ...,
    max_steps: int = ...,
    max_invocations: int = ...,
    max_memory: Union[int, str] = ...,
    threads: int = ...,
    subgroup_size: int = ...,
    mixdot_model: str = ...,
    mixdot_rounding: str = ...,
    mixdot_flush_inputs: bool = ...,
    mixdot_flush_outputs: bool = ...,
    jit: bool = ...,
) -> Diff: ...
def mixdot(
    op: str,
    a: Any,
    b: Any,
    acc: Any,
    *,
    enc: Optional[str] = None,
    enc1: Optional[str] = None,
    enc2: Optional[str] = None,
    model: str = "exact",
    rounding: str = "rne",
    flush_input_denormals: bool = False,
    flush_output_denormals: bool = False,
) -> np.ndarray: ...
