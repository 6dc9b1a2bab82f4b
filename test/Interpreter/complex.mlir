// fuser-run --print-values of complex elements on the reference
// interpreter, edge parts included (zeros of either sign, infinities, NaN),
// (the CPU backend against it: test/ExecutionEngine/cpu-complex.mlir).
// RUN: fuser-run %s --entry arithmetic --print-values | FileCheck %s --check-prefix=ARITH
// RUN: fuser-run %s --entry math --print-values | FileCheck %s --check-prefix=MATH
// RUN: fuser-run %s --entry casts --print-values | FileCheck %s --check-prefix=CAST
// RUN: fuser-run %s --entry predicates --print-values | FileCheck %s --check-prefix=PRED
// RUN: fuser-run %s --entry sum --print-values | FileCheck %s --check-prefix=SUM
// RUN: fuser-run %s --entry meta --print-values | FileCheck %s --check-prefix=META
// RUN: fuser-run %s --entry pow_rsqrt --print-values | FileCheck %s --check-prefix=POW
// RUN: fuser-run %s --entry functions --print-values | FileCheck %s --check-prefix=FUNC
// RUN: fuser-run %s --entry arithmetic --print-values --json | FileCheck %s --check-prefix=JSON

// The operands a and b, element by element:
//   a = [1+2j, 0+0j, inf+0j, nan+1j, -0+0j, 3+4j]
//   b = [3+4j, 0+0j, 1+1j,   2+0j,  inf+0j, -0-0j]
// ARITH: result 0: tensor<6xcomplex<f32>>
// ARITH-NEXT: [(4+6j), (0+0j), (inf+1j), (nan+1j), (inf+0j), (3+4j)]
// ARITH: result 1: tensor<6xcomplex<f32>>
// mul is (ac - bd, ad + bc) without Annex G's recovery: -0 * inf is NaN
// in both parts of the fifth.
// ARITH-NEXT: [(-5+10j), (0+0j), (inf+infj), (nan+nanj), (nan+nanj), (0-0j)]
// ARITH: result 2: tensor<6xcomplex<f32>>
// div: Smith's algorithm; 0 / 0 is NaN, x / 0 infinite, a finite value
// over an infinite one 0.
// ARITH-NEXT: [(0.44+0.08j), (nan+nanj), (inf-infj), (nan+nanj), (0+0j), (-inf-infj)]
// ARITH: result 3: tensor<6xcomplex<f32>>
// ARITH-NEXT: [(-1-2j), (-0-0j), (-inf-0j), (nan-1j), (0-0j), (-3-4j)]
// ARITH: result 4: tensor<6xf32>
// ARITH-NEXT: [2.236068, 0, inf, nan, 0, 5]
// ARITH: result 5: tensor<6xcomplex<f32>>
// ARITH-NEXT: [(0.2-0.4j), (inf+nanj), (0+0j), (nan+nanj), (-inf+nanj), (0.12-0.16j)]
// JSON: {{\[\[4, 6\], \[0, 0\], \[Infinity, 1\], \[NaN, 1\], \[Infinity, 0\], \[3, 4\]\]}}
func.func @arithmetic() -> (tensor<6xcomplex<f32>>, tensor<6xcomplex<f32>>, tensor<6xcomplex<f32>>, tensor<6xcomplex<f32>>, tensor<6xf32>, tensor<6xcomplex<f32>>) {
  %are = arith.constant dense<[1.0, 0.0, 0x7F800000, 0x7FC00000, -0.0, 3.0]> : tensor<6xf32>
  %aim = arith.constant dense<[2.0, 0.0, 0.0, 1.0, 0.0, 4.0]> : tensor<6xf32>
  %bre = arith.constant dense<[3.0, 0.0, 1.0, 2.0, 0x7F800000, -0.0]> : tensor<6xf32>
  %bim = arith.constant dense<[4.0, 0.0, 1.0, 0.0, 0.0, -0.0]> : tensor<6xf32>
  %a = fuser.complex %are, %aim : tensor<6xf32>, tensor<6xf32> -> tensor<6xcomplex<f32>>
  %b = fuser.complex %bre, %bim : tensor<6xf32>, tensor<6xf32> -> tensor<6xcomplex<f32>>
  %add = fuser.add %a, %b : tensor<6xcomplex<f32>>, tensor<6xcomplex<f32>> -> tensor<6xcomplex<f32>>
  %mul = fuser.mul %a, %b : tensor<6xcomplex<f32>>, tensor<6xcomplex<f32>> -> tensor<6xcomplex<f32>>
  %div = fuser.div %a, %b : tensor<6xcomplex<f32>>, tensor<6xcomplex<f32>> -> tensor<6xcomplex<f32>>
  %neg = fuser.neg %a : tensor<6xcomplex<f32>>
  %abs = fuser.abs %a : tensor<6xcomplex<f32>>
  %rcp = fuser.reciprocal %a : tensor<6xcomplex<f32>>
  return %add, %mul, %div, %neg, %abs, %rcp : tensor<6xcomplex<f32>>, tensor<6xcomplex<f32>>, tensor<6xcomplex<f32>>, tensor<6xcomplex<f32>>, tensor<6xf32>, tensor<6xcomplex<f32>>
}

// z = [0+0j, 1+0j, 0+1j, -1+0j, 1+1j] in f64: exp, log, sqrt, sin, cos,
// tan, tanh (a zero part takes libc++'s formula: cos(1+0j) = cosh(-0+1j)
// has imaginary part sinh(-0) sin 1 = -0, as C99 Annex G's).
// MATH: result 0: tensor<5xcomplex<f64>>
// MATH-NEXT: [(1+0j), (2.718281828459045+0j), (0.5403023058681398+0.8414709848078965j), (0.36787944117144233+0j), (1.4686939399158851+2.2873552871788423j)]
// MATH: result 1: tensor<5xcomplex<f64>>
// MATH-NEXT: [(-inf+0j), (0+0j), (0+1.5707963267948966j), (0+3.141592653589793j), (0.3465735902799727+0.7853981633974483j)]
// MATH: result 2: tensor<5xcomplex<f64>>
// MATH-NEXT: [(0+0j), (1+0j), (0.7071067811865476+0.7071067811865475j), (6.123233995736766e-17+1j), (1.0986841134678098+0.45508986056222733j)]
// MATH: result 3: tensor<5xcomplex<f64>>
// MATH-NEXT: [(0+0j), (0.8414709848078965+0j), (0+1.1752011936438014j), (-0.8414709848078965+0j), (1.2984575814159773+0.6349639147847361j)]
// MATH: result 4: tensor<5xcomplex<f64>>
// MATH-NEXT: [(1+0j), (0.5403023058681398-0j), (1.5430806348152437-0j), (0.5403023058681398+0j), (0.8337300251311491-0.9888977057628651j)]
// MATH: result 5: tensor<5xcomplex<f64>>
// MATH-NEXT: [(0+0j), (1.5574077246549023+0j), (0+0.761594155955765j), (-1.5574077246549023+0j), (0.27175258531951174+1.0839233273386946j)]
// MATH: result 6: tensor<5xcomplex<f64>>
// MATH-NEXT: [(0+0j), (0.761594155955765+0j), (0+1.5574077246549023j), (-0.761594155955765+0j), (1.0839233273386946+0.27175258531951174j)]
func.func @math() -> (tensor<5xcomplex<f64>>, tensor<5xcomplex<f64>>, tensor<5xcomplex<f64>>, tensor<5xcomplex<f64>>, tensor<5xcomplex<f64>>, tensor<5xcomplex<f64>>, tensor<5xcomplex<f64>>) {
  %re = arith.constant dense<[0.0, 1.0, 0.0, -1.0, 1.0]> : tensor<5xf64>
  %im = arith.constant dense<[0.0, 0.0, 1.0, 0.0, 1.0]> : tensor<5xf64>
  %z = fuser.complex %re, %im : tensor<5xf64>, tensor<5xf64> -> tensor<5xcomplex<f64>>
  %0 = fuser.exp %z : tensor<5xcomplex<f64>>
  %1 = fuser.log %z : tensor<5xcomplex<f64>>
  %2 = fuser.sqrt %z : tensor<5xcomplex<f64>>
  %3 = fuser.sin %z : tensor<5xcomplex<f64>>
  %4 = fuser.cos %z : tensor<5xcomplex<f64>>
  %5 = fuser.tan %z : tensor<5xcomplex<f64>>
  %6 = fuser.tanh %z : tensor<5xcomplex<f64>>
  return %0, %1, %2, %3, %4, %5, %6 : tensor<5xcomplex<f64>>, tensor<5xcomplex<f64>>, tensor<5xcomplex<f64>>, tensor<5xcomplex<f64>>, tensor<5xcomplex<f64>>, tensor<5xcomplex<f64>>, tensor<5xcomplex<f64>>
}

// Real to complex: (x, +0); complex to real: the real part converts (to
// i32: truncated, saturated); complex<f64> to complex<f32>: part by part.
// CAST: result 0: tensor<4xcomplex<f64>>
// CAST-NEXT: [(-2.5+0j), (1+0j), (nan+0j), (-inf+0j)]
// CAST: result 1: tensor<4xi32>
// CAST-NEXT: [-2, 1, 0, -2147483648]
// CAST: result 2: tensor<4xcomplex<f32>>
// CAST-NEXT: [(-2.5+0j), (1+0j), (nan+0j), (-inf+0j)]
// CAST: result 3: tensor<4xf32>
// CAST-NEXT: [0, 0, 0, 0]
func.func @casts() -> (tensor<4xcomplex<f64>>, tensor<4xi32>, tensor<4xcomplex<f32>>, tensor<4xf32>) {
  %x = arith.constant dense<[-2.5, 1.0, 0x7FC0, 0xFF80]> : tensor<4xbf16>
  %0 = fuser.cast %x : tensor<4xbf16> to tensor<4xcomplex<f64>>
  %1 = fuser.cast %0 : tensor<4xcomplex<f64>> to tensor<4xi32>
  %2 = fuser.cast %0 : tensor<4xcomplex<f64>> to tensor<4xcomplex<f32>>
  %3 = fuser.imag %2 : tensor<4xcomplex<f32>>
  return %0, %1, %2, %3 : tensor<4xcomplex<f64>>, tensor<4xi32>, tensor<4xcomplex<f32>>, tensor<4xf32>
}

// z = [0+0j, -0+0j, 0+1j, inf+0j, nan+0j, 1-0j]
// PRED: result 0: tensor<6xi1>
// PRED-NEXT: [true, true, false, false, false, false]
// PRED: result 1: tensor<6xi1>
// PRED-NEXT: [true, true, true, false, false, true]
// PRED: result 2: tensor<6xi1>
// PRED-NEXT: [false, false, false, true, false, false]
// PRED: result 3: tensor<6xi1>
// PRED-NEXT: [false, false, false, false, true, false]
// PRED: result 4: tensor<6xi1>
// PRED-NEXT: [true, true, false, true, true, true]
// PRED: result 5: tensor<6xi1>
// PRED-NEXT: [true, true, false, false, false, false]
// PRED: result 6: tensor<6xi1>
// PRED-NEXT: [false, false, true, true, true, true]
func.func @predicates() -> (tensor<6xi1>, tensor<6xi1>, tensor<6xi1>, tensor<6xi1>, tensor<6xi1>, tensor<6xi1>, tensor<6xi1>) {
  %re = arith.constant dense<[0.0, -0.0, 0.0, 0x7F800000, 0x7FC00000, 1.0]> : tensor<6xf32>
  %im = arith.constant dense<[0.0, 0.0, 1.0, 0.0, 0.0, -0.0]> : tensor<6xf32>
  %z = fuser.complex %re, %im : tensor<6xf32>, tensor<6xf32> -> tensor<6xcomplex<f32>>
  %zero = arith.constant dense<0.0> : tensor<1xf32>
  %c0 = fuser.complex %zero, %zero : tensor<1xf32>, tensor<1xf32> -> tensor<1xcomplex<f32>>
  %0 = fuser.logical_not %z : tensor<6xcomplex<f32>> -> tensor<6xi1>
  %1 = fuser.isfinite %z : tensor<6xcomplex<f32>> -> tensor<6xi1>
  %2 = fuser.isinf %z : tensor<6xcomplex<f32>> -> tensor<6xi1>
  %3 = fuser.isnan %z : tensor<6xcomplex<f32>> -> tensor<6xi1>
  %4 = fuser.isreal %z : tensor<6xcomplex<f32>> -> tensor<6xi1>
  %5 = fuser.eq %z, %c0 : tensor<6xcomplex<f32>>, tensor<1xcomplex<f32>> -> tensor<6xi1>
  %6 = fuser.ne %z, %c0 : tensor<6xcomplex<f32>>, tensor<1xcomplex<f32>> -> tensor<6xi1>
  return %0, %1, %2, %3, %4, %5, %6 : tensor<6xi1>, tensor<6xi1>, tensor<6xi1>, tensor<6xi1>, tensor<6xi1>, tensor<6xi1>, tensor<6xi1>
}

// A sum of complex<f32> along rows, from (-0, -0): a row of zeros of
// either sign keeps the sign of their sum.
// SUM: result 0: tensor<3xcomplex<f32>>
// SUM-NEXT: [(6+3j), (-0-0j), (inf+nanj)]
func.func @sum() -> tensor<3xcomplex<f32>> {
  %re = arith.constant dense<[[1.0, 2.0, 3.0], [-0.0, -0.0, -0.0], [0x7F800000, 1.0, 2.0]]> : tensor<3x3xf32>
  %im = arith.constant dense<[[1.0, 1.0, 1.0], [-0.0, -0.0, -0.0], [0x7F800000, 0xFF800000, 0.0]]> : tensor<3x3xf32>
  %z = fuser.complex %re, %im : tensor<3x3xf32>, tensor<3x3xf32> -> tensor<3x3xcomplex<f32>>
  %s = fuser.reduction add %z [1] : tensor<3x3xcomplex<f32>> -> tensor<3xcomplex<f32>>
  return %s : tensor<3xcomplex<f32>>
}

// Meta ops move whole 16-byte complex<f64> elements (a strided copy once
// moved 8 bytes of each).
// META: result 0: tensor<2x2xcomplex<f64>>
// META-NEXT: {{\[\[}}(1+10j), (3+30j)], [(4+40j), (6+60j)]]
// META: result 1: tensor<3x2xcomplex<f64>>
// META-NEXT: {{\[\[}}(1+10j), (4+40j)], [(2+20j), (5+50j)], [(3+30j), (6+60j)]]
// META: result 2: tensor<2x4xcomplex<f64>>
// META-NEXT: {{\[\[}}(0+0j), (1+10j), (2+20j), (3+30j)], [(0+0j), (4+40j), (5+50j), (6+60j)]]
func.func @meta() -> (tensor<2x2xcomplex<f64>>, tensor<3x2xcomplex<f64>>, tensor<2x4xcomplex<f64>>) {
  %re = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf64>
  %im = arith.constant dense<[[10.0, 20.0, 30.0], [40.0, 50.0, 60.0]]> : tensor<2x3xf64>
  %z = fuser.complex %re, %im : tensor<2x3xf64>, tensor<2x3xf64> -> tensor<2x3xcomplex<f64>>
  %s = fuser.slice %z starts [0, 0] limits [2, 3] strides [1, 2] : tensor<2x3xcomplex<f64>> -> tensor<2x2xcomplex<f64>>
  %t = fuser.permute %z [1, 0] : tensor<2x3xcomplex<f64>> -> tensor<3x2xcomplex<f64>>
  %zero = arith.constant 0.0 : f64
  %c0 = fuser.complex %zero, %zero : f64, f64 -> complex<f64>
  %p = fuser.pad %z low [0, 1] high [0, 0] value %c0 : tensor<2x3xcomplex<f64>>, complex<f64> -> tensor<2x4xcomplex<f64>>
  return %s, %t, %p : tensor<2x2xcomplex<f64>>, tensor<3x2xcomplex<f64>>, tensor<2x4xcomplex<f64>>
}

// pow's cases: 0^2 is 0, z^0 is 1, 1^w is 1, and the general formula
// (2^3 = 8); an infinite base takes libc++'s e^(w log z): inf^2 is
// (inf, nan) (2 * (inf + 0i) is (inf, nan)), inf^-1 is 0. rsqrt(0) is
// (inf, nan); rsqrt(4) and rsqrt(inf), a zero or infinite part, are
// libc++'s 1 / sqrt(z): (0.5, +0) and (0, 0).
// POW: result 0: tensor<6xcomplex<f64>>
// POW-NEXT: [(0+0j), (1+0j), (1+0j), (inf+nanj), (0+0j), (8+0j)]
// POW: result 1: tensor<3xcomplex<f64>>
// POW-NEXT: [(inf+nanj), (0.5+0j), (0+0j)]
func.func @pow_rsqrt() -> (tensor<6xcomplex<f64>>, tensor<3xcomplex<f64>>) {
  %are = arith.constant dense<[0.0, 3.0, 1.0, 0x7FF0000000000000, 0x7FF0000000000000, 2.0]> : tensor<6xf64>
  %aim = arith.constant dense<[0.0, 4.0, 0.0, 0.0, 0.0, 0.0]> : tensor<6xf64>
  %bre = arith.constant dense<[2.0, 0.0, 5.0, 2.0, -1.0, 3.0]> : tensor<6xf64>
  %bim = arith.constant dense<[0.0, 0.0, 7.0, 0.0, 0.0, 0.0]> : tensor<6xf64>
  %a = fuser.complex %are, %aim : tensor<6xf64>, tensor<6xf64> -> tensor<6xcomplex<f64>>
  %b = fuser.complex %bre, %bim : tensor<6xf64>, tensor<6xf64> -> tensor<6xcomplex<f64>>
  %p = fuser.pow %a, %b : tensor<6xcomplex<f64>>, tensor<6xcomplex<f64>> -> tensor<6xcomplex<f64>>
  %rre = arith.constant dense<[0.0, 4.0, 0x7FF0000000000000]> : tensor<3xf64>
  %rim = arith.constant dense<[0.0, 0.0, 1.0]> : tensor<3xf64>
  %r = fuser.complex %rre, %rim : tensor<3xf64>, tensor<3xf64> -> tensor<3xcomplex<f64>>
  %q = fuser.rsqrt %r : tensor<3xcomplex<f64>>
  return %p, %q : tensor<6xcomplex<f64>>, tensor<3xcomplex<f64>>
}

// The functions nvFuser's runtime composes (libc++'s special cases, then
// its formula; the finite values agree with Python's cmath to a few ulp):
// z = [0+0j, 0.5+0.5j, -2+1j, inf+0j, 1+nanj] in f64.
// sinh
// FUNC: result 0: tensor<5xcomplex<f64>>
// FUNC-NEXT: [(0+0j), (0.4573041531842493+0.5406126857131534j), (-1.9596010414216063+3.165778513216168j), (inf+0j), (nan+nanj)]
// cosh
// FUNC: result 1: tensor<5xcomplex<f64>>
// FUNC-NEXT: [(1+0j), (0.9895848833999199+0.24982639750046154j), (2.0327230070196656-3.0518977991518j), (inf+0j), (nan+nanj)]
// asin
// FUNC: result 2: tensor<5xcomplex<f64>>
// FUNC-NEXT: [(0+0j), (0.4522784471511907+0.5306375309525178j), (-1.0634400235777526+1.4693517443681845j), (1.5707963267948966+infj), (nan+nanj)]
// acos
// FUNC: result 3: tensor<5xcomplex<f64>>
// FUNC-NEXT: [(1.5707963267948966-0j), (1.1185178796437059-0.5306375309525179j), (2.6342363503726487-1.4693517443681854j), (0-infj), (nan+nanj)]
// atan
// FUNC: result 4: tensor<5xcomplex<f64>>
// FUNC-NEXT: [(0+0j), (0.5535743588970452+0.4023594781085251j), (-1.1780972450961724+0.1732867951399863j), (1.5707963267948966+0j), (nan+nanj)]
// asinh
// FUNC: result 5: tensor<5xcomplex<f64>>
// FUNC-NEXT: [(0+0j), (0.5306375309525179+0.45227844715119064j), (-1.5285709194809995+0.4270785863924768j), (inf+0j), (nan+nanj)]
// acosh
// FUNC: result 6: tensor<5xcomplex<f64>>
// FUNC-NEXT: [(0+1.5707963267948966j), (0.5306375309525179+1.1185178796437059j), (1.4693517443681854+2.6342363503726487j), (inf+0j), (nan+nanj)]
// atanh
// FUNC: result 7: tensor<5xcomplex<f64>>
// FUNC-NEXT: [(0+0j), (0.4023594781085251+0.5535743588970452j), (-0.4023594781085251+1.3389725222944935j), (0+1.5707963267948966j), (nan+nanj)]
// log10
// FUNC: result 8: tensor<5xcomplex<f64>>
// FUNC-NEXT: [(-inf+0j), (-0.15051499783199054+0.3410940884604603j), (0.3494850021680094+1.1630167557051545j), (inf+0j), (nan+nanj)]
// log2
// FUNC: result 9: tensor<5xcomplex<f64>>
// FUNC-NEXT: [(-inf+0j), (-0.49999999999999994+1.1330900354567985j), (1.1609640474436813+3.8634580356017056j), (inf+0j), (nan+nanj)]
// sigmoid
// FUNC: result 10: tensor<5xcomplex<f64>>
// FUNC-NEXT: [(0.5+0j), (0.6299354402427704+0.11954505781459562j), (0.07851689757710839+0.09778865503296698j), (1+0j), (nan+nanj)]
func.func @functions() -> (tensor<5xcomplex<f64>>, tensor<5xcomplex<f64>>, tensor<5xcomplex<f64>>, tensor<5xcomplex<f64>>, tensor<5xcomplex<f64>>, tensor<5xcomplex<f64>>, tensor<5xcomplex<f64>>, tensor<5xcomplex<f64>>, tensor<5xcomplex<f64>>, tensor<5xcomplex<f64>>, tensor<5xcomplex<f64>>) {
  %re = arith.constant dense<[0.0, 0.5, -2.0, 0x7FF0000000000000, 1.0]> : tensor<5xf64>
  %im = arith.constant dense<[0.0, 0.5, 1.0, 0.0, 0x7FF8000000000000]> : tensor<5xf64>
  %z = fuser.complex %re, %im : tensor<5xf64>, tensor<5xf64> -> tensor<5xcomplex<f64>>
  %0 = fuser.sinh %z : tensor<5xcomplex<f64>>
  %1 = fuser.cosh %z : tensor<5xcomplex<f64>>
  %2 = fuser.asin %z : tensor<5xcomplex<f64>>
  %3 = fuser.acos %z : tensor<5xcomplex<f64>>
  %4 = fuser.atan %z : tensor<5xcomplex<f64>>
  %5 = fuser.asinh %z : tensor<5xcomplex<f64>>
  %6 = fuser.acosh %z : tensor<5xcomplex<f64>>
  %7 = fuser.atanh %z : tensor<5xcomplex<f64>>
  %8 = fuser.log10 %z : tensor<5xcomplex<f64>>
  %9 = fuser.log2 %z : tensor<5xcomplex<f64>>
  %10 = fuser.sigmoid %z : tensor<5xcomplex<f64>>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10 : tensor<5xcomplex<f64>>, tensor<5xcomplex<f64>>, tensor<5xcomplex<f64>>, tensor<5xcomplex<f64>>, tensor<5xcomplex<f64>>, tensor<5xcomplex<f64>>, tensor<5xcomplex<f64>>, tensor<5xcomplex<f64>>, tensor<5xcomplex<f64>>, tensor<5xcomplex<f64>>, tensor<5xcomplex<f64>>
}
