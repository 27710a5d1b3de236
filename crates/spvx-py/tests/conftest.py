"""Fixtures of the spvx Python tests: the tools the tests take independent answers from.

- glslangValidator (Debian's glslang-tools; scripts/test installs it) compiles the GLSL.
- SPIRV-Tools 2025.5 (``SPVX_SPIRV_TOOLS``, as the Rust tests find it) is the assembler,
  disassembler and validator spvx is compared with.
- The ``spvx`` command line (``SPVX_BIN``, else target/release/spvx) gives the messages the
  exceptions must carry.

A missing tool skips its tests, except under ``SPVX_REQUIRE_TOOLS=1`` (scripts/test), where it
fails them.
"""

import os
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[3]
EXAMPLES = REPO / "examples"


def _require(what: str):
    if os.environ.get("SPVX_REQUIRE_TOOLS") == "1":
        pytest.fail(f"{what} is required (SPVX_REQUIRE_TOOLS=1)")
    pytest.skip(f"{what} not found")


@pytest.fixture(scope="session")
def glslang():
    exe = shutil.which("glslangValidator")
    if exe is None:
        _require("glslangValidator")
    return exe


@pytest.fixture(scope="session")
def spirv_tools():
    d = os.environ.get("SPVX_SPIRV_TOOLS")
    if not d or not (Path(d) / "spirv-as").exists():
        _require("SPIRV-Tools (SPVX_SPIRV_TOOLS)")
    return Path(d)


@pytest.fixture(scope="session")
def spvx_cli():
    exe = Path(os.environ.get("SPVX_BIN", REPO / "target" / "release" / "spvx"))
    if not exe.exists():
        _require(f"the spvx command line ({exe})")
    return exe


@pytest.fixture
def compile_glsl(glslang, tmp_path):
    """GLSL compute source → the path of its SPIR-V module."""

    def compile(source: str, name: str = "shader") -> Path:
        src = tmp_path / f"{name}.comp"
        src.write_text(source)
        out = tmp_path / f"{name}.spv"
        subprocess.run(
            [glslang, "-V", "--target-env", "vulkan1.3", str(src), "-o", str(out)],
            check=True,
            capture_output=True,
        )
        return out

    return compile


def cli(exe, *args, cwd=None):
    """The command line's exit status and standard error."""
    p = subprocess.run([str(exe), *map(str, args)], capture_output=True, text=True, cwd=cwd)
    return p.returncode, p.stderr
