// Float sums and products combine pairwise (docs/Interpreter.md,
// "Reductions"): up to 8 elements in sequence, a longer range as its first
// half combined with the rest, so a float32 sum's error grows like log2(n).
// The expected values are that recursion evaluated in numpy float32
// (independently of this interpreter); the exact sums of the f32 value
// 0.1 = 0.100000001490116 are 419430.406, 104857.602 and 316108.805.
// With --split-reductions=false every reduction runs in sequence, the
// order of the kernels that do not split reductions: 4 % and 1 % off.
// RUN: fuser-run %s --entry sums --print-values | FileCheck %s --check-prefix=PAIRWISE
// RUN: fuser-run %s --entry sums --print-values --split-reductions=false | FileCheck %s --check-prefix=SEQUENTIAL
// RUN: fuser-run %s --entry others --print-values | FileCheck %s --check-prefix=OTHERS
// RUN: fuser-run %s --entry empty --print-values | FileCheck %s --check-prefix=EMPTY
//
// The kernels split reductions differently; without splits both sides sum
// in sequence and agree bit for bit, which --check-against reports as a
// reassociation. A real difference is not excused: the injected one in
// Inputs/one-ulp.mlir (check-against.mlir) still fails.
// RUN: fuser-run %s --entry input_sum --backend cpu --check-against interp | FileCheck %s --check-prefix=CHECK-CPU

// PAIRWISE: result 0: tensor<f32>
// PAIRWISE-NEXT: 419430.44
// PAIRWISE: result 1: tensor<2xf32>
// PAIRWISE-NEXT: [104857.61, 104857.61]
// PAIRWISE: result 2: tensor<f32>
// PAIRWISE-NEXT: 316108.8
// SEQUENTIAL: result 0: tensor<f32>
// SEQUENTIAL-NEXT: 402740.78
// SEQUENTIAL: result 1: tensor<2xf32>
// SEQUENTIAL-NEXT: [105891.84, 105891.84]
// SEQUENTIAL: result 2: tensor<f32>
// SEQUENTIAL-NEXT: 305876.78
func.func @sums() -> (tensor<f32>, tensor<2xf32>, tensor<f32>) {
  %c = arith.constant 0.1 : f32
  // Inner: 2^22 contiguous elements.
  %f = fuser.full %c : f32 -> tensor<4194304xf32>
  %s = fuser.reduction add %f [0] : tensor<4194304xf32> -> tensor<f32>
  // Outer: 2^20 elements 2 apart per output.
  %g = fuser.full %c : f32 -> tensor<1048576x2xf32>
  %t = fuser.reduction add %g [0] : tensor<1048576x2xf32> -> tensor<2xf32>
  // Several reduced dims of odd extents, taken in row-major order.
  %h = fuser.full %c : f32 -> tensor<1024x3x1029xf32>
  %u = fuser.reduction add %h [0, 1, 2] : tensor<1024x3x1029xf32> -> tensor<f32>
  return %s, %t, %u : tensor<f32>, tensor<2xf32>, tensor<f32>
}

// bf16 sums accumulate in f32 pairwise and round once: 1024 * 0.1 (the
// bf16 0.10009765625) is 102.5 exactly, which bf16 rounds to 102.5; a
// product of 64 twos is 2^64; a complex sum is pairwise in each part
// (0.1 + 0.2j, 2^20 times: 104857.61 and 209715.22, each part as an f32
// sum of its own). Integer sums wrap whatever the order.
// OTHERS: result 0: tensor<bf16>
// OTHERS-NEXT: 102.5
// OTHERS: result 1: tensor<f32>
// OTHERS-NEXT: 1.8446744e+19
// OTHERS: result 2: tensor<complex<f32>>
// OTHERS-NEXT: (104857.61+209715.22j)
// OTHERS: result 3: tensor<i32>
// OTHERS-NEXT: {{^ 0$}}
func.func @others() -> (tensor<bf16>, tensor<f32>, tensor<complex<f32>>, tensor<i32>) {
  %c = arith.constant 0.1 : bf16
  %f = fuser.full %c : bf16 -> tensor<1024xbf16>
  %s = fuser.reduction add %f [0] : tensor<1024xbf16> -> tensor<bf16>
  %two = arith.constant 2.0 : f32
  %g = fuser.full %two : f32 -> tensor<64xf32>
  %p = fuser.reduction mul %g [0] : tensor<64xf32> -> tensor<f32>
  %re = arith.constant 0.1 : f32
  %im = arith.constant 0.2 : f32
  %res = fuser.full %re : f32 -> tensor<1048576xf32>
  %ims = fuser.full %im : f32 -> tensor<1048576xf32>
  %h = fuser.complex %res, %ims : tensor<1048576xf32>, tensor<1048576xf32> -> tensor<1048576xcomplex<f32>>
  %t = fuser.reduction add %h [0] : tensor<1048576xcomplex<f32>> -> tensor<complex<f32>>
  %big = arith.constant 1073741824 : i32
  %i = fuser.full %big : i32 -> tensor<4xi32>
  %u = fuser.reduction add %i [0] : tensor<4xi32> -> tensor<i32>
  return %s, %p, %t, %u : tensor<bf16>, tensor<f32>, tensor<complex<f32>>, tensor<i32>
}

// An empty reduced axis gives the identity (-0.0 for a float sum, 1 for a
// product).
// EMPTY: result 0: tensor<3xf32>
// EMPTY-NEXT: [-0, -0, -0]
// EMPTY: result 1: tensor<3xf64>
// EMPTY-NEXT: [1, 1, 1]
func.func @empty() -> (tensor<3xf32>, tensor<3xf64>) {
  %c = arith.constant 0.1 : f32
  %f = fuser.full %c : f32 -> tensor<3x0xf32>
  %s = fuser.reduction add %f [1] : tensor<3x0xf32> -> tensor<3xf32>
  %d = arith.constant 0.1 : f64
  %g = fuser.full %d : f64 -> tensor<0x3xf64>
  %p = fuser.reduction mul %g [0] : tensor<0x3xf64> -> tensor<3xf64>
  return %s, %p : tensor<3xf32>, tensor<3xf64>
}

// The inputs are multiples of 1/8, whose sums are exact in any order:
// divided by 3 they are not.
// CHECK-CPU: check 0: {{.*}} ulp reassociated
func.func @input_sum(%x: tensor<64x1000xf32>) -> tensor<64xf32> {
  %three = arith.constant 3.0 : f32
  %y = fuser.div %x, %three : tensor<64x1000xf32>, f32 -> tensor<64x1000xf32>
  %s = fuser.reduction add %y [1] : tensor<64x1000xf32> -> tensor<64xf32>
  return %s : tensor<64xf32>
}
