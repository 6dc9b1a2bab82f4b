// fuser.iota on every backend: the values (computed independently with
// numpy: float32(0.25) + float32(1.5) * i, int32 wrapping, float64
// -1 + 0.1 * i), a causal mask built as nvFuser's triu builds it (iota of
// the rows <= iota of the columns, broadcast and compared) fused into one
// kernel, the CPU backend and the SIMT emulator bit for bit against the
// interpreter, and PTX that ptxas accepts for sm_90.
// RUN: fuser-run %s --backend interp --print-values | FileCheck %s
// RUN: fuser-run %s --backend cpu --print-values | FileCheck %s
// RUN: fuser-run %s --backend cpu --check-against interp | FileCheck %s --check-prefix=EXACT --implicit-check-not='{{max_ulp=[1-9]|FAILED}}'
// RUN: fuser-run %s --backend simt --check-against interp | FileCheck %s --check-prefix=EXACT --implicit-check-not='{{max_ulp=[1-9]|FAILED}}'
// RUN: fuser-opt %s --fuser-preseg --fuser-segment --fuser-lower-to-nvvm="chip=sm_90 format=bin" | FileCheck %s --check-prefix=BIN
// RUN: fuser-opt %s --fuser-preseg --fuser-segment | FileCheck %s --check-prefix=SEGMENT

// CHECK: result 0: tensor<7xf32>
// CHECK-NEXT: [0.25, 1.75, 3.25, 4.75, 6.25, 7.75, 9.25]
// CHECK: result 1: tensor<7xi32>
// CHECK-NEXT: [2147483600, 2147483610, 2147483620, 2147483630, 2147483640, -2147483646, -2147483636]
// CHECK: result 2: tensor<5xf64>
// CHECK-NEXT: [-1, -0.9, -0.8, -0.7{{[0-9]*}}, -0.6{{[0-9]*}}]
// The upper triangle of a 4x6 tensor (diagonal offset 1) of ones.
// CHECK: result 3: tensor<4x6xf32>
// CHECK-NEXT: {{\[\[}}0, 1, 1, 1, 1, 1], [0, 0, 1, 1, 1, 1], [0, 0, 0, 1, 1, 1], [0, 0, 0, 0, 1, 1]]
// EXACT-COUNT-4: ulp ok

// The mask and its where are one pointwise kernel with the iotas in it.
// SEGMENT-COUNT-1: fuser.segment pointwise
// SEGMENT-NOT: fuser.segment

// BIN: gpu.binary
// BIN-SAME: bin = "\7FELF
func.func @f(%x: tensor<4x6xf32>) -> (tensor<7xf32>, tensor<7xi32>, tensor<5xf64>, tensor<4x6xf32>) {
  %s = arith.constant 0.25 : f32
  %t = arith.constant 1.5 : f32
  %i = fuser.iota %s, %t : f32 -> tensor<7xf32>
  %a = arith.constant 2147483600 : i32
  %c = arith.constant 10 : i32
  %j = fuser.iota %a, %c : i32 -> tensor<7xi32>
  %d = arith.constant -1.0 : f64
  %e = arith.constant 0.1 : f64
  %k = fuser.iota %d, %e : f64 -> tensor<5xf64>
  // triu(x, 1): rows 0..3 <= columns -1..4.
  %zero = arith.constant 0 : i64
  %one = arith.constant 1 : i64
  %minus = arith.constant -1 : i64
  %rows = fuser.iota %zero, %one : i64 -> tensor<4xi64>
  %cols = fuser.iota %minus, %one : i64 -> tensor<6xi64>
  %rb = fuser.broadcast %rows [1] : tensor<4xi64> -> tensor<4x1xi64>
  %cb = fuser.broadcast %cols [0] : tensor<6xi64> -> tensor<1x6xi64>
  %mask = fuser.le %rb, %cb : tensor<4x1xi64>, tensor<1x6xi64> -> tensor<4x6xi1>
  %ones = arith.constant 1.0 : f32
  %o = fuser.full %ones : f32 -> tensor<4x6xf32>
  %sum = fuser.add %x, %o : tensor<4x6xf32>, tensor<4x6xf32> -> tensor<4x6xf32>
  %y = fuser.sub %sum, %x : tensor<4x6xf32>, tensor<4x6xf32> -> tensor<4x6xf32>
  %f0 = arith.constant 0.0 : f32
  %u = fuser.where %mask, %y, %f0 : tensor<4x6xi1>, tensor<4x6xf32>, f32 -> tensor<4x6xf32>
  return %i, %j, %k, %u : tensor<7xf32>, tensor<7xi32>, tensor<5xf64>, tensor<4x6xf32>
}
