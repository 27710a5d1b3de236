"""The exceptions and warnings of spvx.

Every error the library reports is a :class:`SpvxError`; its message is the text the ``spvx``
command line prints for the same error (``error: ...``, with the place: ``FILE:LINE:COL`` and
the source line for text, ``FILE: word W`` and the instruction for a binary).
"""


class SpvxError(Exception):
    """Any error spvx reports."""


class ArgumentError(SpvxError, ValueError):
    """An argument that is not one: an unknown name, a malformed value, a wrong type."""


class AssembleError(SpvxError):
    """SPIR-V text that does not assemble."""


class DisassembleError(SpvxError):
    """A binary that does not decode as a SPIR-V module."""


class ValidationError(SpvxError):
    """A module that is not valid: every error, each at its place."""


class RunError(SpvxError):
    """A run that cannot be made: the module, the entry point, bindings, data, the engine."""


class DeviceError(RunError):
    """A Vulkan device that cannot be opened or run on (``spvx.diff``)."""


class DpasError(SpvxError):
    """A DPAS multiplication that cannot be made (matrix shapes, element ranges, legality)."""


class CalcError(SpvxError, ValueError):
    """A fixed-point or mixed-dot case that cannot be computed (an input too wide, ...)."""


class RunWarning(UserWarning):
    """Something about a run's data that does not stop it (a buffer the entry point does not
    use, a buffer shorter than its block)."""


class UndefinedBehaviourWarning(UserWarning):
    """The program hit undefined behaviour; spvx used its documented result
    (``strict=True`` makes the first one a :class:`RunError`)."""
