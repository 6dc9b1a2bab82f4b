// Fusions the CPU backend cannot run exit with status 2 and a located error,
// never a crash.
// RUN: sh -c 'fuser-run %s --entry in_segment --backend cpu; echo "exit=$?"' 2>&1 | FileCheck %s --check-prefix=SEGMENT
// RUN: sh -c 'fuser-run %s --entry unsegmentable --backend cpu; echo "exit=$?"' 2>&1 | FileCheck %s --check-prefix=UNSEG
// RUN: sh -c 'fuser-run %s --entry in_segment --backend cpu --check-against interp; echo "exit=$?"' 2>&1 | FileCheck %s --check-prefix=SEGMENT
// RUN: sh -c 'fuser-run %s --entry big --backend cpu --max-bytes 1000; echo "exit=$?"' 2>&1 | FileCheck %s --check-prefix=BIG

// An op the kernel lowering does not handle, inside a segment.
// SEGMENT: cpu-errors.mlir:[[# @LINE + 5]]:10: error: the kernel lowering does not support 'arith.xori'
// SEGMENT: exit=2
func.func @in_segment(%x: tensor<4x8xi32>) -> tensor<4x8xi32> {
  %0 = fuser.segment pointwise(%x, %x) : (tensor<4x8xi32>, tensor<4x8xi32>) -> tensor<4x8xi32> {
  ^bb0(%a: tensor<4x8xi32>, %b: tensor<4x8xi32>):
    %1 = arith.xori %a, %b : tensor<4x8xi32>
    fuser.yield %1 : tensor<4x8xi32>
  }
  return %0 : tensor<4x8xi32>
}

// Unsegmented input is segmented first; what cannot be segmented is located.
// UNSEG: cpu-errors.mlir:[[# @LINE + 3]]:8: error: 'arith.xori' op cannot be segmented
// UNSEG: exit=2
func.func @unsegmentable(%a: tensor<4xi32>, %b: tensor<4xi32>) -> tensor<4xi32> {
  %r = arith.xori %a, %b : tensor<4xi32>
  %n = fuser.neg %r : tensor<4xi32>
  return %n : tensor<4xi32>
}

// The result is larger than --max-bytes (an intermediate would be refused
// the same way).
// BIG: cpu-errors.mlir:[[# @LINE + 2]]:1: error: output 0 of type 'memref<400xf32>' takes 1600 bytes, more than the limit of 1000 bytes
// BIG: exit=2
func.func @big(%a: tensor<1xf32>) -> tensor<400xf32> {
  %e = fuser.expand %a : tensor<1xf32> -> tensor<400xf32>
  %n = fuser.neg %e : tensor<400xf32>
  return %n : tensor<400xf32>
}
