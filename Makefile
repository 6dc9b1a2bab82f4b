# Quick start: `make demo` and `make check` (see README.md).
BUILD_DIR ?= build
BUILD_TYPE ?= Release
LLVM_PREFIX ?= /usr/lib/llvm-22
CMAKE_FLAGS ?=

.PHONY: all setup configure build check check-lit check-unit check-docs docs demo clean

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

check: build check-lit check-unit check-docs

check-lit:
	cmake --build $(BUILD_DIR) --target check-fuser

check-unit:
	$(BUILD_DIR)/bin/fuser-unittests

# docs/ holds the op and pass references generated from ODS; they must be
# current.
GENERATED_DOCS = Dialects/FuserOps.md FuserPasses.md

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
	@echo "== examples/mistral_rope_bwd.mlir (as written)"
	@$(BUILD_DIR)/bin/fuser-opt examples/mistral_rope_bwd.mlir

clean:
	rm -rf $(BUILD_DIR)
