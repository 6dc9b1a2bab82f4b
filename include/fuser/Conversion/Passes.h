//===- Passes.h - fuser conversion passes -----------------------*- C++ -*-===//

#ifndef FUSER_CONVERSION_PASSES_H
#define FUSER_CONVERSION_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Complex/IR/Complex.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::fuser {

#define GEN_PASS_DECL
#include "fuser/Conversion/Passes.h.inc"

/// convert-fuser-to-scf{check-indices}: the function a kernel calls on a
/// gather index out of range, `void(i64 check, i64 index, i64 extent, i64
/// dim, i64 element)`, and the module attribute whose element `check` is
/// the location of that gather.
constexpr llvm::StringLiteral kIndexOutOfRangeFunction =
    "__fuser_index_out_of_range";
constexpr llvm::StringLiteral kIndexChecksAttr = "fuser.index_checks";

/// fuser-cpu-outline-block-loops: the attribute naming the outlined body of
/// a block-loop declaration, and the runtime function that
/// fuser-cpu-dispatch-block-loops calls, `void(ptr thunk, ptr context, i64
/// blocks)`, which runs `thunk(context, begin, end)` on ranges covering
/// blocks [0, blocks) and returns when all are done.
constexpr llvm::StringLiteral kBlockBodyAttr = "fuser.block_body";
constexpr llvm::StringLiteral kRunBlocksFunction = "__fuser_run_blocks";

#define GEN_PASS_REGISTRATION
#include "fuser/Conversion/Passes.h.inc"

} // namespace mlir::fuser

#endif // FUSER_CONVERSION_PASSES_H
