// Unregistered ops (--allow-unregistered-dialect) have no dialect; every pass
// reports them as ops that do not belong in a fusion, like any other
// non-fuser op, instead of crashing.
// RUN: fuser-opt --allow-unregistered-dialect --fuser-segment -split-input-file -verify-diagnostics %s
// RUN: not fuser-opt --allow-unregistered-dialect --fuser-preseg -split-input-file %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=PRESEG
// RUN: fuser-opt --allow-unregistered-dialect --canonicalize -split-input-file %s | FileCheck %s --check-prefix=CANON
// RUN: not fuser-opt --allow-unregistered-dialect --fuser-segment-report -split-input-file %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=REPORT
// RUN: not fuser-opt --allow-unregistered-dialect --fuser-segment-graph -split-input-file %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=REPORT

// PRESEG: error: 'foo.bar' is not allowed in a fusion
// PRESEG: error: 'foo.c' is not allowed in a fusion
// CANON-LABEL: func.func @unregistered_tensor_op
// CANON: "foo.bar"
// CANON-LABEL: func.func @unregistered_scalar_op
// CANON: "foo.c"
// REPORT: error: 'fuser.neg' op computes outside a fuser.segment: @unregistered_tensor_op is not segmented
// REPORT: error: 'fuser.add' op computes outside a fuser.segment: @unregistered_scalar_op is not segmented

func.func @unregistered_tensor_op(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = fuser.neg %x : tensor<4xf32>
  // expected-error @below {{'foo.bar' op cannot be segmented: not a fuser op}}
  %1 = "foo.bar"(%0) : (tensor<4xf32>) -> tensor<4xf32>
  %2 = fuser.exp %1 : tensor<4xf32>
  return %2 : tensor<4xf32>
}

// -----

func.func @unregistered_scalar_op(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @below {{'foo.c' op cannot be segmented: only pure scalar computations}}
  %c = "foo.c"() : () -> f32
  %0 = fuser.add %x, %c : tensor<4xf32>, f32 -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
