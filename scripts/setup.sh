#!/usr/bin/env bash
# Installs what the build and the tests need on Debian bookworm, idempotently:
# MLIR/LLVM 22 from apt.llvm.org-style Debian packages, Ninja, and the Python
# packages of the test suites. Does nothing when everything is present.
set -euo pipefail

APT_PACKAGES=(llvm-22-dev libmlir-22-dev libmlir-22 mlir-22-tools llvm-22-tools
              ninja-build cmake g++ libgtest-dev
              python3-dev python3-pip python3-venv  # the Python package
              clang-14 libclang-rt-14-dev  # libFuzzer for the fuzz smoke
              valgrind  # bench/segment_scaling.py --instructions
              libopenblas-dev  # library segments (matmul, linear) on the CPU backend, dlopen'ed
              libdnnl2)  # oneDNN: their bf16 gemms (LibraryCalls.cpp), dlopen'ed; optional

missing=()
for pkg in "${APT_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" \
    || missing+=("$pkg")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}"
fi

# The Python package (python/, docs/Python.md): nanobind builds its native
# module; numpy and ml_dtypes (bf16) carry tensors in and out of execute();
# pytest runs its tests (python/tests, `make check-python`). Installed for
# the `python3` that CMake's python/CMakeLists.txt picks.
PIP_PACKAGES=(nanobind numpy ml_dtypes pytest)
if ! python3 -c "import nanobind, numpy, ml_dtypes, pytest" 2>/dev/null; then
  echo "setup: pip installing ${PIP_PACKAGES[*]} for $(command -v python3)"
  # Debian's own python3 refuses installs outside a virtual environment
  # (PEP 668); a pyenv or other user-installed python3 takes them as is.
  python3 -m pip install -q "${PIP_PACKAGES[@]}" \
    || python3 -m pip install -q --break-system-packages "${PIP_PACKAGES[@]}"
fi
