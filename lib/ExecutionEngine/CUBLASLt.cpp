//===- CUBLASLt.cpp - cuBLASLt, loaded at run time ------------------------===//
//
// The entry points by name (dlsym) and the handle (CUBLASLt.h). Which
// library is loaded is the driver's choice (Driver::getBlasLt).
//
//===----------------------------------------------------------------------===//

#include "fuser/ExecutionEngine/CUBLASLt.h"

#include <dlfcn.h>

using namespace mlir::fuser::cuda;

const char *mlir::fuser::cuda::resolveBlasLtAPI(void *library,
                                                BlasLtAPI &api) {
  const char *missing = nullptr;
  auto need = [&](const char *name, auto *&fn) {
    fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(
        dlsym(library, name));
    if (!fn && !missing)
      missing = name;
  };
  need("cublasLtCreate", api.cublasLtCreate);
  need("cublasLtDestroy", api.cublasLtDestroy);
  need("cublasLtGetStatusName", api.cublasLtGetStatusName);
  need("cublasLtMatmulDescCreate", api.cublasLtMatmulDescCreate);
  need("cublasLtMatmulDescDestroy", api.cublasLtMatmulDescDestroy);
  need("cublasLtMatmulDescSetAttribute", api.cublasLtMatmulDescSetAttribute);
  need("cublasLtMatrixLayoutCreate", api.cublasLtMatrixLayoutCreate);
  need("cublasLtMatrixLayoutDestroy", api.cublasLtMatrixLayoutDestroy);
  need("cublasLtMatrixLayoutSetAttribute",
       api.cublasLtMatrixLayoutSetAttribute);
  need("cublasLtMatmulPreferenceCreate", api.cublasLtMatmulPreferenceCreate);
  need("cublasLtMatmulPreferenceDestroy",
       api.cublasLtMatmulPreferenceDestroy);
  need("cublasLtMatmulPreferenceSetAttribute",
       api.cublasLtMatmulPreferenceSetAttribute);
  need("cublasLtMatmulAlgoGetHeuristic", api.cublasLtMatmulAlgoGetHeuristic);
  need("cublasLtMatmul", api.cublasLtMatmul);
  return missing;
}

llvm::Expected<BlasLt &> BlasLt::create(BlasLt &into, const BlasLtAPI &api,
                                        std::string libraryName) {
  into.fns = api;
  into.libraryName = std::move(libraryName);
  if (llvm::Error e =
          into.check(api.cublasLtCreate(&into.handle), "cublasLtCreate"))
    return llvm::createStringError("no cuBLASLt handle (" + into.libraryName +
                                   ": " + llvm::toString(std::move(e)) + ")");
  return into;
}

llvm::Error BlasLt::check(cublasStatus_t status,
                          const llvm::Twine &what) const {
  if (status == CUBLAS_STATUS_SUCCESS)
    return llvm::Error::success();
  const char *name = fns.cublasLtGetStatusName
                         ? fns.cublasLtGetStatusName(status)
                         : nullptr;
  return llvm::createStringError(what + " failed: " +
                                 (name ? name : "unknown status") + " (" +
                                 llvm::Twine(status) + ")");
}
