//===- WorkgroupBuffer.h - shared-memory buffers of kernel nests -*- C++
//-*-===//
//
// Kernel nests that stage data on chip (tiled transposes, split-reduction
// partials, normalization rows) declare a workgroup `memref.global`; kernel
// outlining moves it into the `gpu.module` that uses it, and the CPU backend
// runs it as host memory.
//
//===----------------------------------------------------------------------===//

#ifndef FUSER_CONVERSION_UTILS_WORKGROUPBUFFER_H
#define FUSER_CONVERSION_UTILS_WORKGROUPBUFFER_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir::fuser {

/// Declares a private, uninitialized `memref.global` of `shape` x
/// `elementType` in workgroup memory at the start of `module`, named `name`
/// (renamed by the symbol table when taken). `alignment` in bytes, 0 for the
/// element's own.
inline memref::GlobalOp createWorkgroupBuffer(OpBuilder &b, Location loc,
                                              ModuleOp module, StringRef name,
                                              ArrayRef<int64_t> shape,
                                              Type elementType,
                                              int64_t alignment = 0) {
  // The table is built before the buffer exists, so that it renames the
  // buffer away from a taken name rather than from itself.
  SymbolTable symbols(module);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(module.getBody());
  auto type = MemRefType::get(
      shape, elementType, MemRefLayoutAttrInterface(),
      gpu::AddressSpaceAttr::get(b.getContext(), gpu::AddressSpace::Workgroup));
  auto buffer = memref::GlobalOp::create(
      b, loc, name, /*sym_visibility=*/b.getStringAttr("private"), type,
      /*initial_value=*/b.getUnitAttr(), /*constant=*/false,
      /*alignment=*/alignment ? b.getI64IntegerAttr(alignment) : IntegerAttr());
  symbols.insert(buffer);
  return buffer;
}

} // namespace mlir::fuser

#endif // FUSER_CONVERSION_UTILS_WORKGROUPBUFFER_H
