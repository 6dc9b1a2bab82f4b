/*===- capi.c - Fuser-MLIR through the C API only -------------------------===*\
|*                                                                            *|
|* Loads the dialect, parses a module (a fusion path given on the command     *|
|* line), runs the preseg and segment pipelines and prints the module and     *|
|* the segment report. Built by test/Embedding/capi.test against an          *|
|* installed prefix; docs/Embedding.md quotes the marked part.                *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#include "fuser-c/Dialects.h"
#include "fuser-c/Passes.h"

#include "mlir-c/IR.h"
#include "mlir-c/Support.h"

#include <stdio.h>
#include <stdlib.h>

static void printToFile(MlirStringRef text, void *userData) {
  fwrite(text.data, 1, text.length, (FILE *)userData);
}

static char *readFile(const char *path) {
  FILE *file = fopen(path, "rb");
  if (!file)
    return NULL;
  fseek(file, 0, SEEK_END);
  long size = ftell(file);
  fseek(file, 0, SEEK_SET);
  char *text = malloc(size + 1);
  size_t read = fread(text, 1, size, file);
  text[read] = '\0';
  fclose(file);
  return text;
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s fusion.mlir\n", argv[0]);
    return 2;
  }
  char *source = readFile(argv[1]);
  if (!source) {
    fprintf(stderr, "cannot read %s\n", argv[1]);
    return 2;
  }

  /* [embedding-capi-begin] */
  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  fuserRegisterDialects(registry); /* fuser, func, arith */
  MlirContext context = mlirContextCreateWithRegistry(registry, false);
  mlirDialectRegistryDestroy(registry);
  fuserRegisterPasses();

  MlirModule module =
      mlirModuleCreateParse(context, mlirStringRefCreateFromCString(source));
  if (mlirModuleIsNull(module))
    return 1;

  FuserPresegOptions preseg = fuserPresegOptionsGetDefault();
  FuserSegmentOptions segment = fuserSegmentOptionsGetDefault();
  if (mlirLogicalResultIsFailure(fuserRunPresegPipeline(module, preseg)) ||
      mlirLogicalResultIsFailure(fuserRunSegmentPipeline(module, segment)))
    return 1;

  if (mlirLogicalResultIsFailure(
          fuserPrintSegmentReport(module, printToFile, stdout)))
    return 1;
  /* [embedding-capi-end] */

  mlirOperationPrint(mlirModuleGetOperation(module), printToFile, stdout);
  printf("\n");

  /* The dialect handle: load the fuser dialect into a fresh context. */
  MlirContext bare = mlirContextCreate();
  MlirDialect fuser =
      mlirDialectHandleLoadDialect(mlirGetDialectHandle__fuser__(), bare);
  MlirStringRef ns = mlirDialectGetNamespace(fuser);
  printf("handle loads: %.*s\n", (int)ns.length, ns.data);
  mlirContextDestroy(bare);

  mlirModuleDestroy(module);
  mlirContextDestroy(context);
  free(source);
  return 0;
}
