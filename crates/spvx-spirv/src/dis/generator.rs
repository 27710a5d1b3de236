//! Names of the tools registered for the header's generator word.
//!
//! Source: the `<ids type="vendor">` registry of SPIRV-Headers `include/spirv/spir-v.xml`
//! (SDK 1.4.335, the headers SPIRV-Tools 2025.5 is built from). spirv-dis prints
//! "vendor tool", or the vendor alone where the registry names no tool, and
//! `Unknown(<id>)` for ids the registry lacks.

/// Registered generator tool ids 0, 1, 2, ... in order.
const TOOLS: [&str; 50] = [
    "Khronos",
    "LunarG",
    "Valve",
    "Codeplay",
    "NVIDIA",
    "ARM",
    "Khronos LLVM/SPIR-V Translator",
    "Khronos SPIR-V Tools Assembler",
    "Khronos Glslang Reference Front End",
    "Qualcomm",
    "AMD",
    "Intel",
    "Imagination",
    "Google Shaderc over Glslang",
    "Google spiregg",
    "Google rspirv",
    "X-LEGEND Mesa-IR/SPIR-V Translator",
    "Khronos SPIR-V Tools Linker",
    "Wine VKD3D Shader Compiler",
    "Tellusim Clay Shader Compiler",
    "W3C WebGPU Group WHLSL Shader Translator",
    "Google Clspv",
    "LLVM MLIR SPIR-V Serializer",
    "Google Tint Compiler",
    "Google ANGLE Shader Compiler",
    "Netease Games Messiah Shader Compiler",
    "Xenia Xenia Emulator Microcode Translator",
    "Embark Studios Rust GPU Compiler Backend",
    "gfx-rs community Naga",
    "Mikkosoft Productions MSP Shader Compiler",
    "SpvGenTwo community SpvGenTwo SPIR-V IR Tools",
    "Google Skia SkSL",
    "TornadoVM Beehive SPIRV Toolkit",
    "DragonJoker ShaderWriter",
    "Rayan Hatout SPIRVSmith",
    "Saarland University Shady",
    "Taichi Graphics Taichi",
    "heroseh Hero C Compiler",
    "Meta SparkSL",
    "SirLynix Nazara ShaderLang Compiler",
    "Khronos Slang Compiler",
    "Zig Software Foundation Zig Compiler",
    "Rendong Liang spq",
    "LLVM LLVM SPIR-V Backend",
    "Robert Konrad Kongruent",
    "Kitsunebi Games Nuvk SPIR-V Emitter and DLSL compiler",
    "Nintendo",
    "ARM",
    "Goopax",
    "Icyllis Milica Arc3D Shader Compiler",
];

/// The text spirv-dis prints after `; Generator: ` for a generator word: the tool's name (or
/// `Unknown(<tool id>)`), `; `, and the tool-specific low 16 bits.
pub fn generator_text(generator: u32) -> String {
    let tool = generator >> 16;
    let misc = generator & 0xffff;
    match TOOLS.get(tool as usize) {
        Some(name) => format!("{name}; {misc}"),
        None => format!("Unknown({tool}); {misc}"),
    }
}

#[cfg(test)]
mod tests {
    use super::generator_text;

    #[test]
    fn known_and_unknown_tools() {
        assert_eq!(
            generator_text(0x0007_0000),
            "Khronos SPIR-V Tools Assembler; 0"
        );
        assert_eq!(
            generator_text(0x0008_000b),
            "Khronos Glslang Reference Front End; 11"
        );
        assert_eq!(generator_text(0x0001_0002), "LunarG; 2");
        assert_eq!(generator_text(0x0032_1234), "Unknown(50); 4660");
        assert_eq!(generator_text(0xffff_ffff), "Unknown(65535); 65535");
    }
}
