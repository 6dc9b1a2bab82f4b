// Complex functions on infinite and NaN parts (issue 43): C99 Annex G's
// values as nvFuser's runtime (libc++'s <complex>) computes them, on the
// interpreter and the CPU backend alike, and the CPU backend bit for bit
// against the interpreter. python/tests/test_complex_special.py checks every
// op on every pair of special parts.
// RUN: fuser-run %s --entry special --backend interp --print-values | FileCheck %s
// RUN: fuser-run %s --entry special --backend cpu --print-values | FileCheck %s
// RUN: fuser-run %s --entry special --backend cpu --check-against interp | FileCheck %s --check-prefix=EXACT --implicit-check-not='{{max_ulp=[1-9]|FAILED}}'
// RUN: fuser-run %s --entry special64 --backend interp --print-values | FileCheck %s --check-prefix=C128
// RUN: fuser-run %s --entry special64 --backend cpu --print-values | FileCheck %s --check-prefix=C128

// abs(inf + nan i) = inf, abs(nan - inf i) = inf.
// CHECK: result 0: {{.*}}
// CHECK-NEXT: {{\[}}inf, inf]
// exp(-inf + inf i) = (0, 0), exp(+inf + nan i) = (inf, nan).
// CHECK: result 1: {{.*}}
// CHECK-NEXT: {{\[}}(0+0j), (inf+nanj)]
// sigmoid(inf + inf i) = 1, sigmoid(-inf + 1.5 i) = 0 (libc++'s division).
// CHECK: result 2: {{.*}}
// CHECK-NEXT: {{\[}}(1+0j), (0+0j)]
// (inf + inf i) * (1.5 + 0i) = (inf, inf): libc++'s recovery of infinities.
// CHECK: result 3: {{.*}}
// CHECK-NEXT: {{\[}}(inf+infj), (inf+infj)]
// sqrt(inf - 1.5 i) = (inf, -0), sqrt(inf + nan i) = (inf, nan);
// log(inf - 1.5 i) = (inf, -0), log(inf + nan i) = (inf, nan).
// CHECK: result 4: {{.*}}
// CHECK-NEXT: [(inf-0j), (inf+nanj)]
// CHECK: result 5: {{.*}}
// CHECK-NEXT: [(inf-0j), (inf+nanj)]
// EXACT-COUNT-6: ok
// C128: result 0: {{.*}}
// C128-NEXT: {{\[}}inf, inf]
// C128: result 1: {{.*}}
// C128-NEXT: {{\[}}(0+0j), (inf+nanj)]
// C128: result 2: {{.*}}
// C128-NEXT: {{\[}}(1+0j), (0+0j)]

func.func @special() -> (tensor<2xf32>, tensor<2xcomplex<f32>>, tensor<2xcomplex<f32>>, tensor<2xcomplex<f32>>, tensor<2xcomplex<f32>>, tensor<2xcomplex<f32>>) {
  %inf = arith.constant 0x7F800000 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %nan = arith.constant 0x7FC00000 : f32
  %zero = arith.constant 0.0 : f32
  %half3 = arith.constant 1.5 : f32
  %nhalf3 = arith.constant -1.5 : f32
  %tinf = fuser.full %inf : f32 -> tensor<1xf32>
  %tninf = fuser.full %ninf : f32 -> tensor<1xf32>
  %tnan = fuser.full %nan : f32 -> tensor<1xf32>
  %tzero = fuser.full %zero : f32 -> tensor<1xf32>
  %th = fuser.full %half3 : f32 -> tensor<1xf32>
  %tnh = fuser.full %nhalf3 : f32 -> tensor<1xf32>
  %re = fuser.cat %tinf, %tnan dim 0 : tensor<1xf32>, tensor<1xf32> -> tensor<2xf32>
  %im = fuser.cat %tnan, %tninf dim 0 : tensor<1xf32>, tensor<1xf32> -> tensor<2xf32>
  %z0 = fuser.complex %re, %im : tensor<2xf32>, tensor<2xf32> -> tensor<2xcomplex<f32>>
  %abs = fuser.abs %z0 : tensor<2xcomplex<f32>>
  %re1 = fuser.cat %tninf, %tinf dim 0 : tensor<1xf32>, tensor<1xf32> -> tensor<2xf32>
  %im1 = fuser.cat %tinf, %tnan dim 0 : tensor<1xf32>, tensor<1xf32> -> tensor<2xf32>
  %z1 = fuser.complex %re1, %im1 : tensor<2xf32>, tensor<2xf32> -> tensor<2xcomplex<f32>>
  %exp = fuser.exp %z1 : tensor<2xcomplex<f32>>
  %re2 = fuser.cat %tinf, %tninf dim 0 : tensor<1xf32>, tensor<1xf32> -> tensor<2xf32>
  %im2 = fuser.cat %tinf, %th dim 0 : tensor<1xf32>, tensor<1xf32> -> tensor<2xf32>
  %z2 = fuser.complex %re2, %im2 : tensor<2xf32>, tensor<2xf32> -> tensor<2xcomplex<f32>>
  %sigmoid = fuser.sigmoid %z2 : tensor<2xcomplex<f32>>
  %im3 = fuser.cat %tinf, %tinf dim 0 : tensor<1xf32>, tensor<1xf32> -> tensor<2xf32>
  %z3 = fuser.complex %im3, %im3 : tensor<2xf32>, tensor<2xf32> -> tensor<2xcomplex<f32>>
  %h2 = fuser.cat %th, %th dim 0 : tensor<1xf32>, tensor<1xf32> -> tensor<2xf32>
  %z02 = fuser.cat %tzero, %tzero dim 0 : tensor<1xf32>, tensor<1xf32> -> tensor<2xf32>
  %w3 = fuser.complex %h2, %z02 : tensor<2xf32>, tensor<2xf32> -> tensor<2xcomplex<f32>>
  %mul = fuser.mul %z3, %w3 : tensor<2xcomplex<f32>>, tensor<2xcomplex<f32>> -> tensor<2xcomplex<f32>>
  %im4 = fuser.cat %tnh, %tnan dim 0 : tensor<1xf32>, tensor<1xf32> -> tensor<2xf32>
  %z4 = fuser.complex %im3, %im4 : tensor<2xf32>, tensor<2xf32> -> tensor<2xcomplex<f32>>
  %sqrt = fuser.sqrt %z4 : tensor<2xcomplex<f32>>
  %log = fuser.log %z4 : tensor<2xcomplex<f32>>
  return %abs, %exp, %sigmoid, %mul, %sqrt, %log : tensor<2xf32>, tensor<2xcomplex<f32>>, tensor<2xcomplex<f32>>, tensor<2xcomplex<f32>>, tensor<2xcomplex<f32>>, tensor<2xcomplex<f32>>
}

func.func @special64() -> (tensor<2xf64>, tensor<2xcomplex<f64>>, tensor<2xcomplex<f64>>) {
  %inf = arith.constant 0x7FF0000000000000 : f64
  %ninf = arith.constant 0xFFF0000000000000 : f64
  %nan = arith.constant 0x7FF8000000000000 : f64
  %half3 = arith.constant 1.5 : f64
  %tinf = fuser.full %inf : f64 -> tensor<1xf64>
  %tninf = fuser.full %ninf : f64 -> tensor<1xf64>
  %tnan = fuser.full %nan : f64 -> tensor<1xf64>
  %th = fuser.full %half3 : f64 -> tensor<1xf64>
  %re = fuser.cat %tinf, %tnan dim 0 : tensor<1xf64>, tensor<1xf64> -> tensor<2xf64>
  %im = fuser.cat %tnan, %tninf dim 0 : tensor<1xf64>, tensor<1xf64> -> tensor<2xf64>
  %z0 = fuser.complex %re, %im : tensor<2xf64>, tensor<2xf64> -> tensor<2xcomplex<f64>>
  %abs = fuser.abs %z0 : tensor<2xcomplex<f64>>
  %re1 = fuser.cat %tninf, %tinf dim 0 : tensor<1xf64>, tensor<1xf64> -> tensor<2xf64>
  %im1 = fuser.cat %tinf, %tnan dim 0 : tensor<1xf64>, tensor<1xf64> -> tensor<2xf64>
  %z1 = fuser.complex %re1, %im1 : tensor<2xf64>, tensor<2xf64> -> tensor<2xcomplex<f64>>
  %exp = fuser.exp %z1 : tensor<2xcomplex<f64>>
  %re2 = fuser.cat %tinf, %tninf dim 0 : tensor<1xf64>, tensor<1xf64> -> tensor<2xf64>
  %im2 = fuser.cat %tinf, %th dim 0 : tensor<1xf64>, tensor<1xf64> -> tensor<2xf64>
  %z2 = fuser.complex %re2, %im2 : tensor<2xf64>, tensor<2xf64> -> tensor<2xcomplex<f64>>
  %sigmoid = fuser.sigmoid %z2 : tensor<2xcomplex<f64>>
  return %abs, %exp, %sigmoid : tensor<2xf64>, tensor<2xcomplex<f64>>, tensor<2xcomplex<f64>>
}
