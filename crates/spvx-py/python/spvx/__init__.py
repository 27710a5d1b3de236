"""spvx for Python: the reference implementation of the SPIR-V ML arithmetic extensions
(SPV_KHR_integer_dot_product, SPV_ARM_tensors, SPV_INTEL_arbitrary_precision_fixed_point,
SPV_VALVE_mixed_float_dot_product) and a bit-exact Intel DPAS simulator, over NumPy arrays.

Every function calls the library function the ``spvx`` command line calls for the same job;
this package only converts arguments and results. Errors are :class:`SpvxError` subclasses
whose message is the text the command line prints. See docs/python.md.

- :func:`assemble`, :func:`disassemble`, :func:`validate`, :func:`reflect`: modules.
- :func:`run`: run a compute entry point over NumPy arrays (``spvx run``).
- :func:`diff`: the engine against a Vulkan device (``spvx diff``).
- :mod:`spvx.dpas`: ``matmul`` through the DPAS simulator (``spvx dpas matmul``).
- :mod:`spvx.fixed`: the fixed-point functions over arrays of bit patterns
  (``spvx calc fixed``); :func:`mixdot`: the mixed float dot products (``spvx calc mixdot``).
"""

from __future__ import annotations

import io
import json
import os
import warnings
from typing import Any, Dict, List, Mapping, Optional, Tuple, Union

import numpy as np

from . import _spvx
from ._errors import (
    ArgumentError,
    AssembleError,
    CalcError,
    DeviceError,
    DisassembleError,
    DpasError,
    RunError,
    RunWarning,
    SpvxError,
    UndefinedBehaviourWarning,
    ValidationError,
)

__all__ = [
    "ArgumentError",
    "AssembleError",
    "CalcError",
    "DeviceError",
    "Diff",
    "DisassembleError",
    "DpasError",
    "Local",
    "Outputs",
    "Raw",
    "RunError",
    "RunWarning",
    "SpvxError",
    "UndefinedBehaviourWarning",
    "ValidationError",
    "assemble",
    "diff",
    "disassemble",
    "dpas",
    "fixed",
    "local",
    "mixdot",
    "raw",
    "reflect",
    "run",
    "validate",
]


# --- arguments -------------------------------------------------------------------------------


class Raw:
    """Data given as its bytes, without the dtype check (the command line's ``raw:FILE``)."""

    def __init__(self, data: Any) -> None:
        if isinstance(data, (bytes, bytearray, memoryview)):
            self.bytes = bytes(data)
        else:
            self.bytes = np.ascontiguousarray(data).tobytes()


class Local:
    """A ``__local`` pointer argument of a Kernel entry point: ``nbytes`` of local memory."""

    def __init__(self, nbytes: int) -> None:
        self.nbytes = int(nbytes)


def raw(data: Any) -> Raw:
    """``data`` (an array or bytes) as bytes taken as they are (``raw:FILE``)."""
    return Raw(data)


def local(nbytes: int) -> Local:
    """A Kernel's ``__local`` argument of ``nbytes`` bytes (``--arg N=local:BYTES``)."""
    return Local(nbytes)


def _npy(array: Any) -> bytes:
    """The ``.npy`` file of ``array`` (how arrays reach the Rust side)."""
    out = io.BytesIO()
    try:
        np.save(out, np.asarray(array), allow_pickle=False)
    except ValueError as e:
        raise ArgumentError(f"error: {e}") from None
    return out.getvalue()


def _array(kind: str, data: bytes) -> np.ndarray:
    """An output: ``.npy`` bytes, or raw bytes as uint8."""
    if kind == "npy":
        return np.load(io.BytesIO(data), allow_pickle=False)
    return np.frombuffer(data, dtype=np.uint8).copy()


def _source(value: Any) -> Tuple[str, Any]:
    """Where a binding's data comes from (see run's ``buffers``)."""
    if isinstance(value, Raw):
        return ("raw", value.bytes)
    if isinstance(value, Local):
        return ("local", value.nbytes)
    if isinstance(value, (bytes, bytearray, memoryview)):
        return ("raw", bytes(value))
    if isinstance(value, str):
        return ("source", value)
    if isinstance(value, os.PathLike):
        return ("source", os.fspath(value))
    return ("array", _npy(value))


def _module(module: Any) -> Tuple[Optional[str], Optional[bytes], str]:
    """(path, data, name): a path (os.PathLike, or a str without a line break), or the module
    itself (bytes: binary or text; a str with line breaks: text)."""
    if isinstance(module, os.PathLike):
        return (os.fspath(module), None, os.fspath(module))
    if isinstance(module, str):
        if "\n" in module:
            return (None, module.encode(), "<text>")
        return (module, None, module)
    if isinstance(module, (bytes, bytearray, memoryview)):
        return (None, bytes(module), "<bytes>")
    raise ArgumentError(
        f"error: module: expected a path, SPIR-V text or the bytes of a module, not {type(module).__name__}"
    )


def _module_bytes(module: Any) -> Tuple[bytes, str]:
    """The module's bytes and its name in messages (a file is read)."""
    path, data, name = _module(module)
    if path is not None:
        with open(path, "rb") as f:
            return (f.read(), name)
    assert data is not None
    return (data, name)


def _key(key: Any, what: str) -> Tuple[int, int, Optional[int]]:
    """(set, binding, index) of a ``buffers``/``tensors`` key."""
    if isinstance(key, tuple) and len(key) in (2, 3) and all(isinstance(k, (int, np.integer)) for k in key):
        k = [int(x) for x in key]
        return (k[0], k[1], k[2] if len(k) == 3 else None)
    raise ArgumentError(
        f"error: {what}: key {key!r} is not (SET, BINDING) or (SET, BINDING, INDEX)"
    )


def _origin(what: str, set_: int, binding: int, index: Optional[int]) -> str:
    return f"{what}[{set_}, {binding}]" if index is None else f"{what}[{set_}, {binding}, {index}]"


def _groups(groups: Union[int, Tuple[int, ...], List[int], str]) -> str:
    """Workgroup counts as the command line writes them (``X,Y,Z``)."""
    if isinstance(groups, (int, np.integer)):
        return str(int(groups))
    if isinstance(groups, str):
        return groups
    return ",".join(str(int(g)) for g in groups)


def _spec_value(value: Any) -> str:
    """A specialisation-constant value as the command line writes it (``--spec ID=VALUE``)."""
    if isinstance(value, (bool, np.bool_)):
        return "true" if value else "false"
    if isinstance(value, (int, np.integer)) and not isinstance(value, np.generic):
        return str(value)
    if isinstance(value, np.generic):
        return f"{value.dtype.name}:{value}"
    if isinstance(value, str):
        return value
    raise ArgumentError(
        f"error: spec value {value!r}: give an integer, a bool, a NumPy scalar (np.float32(1.5)) "
        "or TYPE:VALUE text ('f32:1.5'); a Python float has no width"
    )


def _local(local: Any) -> Optional[List[int]]:
    if local is None:
        return None
    sizes = [int(local)] if isinstance(local, (int, np.integer)) else [int(x) for x in local]
    if not 1 <= len(sizes) <= 3 or min(sizes) < 1:
        raise ArgumentError(f"error: local {local!r}: one to three sizes, each from 1")
    return sizes + [1] * (3 - len(sizes))


def _bindings(what: str, given: Optional[Mapping[Any, Any]]) -> List[Tuple[Any, ...]]:
    out = []
    for key, value in (given or {}).items():
        set_, binding, index = _key(key, what)
        out.append((set_, binding, index, _origin(what, set_, binding, index), _source(value)))
    return out


def _options(options: Mapping[str, Any]) -> str:
    """The engine options (`spvx run`'s, by their run-file names) as JSON for spvx-run."""
    return json.dumps(dict(options))


# --- results ---------------------------------------------------------------------------------


class Outputs(dict):
    """The buffers after a run: ``{(set, binding): ndarray}`` (``(set, binding, index)`` for an
    element of an array of buffers, the argument index for a Kernel's buffer arguments), each
    a 1-D array of its binding's element type (bf16 and fp8 as the unsigned integers of their
    bits; uint8 bytes for a block of several types), tensors in their shape.

    ``report`` says how the run went: ``engine`` ("JIT" or "interpreter"), ``note``, ``steps``,
    ``total_events`` and ``events`` (undefined behaviour, each rendered as the command line
    renders it), ``prints`` (DebugPrintf lines), ``warnings``, ``module``, ``entry``,
    ``groups``, ``local_size``.
    """

    report: Dict[str, Any]


class Diff:
    """The engine against a device: ``bindings`` (one dict per compared binding: ``key``,
    ``label``, ``type``, ``elements``, ``mismatches``, ``undefined``, ``within_ulps``,
    ``lengths``, ``passed``, ``listed`` differences with the invocation that wrote each),
    ``report`` (the engine's run, with ``device`` and ``subgroup_size``) and ``passed`` (every
    binding matches)."""

    def __init__(self, bindings: List[Dict[str, Any]], report: Dict[str, Any]) -> None:
        self.bindings = bindings
        self.report = report
        self.device: str = report["device"]
        self.passed: bool = all(b["passed"] for b in bindings)

    def __repr__(self) -> str:
        same = sum(b["passed"] for b in self.bindings)
        return f"<spvx.Diff {same} of {len(self.bindings)} bindings match on {self.device}>"


def _warn(report: Dict[str, Any]) -> None:
    for w in report["warnings"]:
        warnings.warn(RunWarning(w), stacklevel=3)
    for e in report["events"]:
        warnings.warn(UndefinedBehaviourWarning(e), stacklevel=3)
    if report["total_events"] > len(report["events"]):
        more = report["total_events"] - len(report["events"])
        warnings.warn(
            UndefinedBehaviourWarning(f"warning: {more} more undefined-behaviour event(s) not shown"),
            stacklevel=3,
        )


# --- functions -------------------------------------------------------------------------------


def assemble(text: str, target_env: Optional[str] = None) -> bytes:
    """SPIR-V text (spirv-as syntax) → the binary module (``spvx as``); ``target_env`` sets
    the header's version as spirv-as does (default SPIR-V 1.6)."""
    return _spvx.assemble(text, target_env)


def disassemble(
    binary: Union[bytes, bytearray, memoryview],
    *,
    raw_id: bool = False,
    header: bool = True,
    indent: bool = True,
    nested_indent: bool = False,
    offsets: bool = False,
    comment: bool = False,
) -> str:
    """A binary module → text, byte for byte as spirv-dis 2025.5 prints it (``spvx dis``);
    the switches are spirv-dis's (``--raw-id``, ``--no-header``, ``--no-indent``,
    ``--nested-indent``, ``--offsets``, ``--comment``)."""
    return _spvx.disassemble(bytes(binary), raw_id, header, indent, nested_indent, offsets, comment)


def validate(module: Any, *, target_env: Optional[str] = None) -> None:
    """Returns when the module (a path, text or bytes) is valid for ``target_env`` (default
    spv1.6); otherwise raises :class:`ValidationError` with every error (``spvx val``)."""
    data, name = _module_bytes(module)
    _spvx.validate(data, name, target_env)


def reflect(module: Any) -> Dict[str, Any]:
    """What the module declares (``spvx reflect --json``): entry points, bindings, push and
    spec constants, capabilities, extensions, the Vulkan features they need."""
    path, data, name = _module(module)
    return json.loads(_spvx.reflect(path, data, name))


def run(
    module: Any,
    buffers: Optional[Mapping[Any, Any]] = None,
    groups: Union[int, Tuple[int, ...], List[int], str] = 1,
    *,
    push: Any = None,
    spec: Optional[Mapping[int, Any]] = None,
    entry: Optional[str] = None,
    tensors: Optional[Mapping[Any, Any]] = None,
    args: Optional[Mapping[int, Any]] = None,
    local: Any = None,
    strict_bindings: bool = False,
    **options: Any,
) -> Outputs:
    """Runs a compute entry point on the engine (``spvx run``) and returns every buffer.

    ``module``: a path (``str`` without line breaks, or ``os.PathLike``), SPIR-V text (a
    ``str`` with line breaks) or the bytes of a module (binary or text).
    ``buffers``: ``{(set, binding): data}`` (``(set, binding, index)`` for an element of an
    array of buffers); data is a NumPy array (or anything ``np.asarray`` takes) whose dtype
    must be the binding's element type (bf16 as uint16 bits, fp8 as uint8 bits), ``raw(x)``
    or ``bytes`` for bytes as they are, or the command line's SOURCE text (``"zeros:4096"``,
    ``"f32:1,2.5"``, a file name). ``tensors``: the same for tensor bindings (the array's
    shape is the tensor's). ``push``: push-constant data, as a buffer's. ``spec``:
    ``{SpecId: value}`` (int, bool, NumPy scalar, or ``"f32:1.5"``). ``groups``: workgroup
    counts, ``X`` or ``(X, Y, Z)``.
    A Kernel (OpenCL) entry point takes ``args={N: data or local(BYTES)}`` and ``local``
    (its local size when it requires none) instead; its buffer arguments come back by index.
    ``options``: the engine options by their run-file names: ``strict``, ``max_steps``,
    ``max_invocations``, ``max_memory``, ``threads``, ``subgroup_size``, ``mixdot_model``,
    ``mixdot_rounding``, ``mixdot_flush_inputs``, ``mixdot_flush_outputs``, ``jit``.

    Warnings (a buffer the entry point does not use, undefined behaviour) are Python warnings
    (:class:`RunWarning`, :class:`UndefinedBehaviourWarning`); errors raise :class:`RunError`.
    """
    path, data, name = _module(module)
    tensor_list = [(b, None) for b in _bindings("tensors", tensors)]
    arg_list = [(int(n), f"args[{int(n)}]", _source(v)) for n, v in (args or {}).items()]
    spec_list = [(int(k), _spec_value(v)) for k, v in (spec or {}).items()]
    outputs, report = _spvx.run(
        path,
        data,
        name,
        _groups(groups),
        _bindings("buffers", buffers),
        tensor_list,
        arg_list,
        None if push is None else _source(push),
        spec_list,
        entry,
        _local(local),
        _options(options),
        strict_bindings,
    )
    result = Outputs((key, _array(kind, blob)) for key, kind, blob in outputs)
    result.report = report
    _warn(report)
    return result


def diff(
    module: Any,
    buffers: Optional[Mapping[Any, Any]] = None,
    groups: Union[int, Tuple[int, ...], List[int], str] = 1,
    *,
    push: Any = None,
    spec: Optional[Mapping[int, Any]] = None,
    entry: Optional[str] = None,
    tensors: Optional[Mapping[Any, Any]] = None,
    strict_bindings: bool = False,
    device: str = "vulkan",
    ulps: int = 0,
    types: Optional[Mapping[Tuple[int, int], str]] = None,
    show: int = 8,
    **options: Any,
) -> Diff:
    """Runs on the engine and on a Vulkan device (``device``: ``vulkan`` or ``vulkan:NAME``)
    and compares every output bit for bit (``spvx diff``); arguments as :func:`run`'s.
    ``ulps`` accepts floats that many units in the last place apart; ``types`` compares
    ``{(set, binding): TYPE}`` as that element type; ``show`` bounds the differences listed
    per binding. The engine runs with the device's subgroup size unless ``subgroup_size`` is
    given."""
    path, data, name = _module(module)
    tensor_list = [(b, None) for b in _bindings("tensors", tensors)]
    spec_list = [(int(k), _spec_value(v)) for k, v in (spec or {}).items()]
    type_list = [(tuple(int(x) for x in k), str(t)) for k, t in (types or {}).items()]
    bindings, report = _spvx.diff(
        path,
        data,
        name,
        _groups(groups),
        _bindings("buffers", buffers),
        tensor_list,
        None if push is None else _source(push),
        spec_list,
        entry,
        _options(options),
        strict_bindings,
        device,
        int(ulps),
        type_list,
        int(show),
    )
    _warn(report)
    return Diff(bindings, report)


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
) -> np.ndarray:
    """The mixed float dot products of SPV_VALVE_mixed_float_dot_product, one case per
    element (``spvx calc mixdot``): ``op`` is dot2acc32, dot2acc16 or dot4acc32; ``a`` and
    ``b`` are packed 32-bit words (component 0 in the low bits), ``acc`` the accumulator's
    bits; the three broadcast together. ``enc`` (or ``enc1``/``enc2``) is f16, bf16, e4m3 or
    e5m2. Returns the result bits: uint32 (f32 results) or uint16 (dot2acc16)."""
    e1, e2 = enc1 or enc, enc2 or enc
    if e1 is None or e2 is None:
        raise ArgumentError("error: missing enc1 (or enc for both vectors)" if e1 is None
                            else "error: missing enc2 (or enc for both vectors)")
    words = []
    for what, x in (("a", a), ("b", b), ("acc", acc)):
        arr = np.asarray(x)
        if arr.dtype.kind not in "ui" and arr.size:
            raise ArgumentError(f"error: {what}: give bits as unsigned integers, not {arr.dtype}")
        if arr.size and (arr.min() < 0 or int(arr.max()) > 0xFFFF_FFFF):
            raise ArgumentError(f"error: {what}: bits must fit in 32 bits")
        words.append(arr)
    a_, b_, acc_ = np.broadcast_arrays(*words)
    shape = a_.shape
    blob, width = _spvx.mixdot(
        op,
        e1,
        e2,
        a_.astype("<u4").tobytes(),
        b_.astype("<u4").tobytes(),
        acc_.astype("<u4").tobytes(),
        model,
        rounding,
        flush_input_denormals,
        flush_output_denormals,
    )
    out = np.frombuffer(blob, dtype="<u4").reshape(shape)
    return out.astype(np.uint16) if width == 16 else out.astype(np.uint32)


from . import dpas, fixed  # noqa: E402  (they use the names above)
