// examples/mistral_rope_bwd.mlir (the seed's RoPE backward chain) prints IR
// that re-parses to the same text, in the custom and in the generic form, and
// both forms describe the same IR.
// RUN: fuser-opt %fuser_src_root/examples/mistral_rope_bwd.mlir > %t.custom.1.mlir
// RUN: fuser-opt %t.custom.1.mlir > %t.custom.2.mlir
// RUN: diff %t.custom.1.mlir %t.custom.2.mlir
// RUN: fuser-opt %fuser_src_root/examples/mistral_rope_bwd.mlir --mlir-print-op-generic > %t.generic.1.mlir
// RUN: fuser-opt %t.generic.1.mlir --mlir-print-op-generic > %t.generic.2.mlir
// RUN: diff %t.generic.1.mlir %t.generic.2.mlir
// RUN: fuser-opt %t.generic.1.mlir | diff %t.custom.1.mlir -
// RUN: fuser-opt %t.custom.1.mlir --mlir-print-op-generic | diff %t.generic.1.mlir -
// RUN: FileCheck %s < %t.custom.2.mlir
// RUN: FileCheck %s --check-prefix=GENERIC < %t.generic.2.mlir

// Every op of the seed, in order: input bf16[1,32,4096,128], output
// bf16[1,4096,1024], the two sets and the casts around the squeezes.
// CHECK-LABEL: func.func @mistral_rope_bwd(%arg0: tensor<1x32x4096x128xbf16>) -> tensor<1x4096x1024xbf16> {
// CHECK-NEXT: %0 = fuser.view %arg0 : tensor<1x32x4096x128xbf16> -> tensor<1x8x4x4096x128xbf16>
// CHECK-NEXT: %1 = fuser.cast %0 : tensor<1x8x4x4096x128xbf16> to tensor<1x8x4x4096x128xf32>
// CHECK-NEXT: %2 = fuser.squeeze %1 [0] : tensor<1x8x4x4096x128xf32> -> tensor<8x4x4096x128xf32>
// CHECK-NEXT: %3 = fuser.reduction add %2 [1] : tensor<8x4x4096x128xf32> -> tensor<8x4096x128xf32>
// CHECK-NEXT: %4 = fuser.cast %3 : tensor<8x4096x128xf32> to tensor<8x4096x128xbf16>
// CHECK-NEXT: %5 = fuser.broadcast %4 [0, 2] : tensor<8x4096x128xbf16> -> tensor<1x8x1x4096x128xbf16>
// CHECK-NEXT: %6 = fuser.set %5 cache_op = streaming : tensor<1x8x1x4096x128xbf16>
// CHECK-NEXT: %7 = fuser.cast %6 : tensor<1x8x1x4096x128xbf16> to tensor<1x8x1x4096x128xf32>
// CHECK-NEXT: %8 = fuser.squeeze %7 [0, 2] : tensor<1x8x1x4096x128xf32> -> tensor<8x4096x128xf32>
// CHECK-NEXT: %9 = fuser.cast %8 : tensor<8x4096x128xf32> to tensor<8x4096x128xbf16>
// CHECK-NEXT: %10 = fuser.broadcast %9 [0] : tensor<8x4096x128xbf16> -> tensor<1x8x4096x128xbf16>
// CHECK-NEXT: %11 = fuser.set %10 cache_op = streaming : tensor<1x8x4096x128xbf16>
// CHECK-NEXT: %12 = fuser.permute %11 [0, 2, 1, 3] : tensor<1x8x4096x128xbf16> -> tensor<1x4096x8x128xbf16>
// CHECK-NEXT: %13 = fuser.view %12 : tensor<1x4096x8x128xbf16> -> tensor<1x4096x1024xbf16>
// CHECK-NEXT: return %13 : tensor<1x4096x1024xbf16>
// CHECK-NEXT: }

// GENERIC: "func.func"() <{function_type = (tensor<1x32x4096x128xbf16>) -> tensor<1x4096x1024xbf16>, sym_name = "mistral_rope_bwd"}>
// GENERIC: "fuser.reduction"(%2) <{dims = array<i64: 1>, kind = #fuser<reduction_kind add>}> : (tensor<8x4x4096x128xf32>) -> tensor<8x4096x128xf32>
// GENERIC: "fuser.set"(%5) <{cache_op = #fuser<cache_op streaming>}> : (tensor<1x8x1x4096x128xbf16>) -> tensor<1x8x1x4096x128xbf16>
// GENERIC: "fuser.set"(%10) <{cache_op = #fuser<cache_op streaming>}> : (tensor<1x8x4096x128xbf16>) -> tensor<1x8x4096x128xbf16>
// GENERIC: "fuser.permute"(%11) <{permutation = array<i64: 0, 2, 1, 3>}> : (tensor<1x8x4096x128xbf16>) -> tensor<1x4096x8x128xbf16>
// GENERIC: "func.return"(%13) : (tensor<1x4096x1024xbf16>) -> ()
