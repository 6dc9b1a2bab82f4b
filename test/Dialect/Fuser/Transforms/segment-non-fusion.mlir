// RUN: fuser-opt --fuser-segment %s | FileCheck %s

// A function that holds no fuser op is not a fusion: fuser-segment leaves it
// alone (as the pipelines do), whatever it computes.
// CHECK-LABEL: func.func @host
// CHECK-NEXT: arith.addf
// CHECK-NEXT: return
// CHECK-NOT: fuser.segment
func.func @host(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = arith.addf %x, %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// The fusion beside it is segmented.
// CHECK-LABEL: func.func @fusion
// CHECK: fuser.segment pointwise
func.func @fusion(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = fuser.neg %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// The report and the graph skip it too.
// RUN: fuser-opt --fuser-segment --fuser-segment-report %s -o /dev/null | FileCheck %s --check-prefix=REPORT
// REPORT-NOT: @host
// REPORT: fusion @fusion: 1 kernel
// REPORT-NOT: @host
