# Quick start: `make demo` and `make check` (see README.md).
BUILD_DIR ?= build
BUILD_TYPE ?= Release
LLVM_PREFIX ?= /usr/lib/llvm-22
CMAKE_FLAGS ?=

.PHONY: all setup configure build check check-lit check-unit check-docs docs demo clean \
        check-python check-python-install fuzz-smoke check-sanitizers check-diff check-diff-cpu check-diff-norm check-diff-types check-diff-simt check-diff-f64 check-diff-long check-preseg-monotone \
        check-stress check-torch check-nvfuser check-thunder

all: build

setup:
	@scripts/setup.sh

$(BUILD_DIR)/build.ninja:
	cmake -G Ninja -S . -B $(BUILD_DIR) \
	  -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) \
	  -DMLIR_DIR=$(LLVM_PREFIX)/lib/cmake/mlir \
	  -DLLVM_EXTERNAL_LIT=$(LLVM_PREFIX)/bin/lit \
	  $(CMAKE_FLAGS)

configure: setup $(BUILD_DIR)/build.ninja

build: configure
	cmake --build $(BUILD_DIR)

check: build check-lit check-unit check-python check-docs fuzz-smoke check-diff check-preseg-monotone check-diff-cpu check-diff-norm check-diff-types check-diff-simt check-diff-f64

# Differential runs: random fusions (tools/fuser-gen) interpreted before and
# after the pipeline must give bit-identical results.
DIFF_SEEDS ?= 10000
DIFF_PIPELINES ?= 'builtin.module(canonicalize)' 'builtin.module(fuser-preseg)' \
  'builtin.module(func.func(fuser-segment))' 'builtin.module(fuser-preseg,func.func(fuser-segment))'

check-diff: build
	@for pipeline in $(DIFF_PIPELINES); do \
	  echo "fuser-diff: $$pipeline"; \
	  $(BUILD_DIR)/bin/fuser-diff --seeds 1..$(DIFF_SEEDS) --pipeline "$$pipeline" || exit 1; \
	done

# Preseg does not make segmentation worse in total (docs/Testing.md): the
# estimated time of fuser-segment after fuser-preseg, summed over the seeds,
# is no more than that of fuser-segment alone, for the default and the
# normalization family; about 30 s. The seeds where it is worse are counted
# and listed, but not bounded: their number is a property of seeds under a
# greedy segmenter and moves with each change of it
# (MAX_WORSE_SEGMENTATIONS=N bounds it for a run).
MAX_WORSE_SEGMENTATIONS ?=
check-preseg-monotone: build
	@for family in any normalization; do \
	  echo "fuser-diff --check-preseg-monotone --family $$family"; \
	  $(BUILD_DIR)/bin/fuser-diff --seeds 1..$(DIFF_SEEDS) --family $$family \
	    --pipeline 'builtin.module(fuser-preseg)' --check-preseg-monotone \
	    $(if $(MAX_WORSE_SEGMENTATIONS),--max-worse-segmentations=$(MAX_WORSE_SEGMENTATIONS)) \
	    || exit 1; \
	done

# The lowered kernels on the CPU backend against the interpreter, over the
# fusions preseg and segment make of generated ones; every schedule must run
# and every op occur.
CPU_DIFF_SEEDS ?= 2000

check-diff-cpu: build
	$(BUILD_DIR)/bin/fuser-diff --seeds 1..$(CPU_DIFF_SEEDS) --backend cpu \
	  --pipeline 'builtin.module(fuser-preseg,func.func(fuser-segment))' \
	  --require-schedule-coverage --require-op-coverage

# Normalization fusions (fuser-gen --family normalization: reductions over
# rows whose results meet the rows again) on the CPU backend; about 10 s.
NORM_DIFF_SEEDS ?= 300

check-diff-norm: build
	$(BUILD_DIR)/bin/fuser-diff --family normalization --seeds 1..$(NORM_DIFF_SEEDS) \
	  --backend cpu --pipeline 'builtin.module(fuser-preseg,func.func(fuser-segment))'

# The complex and 8-bit float element types (fuser-gen --family types: the
# default family's steps with those types among the choices) through every
# pipeline on the interpreter, and on the CPU backend; about 50 s.
TYPES_DIFF_SEEDS ?= 3000
TYPES_CPU_DIFF_SEEDS ?= 1000

check-diff-types: build
	@for pipeline in $(DIFF_PIPELINES); do \
	  echo "fuser-diff --family types: $$pipeline"; \
	  $(BUILD_DIR)/bin/fuser-diff --family types --seeds 1..$(TYPES_DIFF_SEEDS) \
	    --pipeline "$$pipeline" || exit 1; \
	done
	$(BUILD_DIR)/bin/fuser-diff --family types --seeds 1..$(TYPES_CPU_DIFF_SEEDS) \
	  --backend cpu --pipeline 'builtin.module(fuser-preseg,func.func(fuser-segment))' \
	  --require-op-coverage

# The real device code (gpu-module-to-binary format=llvm) under the SIMT
# emulator (docs/Lowering.md), every check on, against the interpreter: the
# default family with every schedule required, then the normalization
# family; about 80 s. Seeds whose fusions use transcendental ops and differ
# beyond the tolerance are listed as "device math" (libdevice is not the
# host's libm), not failed.
SIMT_DIFF_SEEDS ?= 1000
SIMT_NORM_DIFF_SEEDS ?= 300

check-diff-simt: build
	$(BUILD_DIR)/bin/fuser-diff --seeds 1..$(SIMT_DIFF_SEEDS) --backend simt \
	  --pipeline 'builtin.module(fuser-preseg,func.func(fuser-segment))' \
	  --require-schedule-coverage
	$(BUILD_DIR)/bin/fuser-diff --family normalization --seeds 1..$(SIMT_NORM_DIFF_SEEDS) \
	  --backend simt --pipeline 'builtin.module(fuser-preseg,func.func(fuser-segment))'

# The interpreter itself against an f64 evaluation of the same fusions,
# within the bound of a running error analysis (fuser-diff --check-f64,
# docs/Testing.md): the default, normalization and types families; about
# 20 s.
F64_DIFF_SEEDS ?= 10000
F64_NORM_DIFF_SEEDS ?= 2000
F64_TYPES_DIFF_SEEDS ?= 3000

check-diff-f64: build
	$(BUILD_DIR)/bin/fuser-diff --check-f64 --seeds 1..$(F64_DIFF_SEEDS)
	$(BUILD_DIR)/bin/fuser-diff --check-f64 --family normalization --seeds 1..$(F64_NORM_DIFF_SEEDS)
	$(BUILD_DIR)/bin/fuser-diff --check-f64 --family types --seeds 1..$(F64_TYPES_DIFF_SEEDS)

check-diff-long: build
	@for pipeline in $(DIFF_PIPELINES); do \
	  echo "fuser-diff: $$pipeline"; \
	  $(BUILD_DIR)/bin/fuser-diff --seeds 1..50000 --pipeline "$$pipeline" || exit 1; \
	done

# Hardening (docs/Testing.md): a bounded libFuzzer run that first replays
# test/Fuzz/crashes/, built with clang in its own directory, and the lit suite
# under ASan and UBSan built with GCC in another.
FUZZ_BUILD_DIR ?= build-fuzz
FUZZ_SMOKE_SECONDS ?= 60
ASAN_BUILD_DIR ?= build-asan

# A fixed seed makes the smoke repeatable: CI explores the same mutation
# sequence that passed here (scripts/fuzz.sh without FUZZ_SEED explores new
# ones).
FUZZ_SEED ?= 1

fuzz-smoke: setup
	FUZZ_BUILD_DIR=$(FUZZ_BUILD_DIR) LLVM_PREFIX=$(LLVM_PREFIX) FUZZ_SEED=$(FUZZ_SEED) \
	  scripts/fuzz.sh $(FUZZ_SMOKE_SECONDS)

$(ASAN_BUILD_DIR)/build.ninja:
	cmake -G Ninja -S . -B $(ASAN_BUILD_DIR) \
	  -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	  -DMLIR_DIR=$(LLVM_PREFIX)/lib/cmake/mlir \
	  -DLLVM_EXTERNAL_LIT=$(LLVM_PREFIX)/bin/lit \
	  -DFUSER_ENABLE_SANITIZERS=ON \
	  $(CMAKE_FLAGS)

check-sanitizers: setup $(ASAN_BUILD_DIR)/build.ninja
	cmake --build $(ASAN_BUILD_DIR) --target check-fuser fuser-unittests
	ASAN_OPTIONS=allow_user_poisoning=0 $(ASAN_BUILD_DIR)/bin/fuser-unittests
	ASAN_OPTIONS=allow_user_poisoning=0 $(ASAN_BUILD_DIR)/bin/fuser-diff --seeds 1..2000 \
	  --pipeline 'builtin.module(fuser-preseg,func.func(fuser-segment))'

# The stress family (scripts/stress.py, docs/Testing.md): 10^5-op chains and
# DAGs, wide and large fusions, zero extents, long nvFuser prints, through
# every tool and backend; then the small size under ASan and UBSan. Outside
# `make check`: the release run takes about 2 minutes here, the small one
# under the sanitizers about 1, building build-asan/ as long as a full build.
check-stress: build $(ASAN_BUILD_DIR)/build.ninja
	python3 scripts/stress.py --build $(BUILD_DIR) --size full
	cmake --build $(ASAN_BUILD_DIR) --target fuser-opt fuser-run fuser-translate
	ASAN_OPTIONS=allow_user_poisoning=0 python3 scripts/stress.py \
	  --build $(ASAN_BUILD_DIR) --size small --sanitizer

check-lit:
	cmake --build $(BUILD_DIR) --target check-fuser

check-unit:
	$(BUILD_DIR)/bin/fuser-unittests

# The Python package's pytest suite (docs/Python.md), against the build tree.
check-python: build
	PYTHONPATH=$(BUILD_DIR)/python_packages python3 -m pytest -q python/tests

# The same package with real torch (python/torch_tests, docs/Python.md): a
# virtual environment of its own that sees python3's packages (numpy,
# ml_dtypes, pytest) and gets torch from PyPI, about 6 GB with its CUDA
# libraries, so not part of `check`. Kept between runs.
TORCH_VENV ?= $(BUILD_DIR)/torch-venv

check-torch: build
	test -x $(TORCH_VENV)/bin/python || python3 -m venv --system-site-packages $(TORCH_VENV)
	$(TORCH_VENV)/bin/python -c 'import torch' 2>/dev/null \
	  || $(TORCH_VENV)/bin/python -m pip install -q torch
	PYTHONPATH=$(BUILD_DIR)/python_packages $(TORCH_VENV)/bin/python -m pytest -q \
	  -p no:cacheprovider python/torch_tests

# The frontend against nvFuser's own (python/tests_nvfuser, docs/Python.md):
# a CPython 3.12 venv (pyenv's) with torch 2.10 and the nvfuser-cu128-torch210
# wheel (nvFuser 0.2.36; it imports and builds definitions without a GPU),
# about 7 GB with torch's CUDA libraries, so not part of `check`. Kept
# between runs. fuser_mlir's side runs under python3 with the build tree's
# package (its native module is built for python3), nvFuser's in the venv.
NVFUSER_VENV ?= $(BUILD_DIR)/nvfuser-venv
PYTHON312 ?= $(firstword $(shell command -v python3.12 2>/dev/null) \
  $(wildcard $(HOME)/.pyenv/versions/3.12*/bin/python3.12))
NVFUSER_PACKAGES ?= torch==2.10.0 nvfuser-cu128-torch210==0.2.36.dev20260301

check-nvfuser: build
	@test -n "$(PYTHON312)" || { echo "check-nvfuser needs CPython 3.12 (PYTHON312=...)"; exit 1; }
	test -x $(NVFUSER_VENV)/bin/python || $(PYTHON312) -m venv $(NVFUSER_VENV)
	$(NVFUSER_VENV)/bin/python -c 'import nvfuser_direct' 2>/dev/null \
	  || $(NVFUSER_VENV)/bin/python -m pip install -q $(NVFUSER_PACKAGES)
	PYTHONPATH=$(BUILD_DIR)/python_packages python3 python/tests_nvfuser/differential.py \
	  --nvfuser-python $(NVFUSER_VENV)/bin/python

# Lightning Thunder on fuser_mlir (python/tests_thunder, docs/Python.md,
# "Thunder"): a venv for python3 (the native module is built for it) with
# torch 2.10 and lightning-thunder 0.2.6 from PyPI, about 6 GB with torch's
# CUDA libraries, so not part of `check`. Kept between runs. The driver
# points Thunder's nvFuser executor at fuser_mlir on CPU tensors, on the CPU
# backend, and checks forward and backward against eager torch.
THUNDER_VENV ?= $(BUILD_DIR)/thunder-venv
THUNDER_PACKAGES ?= torch==2.10.0 lightning-thunder==0.2.6

check-thunder: build
	test -x $(THUNDER_VENV)/bin/python || python3 -m venv --system-site-packages $(THUNDER_VENV)
	$(THUNDER_VENV)/bin/python -c 'import thunder' 2>/dev/null \
	  || $(THUNDER_VENV)/bin/python -m pip install -q $(THUNDER_PACKAGES)
	FUSER_MLIR_HOST_BACKEND=cpu PYTHONPATH=$(BUILD_DIR)/python_packages \
	  $(THUNDER_VENV)/bin/python python/tests_thunder/run_thunder.py

# docs/ holds the op and pass references generated from ODS; they must be
# current.
GENERATED_DOCS = Dialects/FuserOps.md FuserPasses.md FuserConversionPasses.md

check-docs:
	cmake --build $(BUILD_DIR) --target mlir-doc
	@for doc in $(GENERATED_DOCS); do \
	  diff -u docs/$$doc $(BUILD_DIR)/docs/$$doc \
	    || { echo "docs/$$doc is stale: run 'make docs'"; exit 1; }; \
	done

docs: build
	cmake --build $(BUILD_DIR) --target mlir-doc
	@for doc in $(GENERATED_DOCS); do \
	  mkdir -p $$(dirname docs/$$doc) && cp $(BUILD_DIR)/docs/$$doc docs/$$doc; \
	done

demo: build
	@scripts/demo.sh $(BUILD_DIR)/bin

# Kernel performance measured on the CPU (docs/Performance.md): the memory
# report over the bench cases, then the compile latency of the Mistral
# fusion. A report, not part of `check`.
.PHONY: bench-cpu
bench-cpu: build
	python3 bench/perf_table.py --build-dir $(BUILD_DIR)
	python3 bench/compile_latency.py --build-dir $(BUILD_DIR)

# `pip install ./python` into a fresh virtual environment, then the Mistral
# repro script through the installed package (docs/Python.md). Not part of
# `check`: scikit-build-core builds the package's libraries again, in
# $(PYTHON_INSTALL_DIR)/cmake (kept, so reruns are incremental). The lit
# suite tests the package from the build tree.
PYTHON_INSTALL_DIR ?= build-python-install

check-python-install: setup
	rm -rf $(PYTHON_INSTALL_DIR)/venv
	python3 -m venv $(PYTHON_INSTALL_DIR)/venv
	$(PYTHON_INSTALL_DIR)/venv/bin/python -m pip install -q ./python \
	  -C build-dir=$(CURDIR)/$(PYTHON_INSTALL_DIR)/cmake
	cd / && $(CURDIR)/$(PYTHON_INSTALL_DIR)/venv/bin/python -m fuser_mlir.nvfuser_compat \
	  $(CURDIR)/test/Python/Inputs/mistral_rope_bwd.py --preseg --segment

clean:
	rm -rf $(BUILD_DIR)
