// RUN: fuser-opt %s --pass-pipeline='builtin.module(func.func(fuser-gpu-sink-scalars))' | FileCheck %s

// Rule: scalar arithmetic (side-effect free, no regions, integer, index or
// float operands and results) that computes a value a gpu.launch reads is
// cloned into the launch, transitively back to the function's arguments
// and constants; the kernel then takes the arguments themselves. Must not
// fire on a load (it reads memory) nor on an op with a memref operand.

// CHECK-LABEL: func.func @offsets
// CHECK-SAME: (%[[OFFSET:.*]]: i64, %[[SCALE:.*]]: f32, %[[BUF:.*]]: memref<4xf32>, %[[OUT:.*]]: memref<4xi64>)
// The load stays on the host; the launch reads its result.
// CHECK: %[[LOADED:.*]] = memref.load %[[BUF]]
// CHECK: gpu.launch
// CHECK-DAG: %[[ONE:.*]] = arith.constant 1 : i64
// CHECK-DAG: %[[NEXT:.*]] = arith.addi %[[OFFSET]], %[[ONE]] : i64
// CHECK-DAG: %[[TWICE:.*]] = arith.mulf %[[SCALE]], %[[SCALE]] : f32
// CHECK: arith.mulf %[[TWICE]], %[[LOADED]] : f32
// CHECK: memref.store %[[NEXT]], %[[OUT]]
// CHECK: gpu.terminator
func.func @offsets(%offset: i64, %scale: f32, %buf: memref<4xf32>, %out: memref<4xi64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i64
  %next = arith.addi %offset, %one : i64
  %twice = arith.mulf %scale, %scale : f32
  %loaded = memref.load %buf[%c0] : memref<4xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %p = arith.mulf %twice, %loaded : f32
    memref.store %next, %out[%tx] : memref<4xi64>
    memref.store %p, %buf[%tx] : memref<4xf32>
    gpu.terminator
  }
  return
}
