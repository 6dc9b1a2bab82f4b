/*===- Dialects.h - C API for the fuser dialect -------------------*- C -*-===*\
|*                                                                            *|
|* The fuser dialect through MLIR's C API (mlir-c/), as upstream dialects     *|
|* expose theirs. Link FuserMLIR::FuserCAPI, or -lFuserCAPI -lFuserMLIRCAPI  *|
|* (the latter is MLIR's core C API: mlir-c/IR.h, mlir-c/Pass.h).             *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef FUSER_C_DIALECTS_H
#define FUSER_C_DIALECTS_H

#include "mlir-c/IR.h"

#ifdef __cplusplus
extern "C" {
#endif

/// mlirGetDialectHandle__fuser__(): the fuser dialect alone.
MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(Fuser, fuser);

/// Inserts the fuser dialect and the dialects a fusion is written in (func,
/// arith): what parsing a fusion needs (C++: registerFuserDialect).
MLIR_CAPI_EXPORTED void fuserRegisterDialects(MlirDialectRegistry registry);

#ifdef __cplusplus
}
#endif

#endif // FUSER_C_DIALECTS_H
