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

# oneDNN 3 for the bf16 gemms of library segments (LibraryCalls.cpp loads
# libdnnl.so.3 first, else Debian's libdnnl.so.2 above): Debian bookworm
# packages oneDNN 2.6, whose AMX kernels take a plain [K, N] weight about
# 1.3x slower than 3.x (docs/Performance.md). PyPI's CPU-only oneDNN 3.2
# built with GNU OpenMP, as Debian's is (onednn-cpu-gomp), has no headers
# to need: its library is unpacked into /usr/local/lib. Optional: without
# network the backend uses oneDNN 2.6.
DNNL3_WHEEL=onednn-cpu-gomp==2023.2.0
if ! /sbin/ldconfig -p | grep -q 'libdnnl\.so\.3 '; then
  echo "setup: installing oneDNN 3 ($DNNL3_WHEEL) into /usr/local/lib"
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO=sudo
  unpacked=$(mktemp -d)
  if python3 -m pip download -q --no-deps -d "$unpacked" "$DNNL3_WHEEL" \
     && python3 - "$unpacked" <<'PY'
import glob, os, sys, zipfile
unpacked = sys.argv[1]
(wheel,) = glob.glob(os.path.join(unpacked, "*.whl"))
with zipfile.ZipFile(wheel) as archive:
    (name,) = [n for n in archive.namelist() if n.endswith("/lib/libdnnl.so.3.2")]
    with open(os.path.join(unpacked, "libdnnl.so.3.2"), "wb") as out:
        out.write(archive.read(name))
PY
  then
    $SUDO install -m 644 "$unpacked/libdnnl.so.3.2" /usr/local/lib/libdnnl.so.3.2
    $SUDO ln -sf libdnnl.so.3.2 /usr/local/lib/libdnnl.so.3
    $SUDO /sbin/ldconfig
  else
    echo "setup: oneDNN 3 not installed; bf16 gemms use Debian's oneDNN 2.6"
  fi
  rm -rf "$unpacked"
fi
