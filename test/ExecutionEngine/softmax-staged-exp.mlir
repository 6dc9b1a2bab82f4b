// Softmax's exp, staged by the normalization kernel (the output pass loads
// it; test/Conversion/FuserToSCF/normalization-staged-values.mlir), gives
// the interpreter's values on the CPU backend (4 accumulators per thread:
// the split sum reassociates, within the tolerance of unsplit sums) and
// under SIMT (the GPU schedule, the stage in shared memory, every access
// race-checked); without splits, bit for bit.
// RUN: fuser-run %s --backend cpu --check-against interp | FileCheck %s --check-prefix=SPLIT
// RUN: fuser-run %s --backend simt --check-against interp 2>&1 | FileCheck %s --check-prefix=SIMT
// RUN: fuser-run %s --backend cpu --check-against interp --split-reductions=false --ulp-tolerance 0 | FileCheck %s --check-prefix=EXACT
// SPLIT: check 0: {{.*}} reassociated (split reductions reassociate; within the tolerance with --split-reductions=false)
// SIMT: check 0: {{.*}} ok
// SIMT: 0 errors
// EXACT: check 0: max_abs_err=0 max_ulp=0 tolerance=0 ulp ok
func.func @softmax(%x: tensor<6x2048xf32>) -> tensor<6x2048xf32> {
  %m = fuser.reduction max %x [1] keepdim : tensor<6x2048xf32> -> tensor<6x1xf32>
  %d = fuser.sub %x, %m : tensor<6x2048xf32>, tensor<6x1xf32> -> tensor<6x2048xf32>
  %e = fuser.exp %d : tensor<6x2048xf32>
  %s = fuser.reduction add %e [1] keepdim : tensor<6x2048xf32> -> tensor<6x1xf32>
  %r = fuser.div %e, %s : tensor<6x2048xf32>, tensor<6x1xf32> -> tensor<6x2048xf32>
  return %r : tensor<6x2048xf32>
}
