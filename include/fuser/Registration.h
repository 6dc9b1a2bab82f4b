//===- Registration.h - bring the fuser dialect and passes ------*- C++ -*-===//
//
// What a tool or a host compiler calls to use Fuser-MLIR: every fuser tool
// registers through these two functions instead of listing dialects and
// passes itself.
//
//===----------------------------------------------------------------------===//

#ifndef FUSER_REGISTRATION_H
#define FUSER_REGISTRATION_H

namespace mlir {
class DialectRegistry;
namespace fuser {

/// Inserts the fuser dialect and the dialects a fusion is written in (func
/// for the fusion itself, arith for its scalar constants). Defined in the
/// FuserDialect library.
void registerFuserDialect(DialectRegistry &registry);

/// Registers every fuser pass and pipeline (`fuser-preseg`) with MLIR's
/// global registries, so that they parse in pipeline strings. Idempotent.
void registerFuserPasses();

} // namespace fuser
} // namespace mlir

#endif // FUSER_REGISTRATION_H
