// RUN: fuser-opt %s --split-input-file --convert-fuser-to-scf --cse | FileCheck %s

// Rule: a float sum split across threads carries Kahan's compensation
// (y = x - c; t = s + y; c = (t - s) - y, c restarting from 0 where t is
// not finite) beside each partial only when that partial takes more than 8
// elements in sequence (steps = reduced elements / (threads x vector x
// accumulators), or reduced elements / groups for a tiled split): a
// partial of up to 8 steps errs no more than the interpreter's pairwise
// sum, which takes up to 8 elements in sequence. Must not fire: up to 8
// steps, a max, an unsplit sum (the interpreter's sequential order).

// 4608 = 9 strides of 512: 9 steps, compensated.
// CHECK-LABEL: func.func @nine_steps(
// CHECK: scf.for %{{.*}} = %{{.*}} to %c4608 step %c512 iter_args(%[[S:[^ ]*]] = %{{[^,]*}}, %[[C:[^ ]*]] = %{{[^)]*}}) -> (vector<16xf32>, vector<16xf32>)
// CHECK:   %[[V:.*]] = vector.load
// CHECK:   %[[Y:.*]] = arith.subf %[[V]], %[[C]] : vector<16xf32>
// CHECK:   %[[T:.*]] = arith.addf %[[S]], %[[Y]] : vector<16xf32>
// CHECK:   %[[D:.*]] = arith.subf %[[T]], %[[S]] : vector<16xf32>
// CHECK:   %[[L:.*]] = arith.subf %[[D]], %[[Y]] : vector<16xf32>
// CHECK:   %[[Z:.*]] = arith.subf %[[T]], %[[T]] : vector<16xf32>
// CHECK:   %[[F:.*]] = arith.cmpf oeq, %[[Z]]
// CHECK:   %[[C2:.*]] = arith.select %[[F]], %[[L]]
// CHECK:   scf.yield %[[T]], %[[C2]]
func.func @nine_steps(%x: tensor<64x4608xf32>) -> tensor<64xf32> {
  %0 = fuser.segment reduction(%x) {schedule = #fuser.schedule<inner_reduction, vector = 16, threads = 32, split = 32, blocks = 64>} : (tensor<64x4608xf32>) -> tensor<64xf32> {
  ^bb0(%a: tensor<64x4608xf32>):
    %1 = fuser.reduction add %a [1] : tensor<64x4608xf32> -> tensor<64xf32>
    fuser.yield %1 : tensor<64xf32>
  }
  return %0 : tensor<64xf32>
}

// -----

// Must not fire: 4096 = 8 strides of 512, 8 steps: a plain sum per lane.
// CHECK-LABEL: func.func @eight_steps(
// CHECK: scf.for %{{.*}} = %{{.*}} to %c4096 step %c512 iter_args(%[[S:[^ ]*]] = %{{[^)]*}}) -> (vector<16xf32>)
// CHECK:   %[[V:.*]] = vector.load
// CHECK:   %[[T:.*]] = arith.addf %[[S]], %[[V]] : vector<16xf32>
// CHECK:   scf.yield %[[T]] : vector<16xf32>
// CHECK-NOT: arith.select
// CHECK: scf.reduce
func.func @eight_steps(%x: tensor<64x4096xf32>) -> tensor<64xf32> {
  %0 = fuser.segment reduction(%x) {schedule = #fuser.schedule<inner_reduction, vector = 16, threads = 32, split = 32, blocks = 64>} : (tensor<64x4096xf32>) -> tensor<64xf32> {
  ^bb0(%a: tensor<64x4096xf32>):
    %1 = fuser.reduction add %a [1] : tensor<64x4096xf32> -> tensor<64xf32>
    fuser.yield %1 : tensor<64xf32>
  }
  return %0 : tensor<64xf32>
}

// -----

// Steps count accumulators: 8192 = 16 strides of 512, four partials of 4
// steps each: plain (a CPU schedule's row sum of 8192 f32).
// CHECK-LABEL: func.func @four_partials_of_four(
// CHECK: scf.for %{{.*}} = %{{.*}} to %c8192 step %c2048 iter_args({{[^)]*}}) -> (vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>)
// CHECK-NOT: arith.select
// CHECK: scf.reduce
func.func @four_partials_of_four(%x: tensor<64x8192xf32>) -> tensor<64xf32> {
  %0 = fuser.segment reduction(%x) {schedule = #fuser.schedule<inner_reduction, vector = 16, threads = 32, split = 32, blocks = 64, accumulators = 4>} : (tensor<64x8192xf32>) -> tensor<64xf32> {
  ^bb0(%a: tensor<64x8192xf32>):
    %1 = fuser.reduction add %a [1] : tensor<64x8192xf32> -> tensor<64xf32>
    fuser.yield %1 : tensor<64xf32>
  }
  return %0 : tensor<64xf32>
}

// -----

// Must not fire: a max over 9 steps carries no compensation.
// CHECK-LABEL: func.func @max_nine_steps(
// CHECK: scf.for %{{.*}} = %{{.*}} to %c4608 step %c512 iter_args(%{{[^)]*}}) -> (vector<16xf32>)
// CHECK-NOT: arith.select
// CHECK: scf.reduce
func.func @max_nine_steps(%x: tensor<64x4608xf32>) -> tensor<64xf32> {
  %0 = fuser.segment reduction(%x) {schedule = #fuser.schedule<inner_reduction, vector = 16, threads = 32, split = 32, blocks = 64>} : (tensor<64x4608xf32>) -> tensor<64xf32> {
  ^bb0(%a: tensor<64x4608xf32>):
    %1 = fuser.reduction max %a [1] : tensor<64x4608xf32> -> tensor<64xf32>
    fuser.yield %1 : tensor<64xf32>
  }
  return %0 : tensor<64xf32>
}

// -----

// A tiled split of 1024 rows among 8 groups: 128 steps, compensated.
// CHECK-LABEL: func.func @tiled_long(
// CHECK: scf.for %{{.*}} = %{{.*}} to %c1024 step %c8 iter_args(%{{[^,]*}} = %{{[^,]*}}, %{{[^)]*}}) -> (f32, f32)
// CHECK: arith.select
func.func @tiled_long(%x: tensor<1024x32xf32>) -> tensor<32xf32> {
  %0 = fuser.segment reduction(%x) {schedule = #fuser.schedule<outer_reduction, vector = 1, threads = 256, split = 8, blocks = 1>} : (tensor<1024x32xf32>) -> tensor<32xf32> {
  ^bb0(%a: tensor<1024x32xf32>):
    %1 = fuser.reduction add %a [0] : tensor<1024x32xf32> -> tensor<32xf32>
    fuser.yield %1 : tensor<32xf32>
  }
  return %0 : tensor<32xf32>
}

// -----

// Must not fire: a tiled split of 64 rows among 8 groups, 8 steps.
// CHECK-LABEL: func.func @tiled_short(
// CHECK: scf.for %{{.*}} = %{{.*}} to %c64 step %c8 iter_args(%{{[^)]*}}) -> (f32)
// CHECK-NOT: arith.select
// CHECK: return
func.func @tiled_short(%x: tensor<64x32xf32>) -> tensor<32xf32> {
  %0 = fuser.segment reduction(%x) {schedule = #fuser.schedule<outer_reduction, vector = 1, threads = 256, split = 8, blocks = 1>} : (tensor<64x32xf32>) -> tensor<32xf32> {
  ^bb0(%a: tensor<64x32xf32>):
    %1 = fuser.reduction add %a [0] : tensor<64x32xf32> -> tensor<32xf32>
    fuser.yield %1 : tensor<32xf32>
  }
  return %0 : tensor<32xf32>
}

// -----

// Must not fire: unsplit, one thread per output sums 4608 elements in
// sequence, as the interpreter does without splits.
// CHECK-LABEL: func.func @unsplit(
// CHECK: scf.for %{{.*}} = %c0 to %c4608 step %c1 iter_args(%{{[^)]*}}) -> (vector<1xf32>)
// CHECK-NOT: arith.select
// CHECK: return
func.func @unsplit(%x: tensor<64x4608xf32>) -> tensor<64xf32> {
  %0 = fuser.segment reduction(%x) {schedule = #fuser.schedule<inner_reduction, vector = 1, threads = 256, split = 1, blocks = 1>} : (tensor<64x4608xf32>) -> tensor<64xf32> {
  ^bb0(%a: tensor<64x4608xf32>):
    %1 = fuser.reduction add %a [1] : tensor<64x4608xf32> -> tensor<64xf32>
    fuser.yield %1 : tensor<64xf32>
  }
  return %0 : tensor<64xf32>
}
