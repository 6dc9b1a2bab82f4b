/*===- Passes.h - C API for the fuser passes and pipelines --------*- C -*-===*\
|*                                                                            *|
|* Registration of the fuser passes and pipelines (so that they parse in      *|
|* mlirParsePassPipeline strings), the preseg and segment pipelines as pass   *|
|* manager pieces or run on a module, and the segment report. Errors go to    *|
|* the context's diagnostic handlers, as everywhere in MLIR's C API.          *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef FUSER_C_PASSES_H
#define FUSER_C_PASSES_H

#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"
#include "mlir-c/Support.h"

#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Registers every fuser pass and pipeline (fuser-preseg,
/// fuser-segment-pipeline, ...) with MLIR's global registries. Idempotent.
MLIR_CAPI_EXPORTED void fuserRegisterPasses(void);

/// Options of the fuser-preseg pipeline (C++: PresegPipelineOptions).
typedef struct {
  bool foldLossyCastChains;
} FuserPresegOptions;

/// Options of the fuser-segment-pipeline (C++: SegmentPipelineOptions).
typedef struct {
  /// Run fuser-preseg first.
  bool preseg;
  /// With preseg: fuser-preseg's fold-lossy-cast-chains.
  bool foldLossyCastChains;
} FuserSegmentOptions;

MLIR_CAPI_EXPORTED FuserPresegOptions fuserPresegOptionsGetDefault(void);
MLIR_CAPI_EXPORTED FuserSegmentOptions fuserSegmentOptionsGetDefault(void);

/// Appends the pipeline to `pm`, which must be anchored on an op that holds
/// func.func ops (builtin.module, or op-agnostic). Functions that are not
/// fusions (no fuser op) are left alone.
MLIR_CAPI_EXPORTED void fuserAddPresegPipeline(MlirOpPassManager pm,
                                               FuserPresegOptions options);
MLIR_CAPI_EXPORTED void fuserAddSegmentPipeline(MlirOpPassManager pm,
                                                FuserSegmentOptions options);

/// Runs the pipeline on `module` in place; failure after reporting the
/// errors through the context's diagnostic handlers.
MLIR_CAPI_EXPORTED MlirLogicalResult
fuserRunPresegPipeline(MlirModule module, FuserPresegOptions options);
MLIR_CAPI_EXPORTED MlirLogicalResult
fuserRunSegmentPipeline(MlirModule module, FuserSegmentOptions options);

/// The segment report of the fusions of a segmented module, as
/// `fuser-segment-report` prints it (per fusion: kernels, and per segment
/// its kind, inputs, outputs and bytes), passed to `callback` in one or more
/// pieces; functions that are not fusions are skipped. Failure (and no text)
/// where a fusion computes tensors outside fuser.segment ops.
MLIR_CAPI_EXPORTED MlirLogicalResult
fuserPrintSegmentReport(MlirModule module, MlirStringCallback callback,
                        void *userData);

#ifdef __cplusplus
}
#endif

#endif // FUSER_C_PASSES_H
