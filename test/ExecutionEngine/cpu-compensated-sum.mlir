// Split float sums carry Kahan's compensation per thread (KernelBuilder's
// emitBlockReduction, the tiled split kernel): a thread's n / threads
// elements err like one addition, not n / threads of them
// (docs/Interpreter.md, "Reductions"). Without compensation the CPU backend
// gave 419425.9 for 0.1 summed 2^22 times (then one block of 256 threads, 4
// lanes; 419431.4 with compensation) and 104850.94 for an outer sum of 2^20
// rows split 128 ways; exact: 419430.406 and 104857.602 (the f32 value of
// 0.1). The CPU backend's schedule has 32 threads of 16 lanes, each with 4
// compensated partials combined pairwise, then the lanes pairwise, then the
// threads in sequence: the rest of the error.
// RUN: fuser-run %s --entry sums --backend cpu --print-values | FileCheck %s --check-prefix=SPLIT
// Without splits one thread sums in sequence, the interpreter's order then.
// RUN: fuser-run %s --entry sums --backend cpu --print-values --split-reductions=false | FileCheck %s --check-prefix=SEQUENTIAL
// RUN: fuser-run %s --entry sums --backend cpu --check-against interp --split-reductions=false --ulp-tolerance 0 | FileCheck %s --check-prefix=SAME
// Infinities, NaN and signed zeros come out as a plain sum gives them: the
// compensation restarts where the sum is not finite.
// RUN: fuser-run %s --entry specials --backend cpu --print-values | FileCheck %s --check-prefix=SPECIALS
// RUN: fuser-run %s --entry specials --backend cpu --check-against interp --ulp-tolerance 0 | FileCheck %s --check-prefix=SAME

// SPLIT: result 0: tensor<f32>
// SPLIT-NEXT: 419430.28
// SPLIT: result 1: tensor<2xf32>
// SPLIT-NEXT: [104857.7, 104857.7]
// SEQUENTIAL: result 0: tensor<f32>
// SEQUENTIAL-NEXT: 402740.78
// SEQUENTIAL: result 1: tensor<2xf32>
// SEQUENTIAL-NEXT: [105891.84, 105891.84]
// SAME-NOT: FAILED
func.func @sums() -> (tensor<f32>, tensor<2xf32>) {
  %c = arith.constant 0.1 : f32
  %f = fuser.full %c : f32 -> tensor<4194304xf32>
  %s = fuser.reduction add %f [0] : tensor<4194304xf32> -> tensor<f32>
  %g = fuser.full %c : f32 -> tensor<1048576x2xf32>
  %t = fuser.reduction add %g [0] : tensor<1048576x2xf32> -> tensor<2xf32>
  return %s, %t : tensor<f32>, tensor<2xf32>
}

// Rows of 4096: +inf then ones; +inf, -inf, then ones; NaN then ones; all
// -0 (the identity -0 stays -0); 1e30 then ones (lost either way).
// SPECIALS: result 0: tensor<5xf32>
// SPECIALS-NEXT: [inf, nan, nan, -0, 1e+30]
func.func @specials() -> tensor<5xf32> {
  %inf = arith.constant 0x7F800000 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %nan = arith.constant 0x7FC00000 : f32
  %nzero = arith.constant -0.0 : f32
  %big = arith.constant 1.0e30 : f32
  %one = arith.constant 1.0 : f32
  %i = fuser.full %inf : f32 -> tensor<1xf32>
  %n = fuser.full %ninf : f32 -> tensor<1xf32>
  %q = fuser.full %nan : f32 -> tensor<1xf32>
  %b = fuser.full %big : f32 -> tensor<1xf32>
  %ones = fuser.full %one : f32 -> tensor<4095xf32>
  %ones2 = fuser.full %one : f32 -> tensor<4094xf32>
  %r0 = fuser.cat %i, %ones dim 0 : tensor<1xf32>, tensor<4095xf32> -> tensor<4096xf32>
  %r1 = fuser.cat %i, %n, %ones2 dim 0 : tensor<1xf32>, tensor<1xf32>, tensor<4094xf32> -> tensor<4096xf32>
  %r2 = fuser.cat %q, %ones dim 0 : tensor<1xf32>, tensor<4095xf32> -> tensor<4096xf32>
  %r3 = fuser.full %nzero : f32 -> tensor<4096xf32>
  %r4 = fuser.cat %b, %ones dim 0 : tensor<1xf32>, tensor<4095xf32> -> tensor<4096xf32>
  %b0 = fuser.broadcast %r0 [0] : tensor<4096xf32> -> tensor<1x4096xf32>
  %b1 = fuser.broadcast %r1 [0] : tensor<4096xf32> -> tensor<1x4096xf32>
  %b2 = fuser.broadcast %r2 [0] : tensor<4096xf32> -> tensor<1x4096xf32>
  %b3 = fuser.broadcast %r3 [0] : tensor<4096xf32> -> tensor<1x4096xf32>
  %b4 = fuser.broadcast %r4 [0] : tensor<4096xf32> -> tensor<1x4096xf32>
  %rows = fuser.cat %b0, %b1, %b2, %b3, %b4 dim 0 : tensor<1x4096xf32>, tensor<1x4096xf32>, tensor<1x4096xf32>, tensor<1x4096xf32>, tensor<1x4096xf32> -> tensor<5x4096xf32>
  %s = fuser.reduction add %rows [1] : tensor<5x4096xf32> -> tensor<5xf32>
  return %s : tensor<5xf32>
}
