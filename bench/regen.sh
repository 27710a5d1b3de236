#!/bin/sh
# Recompiles the GLSL kernels of the benchmark set with glslangValidator 12 (Debian
# glslang-tools) for Vulkan 1.3, and writes an optimised copy of some of them with spirv-opt -O
# (SPIRV-Tools 2025.5: $SPVX_SPIRV_TOOLS/spirv-opt, else spirv-opt on PATH). The .spv files are
# committed; run this after editing a .comp.
set -e
cd "$(dirname "$0")"
for f in *.comp; do
    glslangValidator -V --target-env vulkan1.3 "$f" -o "${f%.comp}.spv"
done
OPT=spirv-opt
if [ -n "$SPVX_SPIRV_TOOLS" ]; then OPT="$SPVX_SPIRV_TOOLS/spirv-opt"; fi
for k in gemm_i8 branchy; do
    "$OPT" -O --target-env=vulkan1.3 "$k.spv" -o "${k}_opt.spv"
done
