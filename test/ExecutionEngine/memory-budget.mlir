// A run has a budget for all its buffers together (--max-total-bytes;
// default 3/4 of the memory the process may use): running out is a located
// error and exit 2, never a signal or an allocator abort. Here the input
// takes 4096 bytes and each result 4096 more.
// RUN: not fuser-run %s --max-total-bytes 10000 2>&1 | FileCheck %s --check-prefix=INTERP
// RUN: not fuser-run %s --backend cpu --max-total-bytes 10000 2>&1 | FileCheck %s --check-prefix=CPU
// RUN: not fuser-run %s --backend cpu --memory-report --max-total-bytes 10000 2>&1 | FileCheck %s --check-prefix=CPU
// RUN: not fuser-run %s --max-total-bytes 4000 2>&1 | FileCheck %s --check-prefix=INPUTS
// RUN: fuser-run %s --backend cpu --max-total-bytes 40960 | FileCheck %s --check-prefix=FITS
// RUN: sh -c 'fuser-run %s --max-total-bytes 10000; echo "exit=$?"' 2>/dev/null | FileCheck %s --check-prefix=EXIT

// The interpreter holds its copy of the input and both results: the second
// result does not fit.
// INTERP: memory-budget.mlir:[[@LINE+8]]:8: error: a value of type 'tensor<32x32xf32>' takes 4096 bytes; with the 8192 bytes the run holds already, that is more than the limit of 10000 bytes for all its buffers together (--max-total-bytes)
// The CPU backend's input (read in place), then its outputs.
// CPU: error: output 1 of type 'memref<32x32xf32>' takes 4096 bytes; with the 8192 bytes the run holds already, that is more than the limit of 10000 bytes for all its buffers together (--max-total-bytes)
// INPUTS: error: argument 0 of type 'tensor<32x32xf32>' takes 4096 bytes, more than the limit of 4000 bytes for all its buffers together (--max-total-bytes)
// FITS: result 1: tensor<32x32xf32>
// EXIT: exit=2
func.func @two(%a: tensor<32x32xf32>) -> (tensor<32x32xf32>, tensor<32x32xf32>) {
  %0 = fuser.neg %a : tensor<32x32xf32>
  %1 = fuser.abs %a : tensor<32x32xf32>
  return %0, %1 : tensor<32x32xf32>, tensor<32x32xf32>
}
