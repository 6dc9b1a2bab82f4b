// --check-against tells a split reduction's reassociation (which the
// numerics contract allows) from a real difference: where the results are
// beyond the tolerance, both backends run again without splits, and if they
// then agree the check says `reassociated` and passes. A real difference
// still fails (exit 1). --split-reductions=false runs without splits.
// RUN: fuser-run %s --entry scaled_sum --backend cpu --check-against interp | FileCheck %s --check-prefix=SPLIT
// RUN: fuser-run %s --entry scaled_sum --backend cpu --check-against interp --split-reductions=false | FileCheck %s --check-prefix=UNSPLIT
// RUN: fuser-run %s --entry scaled_sum --backend cpu --check-against interp --json | FileCheck %s --check-prefix=JSON
// RUN: not fuser-run %s --entry scaled_sum --backend cpu --check-against interp --against-file %S/Inputs/scaled-sum-other.mlir | FileCheck %s --check-prefix=REAL

// x * 1.7 is inexact, so the split sum rounds differently (136 ulp here).
// SPLIT: check 0: max_abs_err=0 max_ulp=0 tolerance=0 ulp ok
// SPLIT: check 1: max_abs_err={{[0-9.e-]+}} max_ulp={{[1-9][0-9]*}} tolerance=0 ulp reassociated (split reductions reassociate; within the tolerance with --split-reductions=false)
// UNSPLIT: check 0: {{.*}} ok
// UNSPLIT: check 1: max_abs_err=0 max_ulp=0 tolerance=0 ulp ok
// JSON: "verdict": "ok"
// JSON: "passed": false, "verdict": "reassociated"
// REAL: check 0: {{.*}} FAILED
func.func @scaled_sum(%x: tensor<64x4096xf32>) -> (tensor<64x4096xf32>, tensor<64xf32>) {
  %c = arith.constant 1.7 : f32
  %0 = fuser.mul %x, %c : tensor<64x4096xf32>, f32 -> tensor<64x4096xf32>
  %1 = fuser.reduction add %0 [1] : tensor<64x4096xf32> -> tensor<64xf32>
  return %0, %1 : tensor<64x4096xf32>, tensor<64xf32>
}
