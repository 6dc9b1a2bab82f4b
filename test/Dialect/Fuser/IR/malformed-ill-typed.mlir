// Ill-typed input (without -verify-diagnostics): a view that changes the
// element count and a squeeze of a size-3 dim give located diagnostics and
// exit status 1, never a crash.
// RUN: not fuser-opt %s -split-input-file 2>&1 | FileCheck %s
// RUN: sh -c 'fuser-opt %s > /dev/null 2>&1; echo "exit status $?"' | FileCheck %s --check-prefix=STATUS
// RUN: sh -c 'fuser-opt %s -split-input-file > /dev/null 2>&1; echo "exit status $?"' | FileCheck %s --check-prefix=STATUS

// STATUS: exit status 1

// CHECK: malformed-ill-typed.mlir:[[@LINE+2]]:8: error: 'fuser.view' op changes the element count from 32 to 24
func.func @view(%a: tensor<4x8xf32>) -> tensor<4x6xf32> {
  %0 = fuser.view %a : tensor<4x8xf32> -> tensor<4x6xf32>
  return %0 : tensor<4x6xf32>
}

// -----

// CHECK: malformed-ill-typed.mlir:[[@LINE+2]]:8: error: 'fuser.squeeze' op cannot squeeze dim 0 of size 3; only size-1 dims can be squeezed
func.func @squeeze(%a: tensor<3x8xf32>) -> tensor<8xf32> {
  %0 = fuser.squeeze %a [0] : tensor<3x8xf32> -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// A syntax error is located too.
// CHECK: malformed-ill-typed.mlir:[[@LINE+2]]:{{[0-9]+}}: error: expected SSA operand
func.func @syntax(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = fuser.add %a, : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
