//===- F64Check.h - the interpreter against a float64 evaluation -*- C++ -*-===//
//
// fuser-diff --check-f64: every float type of a fusion widened to f64 (the
// same program, the same inputs widened exactly), interpreted, and each
// result of the interpreter's run of the original compared with the f64 run
// within a per-element error bound that a running error analysis propagates
// op by op alongside the f64 values (docs/Testing.md, "--check-f64").
//
//===----------------------------------------------------------------------===//

#ifndef FUSER_TOOLS_FUSER_DIFF_F64CHECK_H
#define FUSER_TOOLS_FUSER_DIFF_F64CHECK_H

#include "fuser/ExecutionEngine/Buffer.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

#include <map>
#include <string>

namespace mlir::fuser {

/// `type` with every float element type (f16, bf16, f32, the 8-bit floats)
/// made f64 and complex<f32> made complex<f64>; integers and i1 unchanged.
Type widenToF64(Type type);

/// A copy of `module` in which every value, argument and constant of a float
/// (complex) type has the f64 (complex<f64>) form of that type. Constants
/// convert exactly; casts between float types become f64 to f64 casts (no
/// ops); casts to and from integers stay. Null when the result does not
/// verify.
OwningOpRef<ModuleOp> widenFloatsToF64(ModuleOp module);

/// `buffer`'s elements converted exactly to the type widenToF64 makes.
Buffer widenBufferToF64(const Buffer &buffer);

/// Elements compared by the f64 check, over all the seeds of a run.
struct F64CheckTally {
  /// Elements within their bound (equal, for integer and i1 results).
  uint64_t checked = 0;
  /// Elements the analysis cannot bound, by the first reason on their path.
  std::map<std::string, uint64_t> excused;
  /// Elements of all values (intermediates included) that an op excused
  /// itself (not by an excused operand), by "op: reason".
  std::map<std::string, uint64_t> origins;
  uint64_t getExcused() const {
    uint64_t total = 0;
    for (const auto &[reason, count] : excused)
      total += count;
    return total;
  }
};

/// Checks the interpreter's results `expected` of `function` on `inputs`
/// against the interpreter's run of its f64 widening with the bound of the
/// running error analysis. Returns why they disagree (empty when every
/// element is within its bound or excused). With `inject`, the first element
/// that is checked gets an error far beyond its bound before the comparison
/// (to show that the mode fails).
std::string checkAgainstF64(func::FuncOp function, ArrayRef<Buffer> inputs,
                            ArrayRef<Buffer> expected, F64CheckTally &tally,
                            bool inject);

} // namespace mlir::fuser

#endif // FUSER_TOOLS_FUSER_DIFF_F64CHECK_H
