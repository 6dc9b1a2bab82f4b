//===- MLIRCAPI.cpp - MLIR's core C API as a shared library ---------------===//
//
// libFuserMLIRCAPI.so has no code of its own: it is MLIR's core C API
// (mlirContextCreate, mlirModuleCreateParse, mlirPassManager..., from
// Debian's static libMLIRCAPIIR.a) over libMLIR.so, for the users of the
// fuser C API (CMakeLists.txt says why it is not inside libFuserCAPI.so).
//
//===----------------------------------------------------------------------===//
