// The generic form of every op family: written in generic syntax, it parses,
// prints the same generic text again (a fixpoint), and prints the custom form.
// RUN: fuser-opt %s --mlir-print-op-generic > %t.1.mlir
// RUN: fuser-opt %t.1.mlir --mlir-print-op-generic > %t.2.mlir
// RUN: diff %t.1.mlir %t.2.mlir
// RUN: FileCheck %s --check-prefix=GENERIC < %t.2.mlir
// RUN: fuser-opt %s | FileCheck %s --check-prefix=CUSTOM
// RUN: fuser-opt %s | fuser-opt --mlir-print-op-generic | diff %t.1.mlir -

// GENERIC-LABEL: sym_name = "all_ops"
// GENERIC: %[[V:.*]] = "fuser.view"(%arg0) : (tensor<1x8x1x4xf32>) -> tensor<8x4xf32>
// GENERIC-NEXT: "fuser.cast"(%[[V]]) : (tensor<8x4xf32>) -> tensor<8x4xbf16>
// GENERIC-NEXT: "fuser.squeeze"(%arg0) <{dims = array<i64: 0, 2>}> : (tensor<1x8x1x4xf32>) -> tensor<8x4xf32>
// GENERIC-NEXT: "fuser.broadcast"(%arg1) <{dims = array<i64: 1>}> : (tensor<8x4xf32>) -> tensor<8x1x4xf32>
// GENERIC-NEXT: "fuser.expand"(%arg2) : (tensor<1x4xf32>) -> tensor<8x4xf32>
// GENERIC-NEXT: "fuser.set"(%arg1) : (tensor<8x4xf32>) -> tensor<8x4xf32>
// GENERIC-NEXT: "fuser.set"(%arg1) <{cache_op = #fuser<cache_op streaming>}> : (tensor<8x4xf32>) -> tensor<8x4xf32>
// GENERIC-NEXT: "fuser.segment_set"(%arg1) : (tensor<8x4xf32>) -> tensor<8x4xf32>
// GENERIC-NEXT: "fuser.permute"(%arg1) <{permutation = array<i64: 1, 0>}> : (tensor<8x4xf32>) -> tensor<4x8xf32>
// GENERIC-NEXT: "fuser.slice"(%arg1) <{limits = array<i64: 8, 4>, starts = array<i64: 0, 1>, strides = array<i64: 2, 1>}> : (tensor<8x4xf32>) -> tensor<4x3xf32>
// GENERIC-NEXT: "fuser.pad"(%arg1, %arg3) <{high = array<i64: 0, 2>, low = array<i64: 1, 0>}> : (tensor<8x4xf32>, f32) -> tensor<9x6xf32>
// GENERIC-NEXT: "fuser.cat"(%arg1, %arg2) <{dim = 0 : i64}> : (tensor<8x4xf32>, tensor<1x4xf32>) -> tensor<9x4xf32>
// GENERIC-NEXT: "fuser.reduction"(%arg1) <{dims = array<i64: 1>, kind = #fuser<reduction_kind add>}> : (tensor<8x4xf32>) -> tensor<8xf32>
// GENERIC-NEXT: "fuser.reduction"(%arg1) <{dims = array<i64: 0>, keepdim, kind = #fuser<reduction_kind max>}> : (tensor<8x4xf32>) -> tensor<1x4xf32>
// GENERIC-NEXT: "fuser.neg"(%arg1) : (tensor<8x4xf32>) -> tensor<8x4xf32>
// GENERIC-NEXT: "fuser.sigmoid"(%arg3) : (f32) -> f32
// GENERIC-NEXT: "fuser.sub"(%arg1, %arg2) : (tensor<8x4xf32>, tensor<1x4xf32>) -> tensor<8x4xf32>
// GENERIC-NEXT: "fuser.pow"(%arg1, %arg3) : (tensor<8x4xf32>, f32) -> tensor<8x4xf32>
// GENERIC-NEXT: "fuser.le"(%arg1, %arg2) : (tensor<8x4xf32>, tensor<1x4xf32>) -> tensor<8x4xi1>
// GENERIC-NEXT: %[[W:.*]] = "fuser.where"(%arg4, %arg1, %arg3) : (tensor<8x4xi1>, tensor<8x4xf32>, f32) -> tensor<8x4xf32>
// GENERIC-NEXT: "fuser.full"(%arg3) : (f32) -> tensor<2x2xf32>
// GENERIC-NEXT: "fuser.segment"(%arg1) <{kind = #fuser<segment_kind reduction>}> ({
// GENERIC-NEXT: ^bb0(%[[X:.*]]: tensor<8x4xf32>):
// GENERIC-NEXT: %[[R:.*]] = "fuser.reduction"(%[[X]]) <{dims = array<i64: 1>, kind = #fuser<reduction_kind min>}> : (tensor<8x4xf32>) -> tensor<8xf32>
// GENERIC-NEXT: "fuser.yield"(%[[R]]) : (tensor<8xf32>) -> ()
// GENERIC-NEXT: }) : (tensor<8x4xf32>) -> tensor<8xf32>
// GENERIC-NEXT: "func.return"(%[[W]]) : (tensor<8x4xf32>) -> ()

// CUSTOM-LABEL: func.func @all_ops
// CUSTOM: fuser.view %arg0 : tensor<1x8x1x4xf32> -> tensor<8x4xf32>
// CUSTOM-NEXT: fuser.cast %{{.*}} : tensor<8x4xf32> to tensor<8x4xbf16>
// CUSTOM-NEXT: fuser.squeeze %arg0 [0, 2] : tensor<1x8x1x4xf32> -> tensor<8x4xf32>
// CUSTOM-NEXT: fuser.broadcast %arg1 [1] : tensor<8x4xf32> -> tensor<8x1x4xf32>
// CUSTOM-NEXT: fuser.expand %arg2 : tensor<1x4xf32> -> tensor<8x4xf32>
// CUSTOM-NEXT: fuser.set %arg1 : tensor<8x4xf32>
// CUSTOM-NEXT: fuser.set %arg1 cache_op = streaming : tensor<8x4xf32>
// CUSTOM-NEXT: fuser.segment_set %arg1 : tensor<8x4xf32>
// CUSTOM-NEXT: fuser.permute %arg1 [1, 0] : tensor<8x4xf32> -> tensor<4x8xf32>
// CUSTOM-NEXT: fuser.slice %arg1 starts [0, 1] limits [8, 4] strides [2, 1] : tensor<8x4xf32> -> tensor<4x3xf32>
// CUSTOM-NEXT: fuser.pad %arg1 low [1, 0] high [0, 2] value %arg3 : tensor<8x4xf32>, f32 -> tensor<9x6xf32>
// CUSTOM-NEXT: fuser.cat %arg1, %arg2 dim 0 : tensor<8x4xf32>, tensor<1x4xf32> -> tensor<9x4xf32>
// CUSTOM-NEXT: fuser.reduction add %arg1 [1] : tensor<8x4xf32> -> tensor<8xf32>
// CUSTOM-NEXT: fuser.reduction max %arg1 [0] keepdim : tensor<8x4xf32> -> tensor<1x4xf32>
// CUSTOM-NEXT: fuser.neg %arg1 : tensor<8x4xf32>
// CUSTOM-NEXT: fuser.sigmoid %arg3 : f32
// CUSTOM-NEXT: fuser.sub %arg1, %arg2 : tensor<8x4xf32>, tensor<1x4xf32> -> tensor<8x4xf32>
// CUSTOM-NEXT: fuser.pow %arg1, %arg3 : tensor<8x4xf32>, f32 -> tensor<8x4xf32>
// CUSTOM-NEXT: fuser.le %arg1, %arg2 : tensor<8x4xf32>, tensor<1x4xf32> -> tensor<8x4xi1>
// CUSTOM-NEXT: fuser.where %arg4, %arg1, %arg3 : tensor<8x4xi1>, tensor<8x4xf32>, f32 -> tensor<8x4xf32>
// CUSTOM-NEXT: fuser.full %arg3 : f32 -> tensor<2x2xf32>
// CUSTOM-NEXT: fuser.segment reduction(%arg1) : (tensor<8x4xf32>) -> tensor<8xf32> {
// CUSTOM-NEXT: ^bb0(%[[X:.*]]: tensor<8x4xf32>):
// CUSTOM-NEXT: %[[R:.*]] = fuser.reduction min %[[X]] [1] : tensor<8x4xf32> -> tensor<8xf32>
// CUSTOM-NEXT: fuser.yield %[[R]] : tensor<8xf32>

"func.func"() <{function_type = (tensor<1x8x1x4xf32>, tensor<8x4xf32>, tensor<1x4xf32>, f32, tensor<8x4xi1>) -> tensor<8x4xf32>, sym_name = "all_ops"}> ({
^bb0(%arg0: tensor<1x8x1x4xf32>, %arg1: tensor<8x4xf32>, %arg2: tensor<1x4xf32>, %arg3: f32, %arg4: tensor<8x4xi1>):
  %0 = "fuser.view"(%arg0) : (tensor<1x8x1x4xf32>) -> tensor<8x4xf32>
  %1 = "fuser.cast"(%0) : (tensor<8x4xf32>) -> tensor<8x4xbf16>
  %2 = "fuser.squeeze"(%arg0) <{dims = array<i64: 0, 2>}> : (tensor<1x8x1x4xf32>) -> tensor<8x4xf32>
  %3 = "fuser.broadcast"(%arg1) <{dims = array<i64: 1>}> : (tensor<8x4xf32>) -> tensor<8x1x4xf32>
  %4 = "fuser.expand"(%arg2) : (tensor<1x4xf32>) -> tensor<8x4xf32>
  %5 = "fuser.set"(%arg1) : (tensor<8x4xf32>) -> tensor<8x4xf32>
  %6 = "fuser.set"(%arg1) <{cache_op = #fuser<cache_op streaming>}> : (tensor<8x4xf32>) -> tensor<8x4xf32>
  %7 = "fuser.segment_set"(%arg1) : (tensor<8x4xf32>) -> tensor<8x4xf32>
  %8 = "fuser.permute"(%arg1) <{permutation = array<i64: 1, 0>}> : (tensor<8x4xf32>) -> tensor<4x8xf32>
  %9 = "fuser.slice"(%arg1) <{limits = array<i64: 8, 4>, starts = array<i64: 0, 1>, strides = array<i64: 2, 1>}> : (tensor<8x4xf32>) -> tensor<4x3xf32>
  %10 = "fuser.pad"(%arg1, %arg3) <{high = array<i64: 0, 2>, low = array<i64: 1, 0>}> : (tensor<8x4xf32>, f32) -> tensor<9x6xf32>
  %11 = "fuser.cat"(%arg1, %arg2) <{dim = 0 : i64}> : (tensor<8x4xf32>, tensor<1x4xf32>) -> tensor<9x4xf32>
  %12 = "fuser.reduction"(%arg1) <{dims = array<i64: 1>, kind = #fuser<reduction_kind add>}> : (tensor<8x4xf32>) -> tensor<8xf32>
  %13 = "fuser.reduction"(%arg1) <{dims = array<i64: 0>, keepdim, kind = #fuser<reduction_kind max>}> : (tensor<8x4xf32>) -> tensor<1x4xf32>
  %14 = "fuser.neg"(%arg1) : (tensor<8x4xf32>) -> tensor<8x4xf32>
  %15 = "fuser.sigmoid"(%arg3) : (f32) -> f32
  %16 = "fuser.sub"(%arg1, %arg2) : (tensor<8x4xf32>, tensor<1x4xf32>) -> tensor<8x4xf32>
  %17 = "fuser.pow"(%arg1, %arg3) : (tensor<8x4xf32>, f32) -> tensor<8x4xf32>
  %18 = "fuser.le"(%arg1, %arg2) : (tensor<8x4xf32>, tensor<1x4xf32>) -> tensor<8x4xi1>
  %19 = "fuser.where"(%arg4, %arg1, %arg3) : (tensor<8x4xi1>, tensor<8x4xf32>, f32) -> tensor<8x4xf32>
  %20 = "fuser.full"(%arg3) : (f32) -> tensor<2x2xf32>
  %21 = "fuser.segment"(%arg1) <{kind = #fuser<segment_kind reduction>}> ({
  ^bb0(%arg5: tensor<8x4xf32>):
    %22 = "fuser.reduction"(%arg5) <{dims = array<i64: 1>, kind = #fuser<reduction_kind min>}> : (tensor<8x4xf32>) -> tensor<8xf32>
    "fuser.yield"(%22) : (tensor<8xf32>) -> ()
  }) : (tensor<8x4xf32>) -> tensor<8xf32>
  "func.return"(%19) : (tensor<8x4xf32>) -> ()
}) : () -> ()
