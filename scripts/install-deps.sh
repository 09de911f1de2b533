#!/usr/bin/env bash
# Installs every build and test dependency of Switchyard with apt-get.
# Idempotent and quiet: does nothing (and prints nothing) when all packages are present.
set -euo pipefail

packages=(
  cmake ninja-build ccache g++ pkg-config clang-format
  libtbb-dev libhwy-dev libsleef-dev libopenblas-dev libfftw3-dev libvkfft-dev
  ocl-icd-opencl-dev opencl-headers opencl-c-headers pocl-opencl-icd clinfo libclblast-dev
  libvulkan-dev mesa-vulkan-drivers libshaderc-dev glslang-dev spirv-tools glslc
  libdlpack-dev nlohmann-json3-dev libcli11-dev libfmt-dev libspdlog-dev libxxhash-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  clang libclang-rt-14-dev llvm
  libopenmpi-dev openmpi-bin
  python3 python3-dev python3-venv
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "install-deps: installing ${missing[*]}"
sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
