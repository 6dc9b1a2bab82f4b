// complex tanh on the imaginary axis is i tan(y) (and tan on the real axis
// tan(x)): libc++'s sin 2y / (1 + cos 2y) cancelled where cos 2y is near -1
// (tanh(1.5i) was 14.10141994717166i, 33 ulp off; exact
// 14.101419947171719i) and gave a NaN real part where cos 2y rounds to -1
// (y = pi/2 in f64). Off the axis nothing changes. The CPU backend
// (ComplexFunctions.cpp's libcxxTanh on glibc's tan) equals the interpreter
// bit for bit; the SIMT emulator of the GPU kernels (libdevice's tan) is
// within the transcendental tolerance.
// RUN: fuser-run %s --entry axis --print-values | FileCheck %s
// RUN: fuser-run %s --entry axis --backend cpu --print-values | FileCheck %s
// RUN: fuser-run %s --entry axis --backend cpu --check-against interp --ulp-tolerance 0 | FileCheck %s --check-prefix=SAME
// RUN: fuser-run %s --entry axis --backend simt --check-against interp | FileCheck %s --check-prefix=NEAR

// z = [0+1.5j, -0+1.5707963267948966j, 0-3j, 0+0j, 1.5+0j, -0-1e-300j]
// tanh z:
// CHECK: result 0: tensor<6xcomplex<f64>>
// CHECK-NEXT: [(0+14.101419947171719j), (-0+16331239353195370j), (0+0.1425465430742778j), (0+0j), (0.9051482536448665+0j), (-0-1e-300j)]
// tan z:
// CHECK: result 1: tensor<6xcomplex<f64>>
// CHECK-NEXT: [(0+0.9051482536448665j), (-0+0.9171523356672745j), (0-0.9950547536867305j), (0+0j), (14.101419947171719+0j), (-0-1e-300j)]
// tanh of z with the parts swapped, complex64:
// CHECK: result 2: tensor<6xcomplex<f32>>
// CHECK-NEXT: [(0.9051482+0j), (0.9171522-0j), (-0.9950548+0j), (0+0j), (0+14.10142j), (-0-0j)]
// SAME-COUNT-3: max_ulp=0 tolerance=0 ulp ok
// NEAR-COUNT-3: max_ulp={{[0-4]}} tolerance=4 ulp ok
func.func @axis() -> (tensor<6xcomplex<f64>>, tensor<6xcomplex<f64>>, tensor<6xcomplex<f32>>) {
  %re_c0 = arith.constant 0.0 : f64
  %re_t0 = fuser.full %re_c0 : f64 -> tensor<1xf64>
  %re_c1 = arith.constant -0.0 : f64
  %re_t1 = fuser.full %re_c1 : f64 -> tensor<1xf64>
  %re_c2 = arith.constant 0.0 : f64
  %re_t2 = fuser.full %re_c2 : f64 -> tensor<1xf64>
  %re_c3 = arith.constant 0.0 : f64
  %re_t3 = fuser.full %re_c3 : f64 -> tensor<1xf64>
  %re_c4 = arith.constant 1.5 : f64
  %re_t4 = fuser.full %re_c4 : f64 -> tensor<1xf64>
  %re_c5 = arith.constant -0.0 : f64
  %re_t5 = fuser.full %re_c5 : f64 -> tensor<1xf64>
  %re = fuser.cat %re_t0, %re_t1, %re_t2, %re_t3, %re_t4, %re_t5 dim 0 : tensor<1xf64>, tensor<1xf64>, tensor<1xf64>, tensor<1xf64>, tensor<1xf64>, tensor<1xf64> -> tensor<6xf64>
  %im_c0 = arith.constant 1.5 : f64
  %im_t0 = fuser.full %im_c0 : f64 -> tensor<1xf64>
  %im_c1 = arith.constant 1.5707963267948966 : f64
  %im_t1 = fuser.full %im_c1 : f64 -> tensor<1xf64>
  %im_c2 = arith.constant -3.0 : f64
  %im_t2 = fuser.full %im_c2 : f64 -> tensor<1xf64>
  %im_c3 = arith.constant 0.0 : f64
  %im_t3 = fuser.full %im_c3 : f64 -> tensor<1xf64>
  %im_c4 = arith.constant 0.0 : f64
  %im_t4 = fuser.full %im_c4 : f64 -> tensor<1xf64>
  %im_c5 = arith.constant -1.0e-300 : f64
  %im_t5 = fuser.full %im_c5 : f64 -> tensor<1xf64>
  %im = fuser.cat %im_t0, %im_t1, %im_t2, %im_t3, %im_t4, %im_t5 dim 0 : tensor<1xf64>, tensor<1xf64>, tensor<1xf64>, tensor<1xf64>, tensor<1xf64>, tensor<1xf64> -> tensor<6xf64>
  %z = fuser.complex %re, %im : tensor<6xf64>, tensor<6xf64> -> tensor<6xcomplex<f64>>
  %tanh = fuser.tanh %z : tensor<6xcomplex<f64>>
  %tan = fuser.tan %z : tensor<6xcomplex<f64>>
  %re32 = fuser.cast %re : tensor<6xf64> to tensor<6xf32>
  %im32 = fuser.cast %im : tensor<6xf64> to tensor<6xf32>
  %w = fuser.complex %im32, %re32 : tensor<6xf32>, tensor<6xf32> -> tensor<6xcomplex<f32>>
  %tanh32 = fuser.tanh %w : tensor<6xcomplex<f32>>
  return %tanh, %tan, %tanh32 : tensor<6xcomplex<f64>>, tensor<6xcomplex<f64>>, tensor<6xcomplex<f32>>
}
