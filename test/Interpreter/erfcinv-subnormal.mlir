// f64 erfcinv of tiny and subnormal operands: from x = 26 on the Newton
// steps refine on the asymptotic series of log(erfc(x)), not on glibc's
// erfc, which keeps only a few bits where it is subnormal (erfcinv(5e-324)
// was 27.213305586561788, 5e-7 relative off; exact 27.21329321081294882).
// The expected values are mpmath's (findroot on log(erfc(x)) = log(z) at
// 200 bits) correctly rounded: 27.213293210812948815, 27.073153719853040874,
// 26.644806559364764782, 26.543258454250981382, 26.209469960516123886,
// -5.8050186831934533002; this host's results are each of them correctly
// rounded (before: up to 3.5e9 ulp off on subnormals). The CPU backend binds
// __nv_erfcinv to the same host function: bit for bit.
// RUN: fuser-run %s --entry tiny --print-values | FileCheck %s
// RUN: fuser-run %s --entry tiny --backend cpu --print-values | FileCheck %s
// RUN: fuser-run %s --entry tiny --backend cpu --check-against interp --ulp-tolerance 0 | FileCheck %s --check-prefix=SAME

// z = [5e-324, 1e-320, 1e-310, 2.2250738585072014e-308, 1e-300, 2 - 2^-52]
// CHECK: result 0: tensor<6xf64>
// CHECK-NEXT: [27.21329321081295, 27.073153719853043, 26.644806559364763, 26.54325845425098, 26.209469960516124, -5.805018683193453]
// SAME: max_ulp=0 tolerance=0 ulp ok
func.func @tiny() -> tensor<6xf64> {
  %z_c0 = arith.constant 4.9406564584124654e-324 : f64
  %z_t0 = fuser.full %z_c0 : f64 -> tensor<1xf64>
  %z_c1 = arith.constant 9.9998886718268301e-321 : f64
  %z_t1 = fuser.full %z_c1 : f64 -> tensor<1xf64>
  %z_c2 = arith.constant 9.9999999999999694e-311 : f64
  %z_t2 = fuser.full %z_c2 : f64 -> tensor<1xf64>
  %z_c3 = arith.constant 2.2250738585072014e-308 : f64
  %z_t3 = fuser.full %z_c3 : f64 -> tensor<1xf64>
  %z_c4 = arith.constant 1.0e-300 : f64
  %z_t4 = fuser.full %z_c4 : f64 -> tensor<1xf64>
  %z_c5 = arith.constant 1.9999999999999998 : f64
  %z_t5 = fuser.full %z_c5 : f64 -> tensor<1xf64>
  %z = fuser.cat %z_t0, %z_t1, %z_t2, %z_t3, %z_t4, %z_t5 dim 0 : tensor<1xf64>, tensor<1xf64>, tensor<1xf64>, tensor<1xf64>, tensor<1xf64>, tensor<1xf64> -> tensor<6xf64>
  %0 = fuser.erfcinv %z : tensor<6xf64>
  return %0 : tensor<6xf64>
}
