// RUN: fuser-opt %s --canonicalize --split-input-file | FileCheck %s
// RUN: fuser-opt %s --fuser-preseg -o %t.mlir
// RUN: fuser-opt %s --fuser-preseg --fuser-segment --fuser-segment-report --split-input-file -o /dev/null 2>&1 | FileCheck %s --check-prefix=SEG
// RUN: fuser-run %s --entry layernorm_rows --check-against interp --against-file %t.mlir --ulp-tolerance 0 | FileCheck %s --check-prefix=SAME

// op(x, expand(y)) -> op(x, y) when x still gives every expanded dim its
// extent: the op's size-1 broadcasting is the expand.
// CHECK-LABEL: func.func @sub_of_expanded_row
// CHECK-SAME: (%[[X:.*]]: tensor<4x8xf32>, %[[M:.*]]: tensor<4x1xf32>)
// CHECK: %[[S:.*]] = fuser.sub %[[X]], %[[M]] : tensor<4x8xf32>, tensor<4x1xf32> -> tensor<4x8xf32>
// CHECK: return %[[S]]
func.func @sub_of_expanded_row(%x: tensor<4x8xf32>, %m: tensor<4x1xf32>) -> tensor<4x8xf32> {
  %e = fuser.expand %m : tensor<4x1xf32> -> tensor<4x8xf32>
  %0 = fuser.sub %x, %e : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// Bail-out for the second: both operands expanded, so once the first is
// dropped the second must keep the extent 8 (the result shape must not
// change).
// CHECK-LABEL: func.func @both_expanded
// CHECK: %[[E:.*]] = fuser.expand %arg1
// CHECK: fuser.mul %arg0, %[[E]] : tensor<4x1xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
func.func @both_expanded(%a: tensor<4x1xf32>, %b: tensor<4x1xf32>) -> tensor<4x8xf32> {
  %ea = fuser.expand %a : tensor<4x1xf32> -> tensor<4x8xf32>
  %eb = fuser.expand %b : tensor<4x1xf32> -> tensor<4x8xf32>
  %0 = fuser.mul %ea, %eb : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// Bail-out: a unary op has no other operand to broadcast against (it
// moves above the expand instead), and the expand's other users keep it.
// CHECK-LABEL: func.func @unary_and_other_users
// CHECK: %[[E:.*]] = fuser.expand %arg0
// CHECK: %[[X:.*]] = fuser.exp %arg0 : tensor<4x1xf32>
// CHECK: %[[EX:.*]] = fuser.expand %[[X]]
// CHECK: %[[W:.*]] = fuser.where %arg1, %arg2, %arg0 : tensor<4x8xi1>, tensor<4x8xf32>, tensor<4x1xf32> -> tensor<4x8xf32>
// CHECK: return %[[W]], %[[EX]], %[[E]]
func.func @unary_and_other_users(%a: tensor<4x1xf32>, %c: tensor<4x8xi1>, %x: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>) {
  %e = fuser.expand %a : tensor<4x1xf32> -> tensor<4x8xf32>
  %0 = fuser.exp %e : tensor<4x8xf32>
  %1 = fuser.where %c, %x, %e : tensor<4x8xi1>, tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  return %1, %0, %e : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

// LayerNorm as Thunder writes it with var_mean: the row statistics come
// back through broadcast_in_dim (expand); after preseg the rows broadcast
// them and the fusion segments into one normalization kernel, with the
// same results.
// SAME: check 0: max_abs_err=0 max_ulp=0 tolerance=0 ulp ok
func.func @layernorm_rows(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = fuser.reduction add %x [1] keepdim : tensor<4x8xf32> -> tensor<4x1xf32>
  %n = arith.constant 8.0 : f32
  %1 = fuser.div %0, %n : tensor<4x1xf32>, f32 -> tensor<4x1xf32>
  %2 = fuser.sub %x, %1 : tensor<4x8xf32>, tensor<4x1xf32> -> tensor<4x8xf32>
  %3 = fuser.mul %2, %2 : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %4 = fuser.reduction add %3 [1] keepdim : tensor<4x8xf32> -> tensor<4x1xf32>
  %5 = fuser.div %4, %n : tensor<4x1xf32>, f32 -> tensor<4x1xf32>
  %6 = fuser.rsqrt %5 : tensor<4x1xf32>
  %e1 = fuser.expand %1 : tensor<4x1xf32> -> tensor<4x8xf32>
  %7 = fuser.sub %x, %e1 : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %e6 = fuser.expand %6 : tensor<4x1xf32> -> tensor<4x8xf32>
  %8 = fuser.mul %7, %e6 : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  return %8 : tensor<4x8xf32>
}
// SEG: fusion @layernorm_rows: 1 kernel, 1 segment
