//===- Registration.cpp - register the fuser passes and pipelines ---------===//
//
// registerFuserDialect lives with the dialect (FuserDialect.cpp) so that
// libraries that only build IR, like the importer, need not link passes.
//
//===----------------------------------------------------------------------===//

#include "fuser/Registration.h"
#include "fuser/Conversion/Passes.h"
#include "fuser/Dialect/Fuser/IR/FuserDialect.h"
#include "fuser/Dialect/Fuser/Transforms/Passes.h"
#include "fuser/Pipelines/Pipelines.h"

using namespace mlir;

void fuser::registerFuserPasses() {
  // The global registries reject a second registration of a name.
  static bool registered = [] {
    registerFuserTransformsPasses();
    registerFuserConversionPasses();
    registerFuserPipelines();
    return true;
  }();
  (void)registered;
}
