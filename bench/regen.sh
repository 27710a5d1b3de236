#!/bin/sh
# Recompiles the GLSL kernels of the benchmark set with glslangValidator 12 (Debian
# glslang-tools) for Vulkan 1.3. The .spv files are committed; run this after editing a .comp.
set -e
cd "$(dirname "$0")"
for f in *.comp; do
    glslangValidator -V --target-env vulkan1.3 "$f" -o "${f%.comp}.spv"
done
