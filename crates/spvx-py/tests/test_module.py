"""assemble, disassemble, validate, reflect: compared with SPIRV-Tools 2025.5 (spirv-as,
spirv-dis, spirv-val) and with the messages of the spvx command line."""

import struct
import subprocess

import pytest

import spvx
from conftest import cli
from test_run import ASM, SHADER


def words(b: bytes):
    return list(struct.unpack(f"<{len(b) // 4}I", b))


def test_assemble_matches_spirv_as(spirv_tools, tmp_path):
    src = tmp_path / "m.spvasm"
    src.write_text(ASM)
    out = tmp_path / "m.spv"
    subprocess.run([spirv_tools / "spirv-as", str(src), "-o", str(out)], check=True)
    ours, theirs = words(spvx.assemble(ASM)), words(out.read_bytes())
    # Every word but the generator's (word 2).
    assert ours[:2] + ours[3:] == theirs[:2] + theirs[3:]
    # --target-env sets the version word as spirv-as does.
    out13 = tmp_path / "m13.spv"
    subprocess.run(
        [spirv_tools / "spirv-as", "--target-env", "vulkan1.1", str(src), "-o", str(out13)],
        check=True,
    )
    assert words(spvx.assemble(ASM, target_env="vulkan1.1"))[1] == words(out13.read_bytes())[1]


def test_disassemble_matches_spirv_dis(spirv_tools, compile_glsl):
    spv = compile_glsl(SHADER)
    cases = (
        ([], {}),
        (["--raw-id", "--no-header"], {"raw_id": True, "header": False}),
        (["--nested-indent", "--offsets", "--comment"], {"nested_indent": True, "offsets": True, "comment": True}),
    )
    for flags, kwargs in cases:
        want = subprocess.run(
            [spirv_tools / "spirv-dis", *flags, str(spv)], check=True, capture_output=True, text=True
        ).stdout
        assert spvx.disassemble(spv.read_bytes(), **kwargs) == want


def test_validate_agrees_with_spirv_val_and_carries_the_cli_message(spirv_tools, spvx_cli, tmp_path):
    good = tmp_path / "good.spvasm"
    good.write_text(ASM)
    assert spvx.validate(good) is None
    assert spvx.validate(spvx.assemble(ASM)) is None
    # OpSDiv with a vector result of scalar operands: invalid (and so is storing it).
    bad_text = ASM.replace("%q = OpSDiv %int %va %vb", "%q = OpSDiv %v3uint %va %vb")
    bad = tmp_path / "bad.spvasm"
    bad.write_text(bad_text)
    bad_spv = tmp_path / "bad.spv"
    subprocess.run([spirv_tools / "spirv-as", str(bad), "-o", str(bad_spv)], check=True)
    assert subprocess.run([spirv_tools / "spirv-val", str(bad_spv)], capture_output=True).returncode != 0
    for path in (bad, bad_spv):
        with pytest.raises(spvx.ValidationError) as e:
            spvx.validate(path)
        status, stderr = cli(spvx_cli, "val", path)
        assert status == 1
        assert str(e.value) == stderr.rstrip("\n")
    with pytest.raises(spvx.ArgumentError, match="unknown target environment 'vulkan9'"):
        spvx.validate(good, target_env="vulkan9")


def test_errors_carry_the_cli_messages(spvx_cli, tmp_path):
    text = ASM.replace("OpSDiv", "OpSDivv")
    src = tmp_path / "broken.spvasm"
    src.write_text(text)
    status, stderr = cli(spvx_cli, "run", src, "--groups", "1", "--out", tmp_path / "out")
    assert status == 1
    with pytest.raises(spvx.RunError) as e:
        spvx.run(src, {}, 1)
    assert str(e.value) == stderr.rstrip("\n")
    # The assembler's error, at its place (the name given is the file's).
    with pytest.raises(spvx.AssembleError) as e:
        spvx.assemble(text)
    assert str(e.value).startswith("error: ") and "<text>:" in str(e.value)
    # A binary that does not decode: spvx dis's message.
    binary = spvx.assemble(ASM)[:-2]  # not whole words
    (tmp_path / "cut.spv").write_bytes(binary)
    status, stderr = cli(spvx_cli, "dis", "cut.spv", cwd=tmp_path)
    assert status == 1
    with pytest.raises(spvx.DisassembleError) as e:
        spvx._spvx.disassemble(binary, name="cut.spv")
    assert str(e.value) == stderr.rstrip("\n")
    assert issubclass(spvx.DisassembleError, spvx.SpvxError)


def test_reflect(compile_glsl):
    r = spvx.reflect(compile_glsl(SHADER))
    (entry,) = r["entry_points"]
    assert entry["name"] == "main" and entry["local_size"] == [64, 1, 1]
    bindings = {(b["set"], b["binding"]) for b in r["bindings"]}
    assert bindings == {(0, i) for i in range(6)}
    assert [s["spec_id"] for s in r["spec_constants"]] == [0]
    assert "Shader" in r["capabilities"]
