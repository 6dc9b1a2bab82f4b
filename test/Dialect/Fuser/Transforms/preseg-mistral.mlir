// The mission's acceptance check: after fuser-preseg the Mistral RoPE
// backward chain is view/cast -> sum -> cast -> permute -> view, with exactly
// the widening cast before the sum and the narrowing one after it.
// RUN: fuser-opt --fuser-preseg %fuser_src_root/examples/mistral_rope_bwd.mlir | FileCheck %s
// RUN: fuser-opt --fuser-preseg %fuser_src_root/examples/mistral_rope_bwd.mlir | grep -c "fuser\.cast" | FileCheck %s --check-prefix=CASTS
// Twice equals once.
// RUN: fuser-opt --fuser-preseg %fuser_src_root/examples/mistral_rope_bwd.mlir > %t.once.mlir
// RUN: fuser-opt --fuser-preseg %t.once.mlir > %t.twice.mlir
// RUN: diff %t.once.mlir %t.twice.mlir

// CHECK-LABEL: func.func @mistral_rope_bwd(
// CHECK-SAME:    %[[X:.*]]: tensor<1x32x4096x128xbf16>)
// CHECK-NOT:     fuser.broadcast
// CHECK-NOT:     fuser.squeeze
// CHECK-NOT:     fuser.set
// CHECK-NOT:     fuser.expand
// CHECK:         %[[UP:.*]] = fuser.cast %[[X]] : tensor<1x32x4096x128xbf16> to tensor<1x32x4096x128xf32>
// CHECK-NEXT:    %[[V:.*]] = fuser.view %[[UP]] : tensor<1x32x4096x128xf32> -> tensor<8x4x4096x128xf32>
// CHECK-NEXT:    %[[SUM:.*]] = fuser.reduction add %[[V]] [1] : tensor<8x4x4096x128xf32> -> tensor<8x4096x128xf32>
// CHECK-NEXT:    %[[DOWN:.*]] = fuser.cast %[[SUM]] : tensor<8x4096x128xf32> to tensor<8x4096x128xbf16>
// CHECK-NEXT:    %[[P:.*]] = fuser.permute %[[DOWN]] [1, 0, 2] : tensor<8x4096x128xbf16> -> tensor<4096x8x128xbf16>
// CHECK-NEXT:    %[[OUT:.*]] = fuser.view %[[P]] : tensor<4096x8x128xbf16> -> tensor<1x4096x1024xbf16>
// CHECK-NEXT:    return %[[OUT]]

// CASTS: 2
