// An MoE router as nvFuser programs spell it (issue 46; the fusion that
// python/tests/test_moe_routing.py defines through nvfuser_direct, at 37
// tokens, 8 experts, k = 2, checked there against numpy): softmax of the
// router logits, topk experts per token, a stable argsort of the flattened
// expert ids, tokens per expert as the sum of a one-hot scatter (a
// scatter-add after fuser-preseg), and their cumsum. Five kernels, the
// fewest the templates allow: the softmax (a normalization), the topk (a
// selection kernel writing the ids and the weights; the flat ids are a
// view of its ids), the argsort of the flat ids, the scatter-add and the
// cumsum (which reads the scatter's result, complete only at its kernel's
// end). Against the interpreter on the CPU backend and under SIMT: the
// indices, order and offsets bit for bit, the weights within fuser-run's
// tolerance for exp (4 ulp: libdevice's under SIMT).
// RUN: fuser-opt %s --fuser-preseg --fuser-segment --fuser-segment-report -o /dev/null | FileCheck %s --check-prefix=SEGMENTS
// RUN: fuser-run %s --entry router --backend cpu --check-against interp | FileCheck %s --check-prefix=OK
// RUN: fuser-run %s --entry router --backend simt --check-against interp | FileCheck %s --check-prefix=OK

// OK-NOT: FAILED
// OK: ulp ok
// OK-NOT: FAILED

// SEGMENTS: fusion @router: 5 kernels, 5 segments
// SEGMENTS: segment #0 normalization
// SEGMENTS: segment #1 pointwise
// SEGMENTS: out #1.0: tensor<37x2xi64>
// SEGMENTS: out #1.1: tensor<37x2xbf16>
// SEGMENTS: segment #2 pointwise
// SEGMENTS: in  #1.0: tensor<37x2xi64>
// SEGMENTS: out #2.0: tensor<74xi64>
// SEGMENTS: segment #3 pointwise
// SEGMENTS: out #3.0: tensor<8xi64>
// SEGMENTS: segment #4 pointwise
// SEGMENTS-NOT: segment #5

func.func @router(%arg0: tensor<37x8xbf16>) -> (tensor<37x2xbf16>, tensor<74xi64>, tensor<8xi64>) {
  %0 = fuser.cast %arg0 : tensor<37x8xbf16> to tensor<37x8xf32>
  %1 = fuser.reduction max %0 [1] keepdim : tensor<37x8xf32> -> tensor<37x1xf32>
  %2 = fuser.sub %0, %1 : tensor<37x8xf32>, tensor<37x1xf32> -> tensor<37x8xf32>
  %3 = fuser.exp %2 : tensor<37x8xf32>
  %4 = fuser.reduction add %3 [1] keepdim : tensor<37x8xf32> -> tensor<37x1xf32>
  %5 = fuser.div %3, %4 : tensor<37x8xf32>, tensor<37x1xf32> -> tensor<37x8xf32>
  %6 = fuser.argsort %5 [1] descending : tensor<37x8xf32> -> tensor<37x8xi64>
  %7 = fuser.slice %6 starts [0, 0] limits [37, 2] strides [1, 1] : tensor<37x8xi64> -> tensor<37x2xi64>
  %8 = fuser.gather %5[%7] dim 1 : tensor<37x8xf32>, tensor<37x2xi64> -> tensor<37x2xf32>
  %9 = fuser.view %7 : tensor<37x2xi64> -> tensor<74xi64>
  %10 = fuser.argsort %9 [0] : tensor<74xi64> -> tensor<74xi64>
  %c0_i64 = arith.constant 0 : i64
  %c1_i64 = arith.constant 1 : i64
  %11 = fuser.full %c0_i64 : i64 -> tensor<74x8xi64>
  %12 = fuser.view %9 : tensor<74xi64> -> tensor<74x1xi64>
  %13 = fuser.full %c1_i64 : i64 -> tensor<74x1xi64>
  %14 = fuser.scatter %11[%12] = %13 dim 1 : tensor<74x8xi64>, tensor<74x1xi64>, tensor<74x1xi64>
  %15 = fuser.reduction add %14 [0] : tensor<74x8xi64> -> tensor<8xi64>
  %16 = fuser.scan add %15 [0] : tensor<8xi64>
  %17 = fuser.cast %8 : tensor<37x2xf32> to tensor<37x2xbf16>
  return %17, %10, %16 : tensor<37x2xbf16>, tensor<74xi64>, tensor<8xi64>
}
