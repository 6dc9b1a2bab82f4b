# Quick start: `make demo` and `make check` (see README.md).
BUILD_DIR ?= build
BUILD_TYPE ?= Release
LLVM_PREFIX ?= /usr/lib/llvm-22
CMAKE_FLAGS ?=

.PHONY: all setup configure build check check-lit check-docs docs demo clean

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

check: build check-lit check-docs

check-lit:
	cmake --build $(BUILD_DIR) --target check-fuser

# docs/ holds the op reference generated from ODS; it must be current.
check-docs:
	cmake --build $(BUILD_DIR) --target mlir-doc
	@diff -u docs/Dialects/FuserOps.md $(BUILD_DIR)/docs/Dialects/FuserOps.md \
	  || (echo "docs/Dialects/FuserOps.md is stale: run 'make docs'"; exit 1)

docs: build
	cmake --build $(BUILD_DIR) --target mlir-doc
	mkdir -p docs/Dialects
	cp $(BUILD_DIR)/docs/Dialects/FuserOps.md docs/Dialects/FuserOps.md

demo: build
	@echo "== examples/mistral_rope_bwd.mlir (as written)"
	@$(BUILD_DIR)/bin/fuser-opt examples/mistral_rope_bwd.mlir

clean:
	rm -rf $(BUILD_DIR)
