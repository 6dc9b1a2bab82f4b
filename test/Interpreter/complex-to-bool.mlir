// A cast from complex to i1 is `!= 0`: true where either part is non-zero
// or NaN (torch's `x != 0`, nvFuser's `operator bool`, logical_not's
// reading), not the real part alone; to any other real type the real part
// converts (to an integer: truncated toward zero, saturating, NaN 0).
// The interpreter, the CPU and SIMT backends (FuserToArith's emitCast) and
// canonicalize agree.
// RUN: fuser-run %s --entry casts --print-values | FileCheck %s
// RUN: fuser-run %s --entry casts --backend cpu --print-values | FileCheck %s
// RUN: fuser-opt --canonicalize %s | fuser-run - --entry casts --print-values | FileCheck %s
// RUN: fuser-run %s --entry casts --backend cpu --check-against interp | FileCheck %s --check-prefix=SAME
// RUN: fuser-run %s --entry casts --backend simt --check-against interp | FileCheck %s --check-prefix=SAME

// z = [0+0j, -0-0j, 0+1.5j, 0-1e-45j, 1.5+0j, nan+0j, 0+nanj, 0+infj, -2.75+3j]
// (1e-45 is f32's smallest subnormal).
// CHECK: result 0: tensor<9xi1>
// CHECK-NEXT: [false, false, true, true, true, true, true, true, true]
// CHECK: result 1: tensor<9xi1>
// CHECK-NEXT: [false, false, true, true, true, true, true, true, true]
// CHECK: result 2: tensor<9xi1>
// CHECK-NEXT: [true, true, false, false, false, false, false, false, false]
// CHECK: result 3: tensor<9xi32>
// CHECK-NEXT: [0, 0, 0, 0, 1, 0, 0, 0, -2]
// CHECK: result 4: tensor<9xf32>
// CHECK-NEXT: [0, -0, 0, 0, 1.5, nan, 0, 0, -2.75]
// SAME-COUNT-5: max_ulp=0 tolerance=0 ulp ok
func.func @casts() -> (tensor<9xi1>, tensor<9xi1>, tensor<9xi1>, tensor<9xi32>, tensor<9xf32>) {
  %re_c0 = arith.constant 0.0 : f32
  %re_t0 = fuser.full %re_c0 : f32 -> tensor<1xf32>
  %re_c1 = arith.constant -0.0 : f32
  %re_t1 = fuser.full %re_c1 : f32 -> tensor<1xf32>
  %re_c2 = arith.constant 0.0 : f32
  %re_t2 = fuser.full %re_c2 : f32 -> tensor<1xf32>
  %re_c3 = arith.constant 0.0 : f32
  %re_t3 = fuser.full %re_c3 : f32 -> tensor<1xf32>
  %re_c4 = arith.constant 1.5 : f32
  %re_t4 = fuser.full %re_c4 : f32 -> tensor<1xf32>
  %re_c5 = arith.constant 0x7FC00000 : f32
  %re_t5 = fuser.full %re_c5 : f32 -> tensor<1xf32>
  %re_c6 = arith.constant 0.0 : f32
  %re_t6 = fuser.full %re_c6 : f32 -> tensor<1xf32>
  %re_c7 = arith.constant 0.0 : f32
  %re_t7 = fuser.full %re_c7 : f32 -> tensor<1xf32>
  %re_c8 = arith.constant -2.75 : f32
  %re_t8 = fuser.full %re_c8 : f32 -> tensor<1xf32>
  %re = fuser.cat %re_t0, %re_t1, %re_t2, %re_t3, %re_t4, %re_t5, %re_t6, %re_t7, %re_t8 dim 0 : tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32> -> tensor<9xf32>
  %im_c0 = arith.constant 0.0 : f32
  %im_t0 = fuser.full %im_c0 : f32 -> tensor<1xf32>
  %im_c1 = arith.constant -0.0 : f32
  %im_t1 = fuser.full %im_c1 : f32 -> tensor<1xf32>
  %im_c2 = arith.constant 1.5 : f32
  %im_t2 = fuser.full %im_c2 : f32 -> tensor<1xf32>
  %im_c3 = arith.constant -1.0e-45 : f32
  %im_t3 = fuser.full %im_c3 : f32 -> tensor<1xf32>
  %im_c4 = arith.constant 0.0 : f32
  %im_t4 = fuser.full %im_c4 : f32 -> tensor<1xf32>
  %im_c5 = arith.constant 0.0 : f32
  %im_t5 = fuser.full %im_c5 : f32 -> tensor<1xf32>
  %im_c6 = arith.constant 0x7FC00000 : f32
  %im_t6 = fuser.full %im_c6 : f32 -> tensor<1xf32>
  %im_c7 = arith.constant 0x7F800000 : f32
  %im_t7 = fuser.full %im_c7 : f32 -> tensor<1xf32>
  %im_c8 = arith.constant 3.0 : f32
  %im_t8 = fuser.full %im_c8 : f32 -> tensor<1xf32>
  %im = fuser.cat %im_t0, %im_t1, %im_t2, %im_t3, %im_t4, %im_t5, %im_t6, %im_t7, %im_t8 dim 0 : tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32> -> tensor<9xf32>
  %z = fuser.complex %re, %im : tensor<9xf32>, tensor<9xf32> -> tensor<9xcomplex<f32>>
  %b64 = fuser.cast %z : tensor<9xcomplex<f32>> to tensor<9xi1>
  %w = fuser.cast %z : tensor<9xcomplex<f32>> to tensor<9xcomplex<f64>>
  %b128 = fuser.cast %w : tensor<9xcomplex<f64>> to tensor<9xi1>
  %not = fuser.logical_not %z : tensor<9xcomplex<f32>> -> tensor<9xi1>
  %i = fuser.cast %w : tensor<9xcomplex<f64>> to tensor<9xi32>
  %f = fuser.cast %z : tensor<9xcomplex<f32>> to tensor<9xf32>
  return %b64, %b128, %not, %i, %f : tensor<9xi1>, tensor<9xi1>, tensor<9xi1>, tensor<9xi32>, tensor<9xf32>
}
