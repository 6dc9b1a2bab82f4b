// RUN: fuser-opt %s --split-input-file --convert-fuser-to-scf --cse | FileCheck %s

// Rule: a schedule with `accumulators = A` gives each thread that walks a
// row A independent partials: the thread loop steps over A strides at once
// (stride = threads x vector) and step j of each group goes to partial j.
// The partials are combined pairwise ((p0 + p1) + (p2 + p3)), then the
// lanes pairwise (low half with high half). A float sum whose partials take
// more than 8 steps carries Kahan's compensation for each partial
// (compensated-partials.mlir). Where A strides do not divide the row, A
// halves until they do (every thread then makes the same number of steps
// into each partial), down to one partial.

// 32768 = 64 strides of 512: four partials, 16 steps each.
// CHECK-LABEL: func.func @four(
// CHECK-SAME: %[[X:.*]]: memref<64x32768xf32>
// CHECK: %[[PARTS:.*]]:8 = scf.for %[[I:.*]] = %{{.*}} to %c32768 step %c2048 iter_args(%[[S0:.*]] = %{{.*}}, %[[C0:.*]] = %{{.*}}, %[[S1:.*]] = %{{.*}}, %[[C1:.*]] = %{{.*}}, %[[S2:.*]] = %{{.*}}, %[[C2:.*]] = %{{.*}}, %[[S3:.*]] = %{{.*}}, %[[C3:.*]] = %{{.*}})
// CHECK:   %[[V0:.*]] = vector.load %[[X]][%{{.*}}, %[[I]]]
// CHECK:   arith.subf %[[V0]], %[[C0]] : vector<16xf32>
// CHECK:   %[[I1:.*]] = arith.addi %[[I]], %c512
// CHECK:   %[[V1:.*]] = vector.load %[[X]][%{{.*}}, %[[I1]]]
// CHECK:   arith.subf %[[V1]], %[[C1]] : vector<16xf32>
// CHECK:   %[[I2:.*]] = arith.addi %[[I]], %c1024
// CHECK:   vector.load %[[X]][%{{.*}}, %[[I2]]]
// CHECK:   %[[I3:.*]] = arith.addi %[[I]], %c1536
// CHECK:   vector.load %[[X]][%{{.*}}, %[[I3]]]
// CHECK:   scf.yield
// CHECK: %[[P01:.*]] = arith.addf %[[PARTS]]#0, %[[PARTS]]#2 : vector<16xf32>
// CHECK: %[[P23:.*]] = arith.addf %[[PARTS]]#4, %[[PARTS]]#6 : vector<16xf32>
// CHECK: %[[ALL:.*]] = arith.addf %[[P01]], %[[P23]] : vector<16xf32>
// CHECK: %[[LOW:.*]] = vector.shuffle %[[ALL]], %[[ALL]] [0, 1, 2, 3, 4, 5, 6, 7]
// CHECK: %[[HIGH:.*]] = vector.shuffle %[[ALL]], %[[ALL]] [8, 9, 10, 11, 12, 13, 14, 15]
// CHECK: arith.addf %[[LOW]], %[[HIGH]] : vector<8xf32>
// CHECK: arith.addf {{.*}} : vector<4xf32>
// CHECK: arith.addf {{.*}} : vector<2xf32>
// CHECK: arith.addf {{.*}} : vector<1xf32>
// CHECK: scf.reduce
func.func @four(%x: tensor<64x32768xf32>) -> tensor<64xf32> {
  %0 = fuser.segment reduction(%x) {schedule = #fuser.schedule<inner_reduction, vector = 16, threads = 32, split = 32, blocks = 64, accumulators = 4>} : (tensor<64x32768xf32>) -> tensor<64xf32> {
  ^bb0(%a: tensor<64x32768xf32>):
    %1 = fuser.reduction add %a [1] : tensor<64x32768xf32> -> tensor<64xf32>
    fuser.yield %1 : tensor<64xf32>
  }
  return %0 : tensor<64xf32>
}

// -----

// 1024 = 2 strides of 512: four halve to two partials. A max carries no
// compensation.
// CHECK-LABEL: func.func @two(
// CHECK: %[[PARTS:.*]]:2 = scf.for %{{.*}} = %{{.*}} to %c1024 step %c1024 iter_args(
// CHECK-COUNT-2: arith.maximumf {{.*}} : vector<16xf32>
// CHECK: scf.yield
// CHECK: arith.maximumf %[[PARTS]]#0, %[[PARTS]]#1 : vector<16xf32>
func.func @two(%x: tensor<64x1024xf32>) -> tensor<64xf32> {
  %0 = fuser.segment reduction(%x) {schedule = #fuser.schedule<inner_reduction, vector = 16, threads = 32, split = 32, blocks = 64, accumulators = 4>} : (tensor<64x1024xf32>) -> tensor<64xf32> {
  ^bb0(%a: tensor<64x1024xf32>):
    %1 = fuser.reduction max %a [1] : tensor<64x1024xf32> -> tensor<64xf32>
    fuser.yield %1 : tensor<64xf32>
  }
  return %0 : tensor<64xf32>
}

// -----

// Must not fire: 4608 = 9 strides of 512 takes neither four nor two
// partials; one partial walks the row as without accumulators.
// CHECK-LABEL: func.func @odd(
// CHECK: scf.for %{{.*}} = %{{.*}} to %c4608 step %c512 iter_args(%{{[^,]*}} = %{{[^,]*}}, %{{[^,]*}} = %{{[^)]*}}) -> (vector<16xf32>, vector<16xf32>)
// CHECK-COUNT-1: vector.load
// CHECK-NEXT: arith.subf
// CHECK-NOT: vector.load
// CHECK: scf.yield
func.func @odd(%x: tensor<64x4608xf32>) -> tensor<64xf32> {
  %0 = fuser.segment reduction(%x) {schedule = #fuser.schedule<inner_reduction, vector = 16, threads = 32, split = 32, blocks = 64, accumulators = 4>} : (tensor<64x4608xf32>) -> tensor<64xf32> {
  ^bb0(%a: tensor<64x4608xf32>):
    %1 = fuser.reduction add %a [1] : tensor<64x4608xf32> -> tensor<64xf32>
    fuser.yield %1 : tensor<64xf32>
  }
  return %0 : tensor<64xf32>
}

// -----

// Must not fire: without the parameter (a GPU schedule) one partial.
// CHECK-LABEL: func.func @default(
// CHECK: scf.for %{{.*}} = %{{.*}} to %c8192 step %c512 iter_args(%{{[^,]*}} = %{{[^,]*}}, %{{[^,]*}} = %{{[^)]*}}) -> (vector<16xf32>, vector<16xf32>)
func.func @default(%x: tensor<64x8192xf32>) -> tensor<64xf32> {
  %0 = fuser.segment reduction(%x) {schedule = #fuser.schedule<inner_reduction, vector = 16, threads = 32, split = 32, blocks = 64>} : (tensor<64x8192xf32>) -> tensor<64xf32> {
  ^bb0(%a: tensor<64x8192xf32>):
    %1 = fuser.reduction add %a [1] : tensor<64x8192xf32> -> tensor<64xf32>
    fuser.yield %1 : tensor<64xf32>
  }
  return %0 : tensor<64xf32>
}
