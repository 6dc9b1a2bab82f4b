// What a kernel with an argsort may hold (the sort kinds have each element
// of the argsort only at its rank, and write its rows only), against the
// interpreter on the CPU backend and under SIMT:
// - @scan_of_sort: a scan along another dim reads the argsort's result
//   across its rows: a second kernel;
// - @padded_source: the argsort's source is a pad of a shorter tensor that
//   is also a result: the pad's operand is written by another kernel (a
//   kernel with an argsort computes values of its rows' shape only);
// - @one_element: an argsort of a [1, 1] row read through squeeze and
//   broadcast (its rank spelled as a constant 0, as unit dims are).
// RUN: fuser-opt %s --fuser-preseg --fuser-segment --fuser-segment-report -o /dev/null | FileCheck %s --check-prefix=SEGMENTS
// RUN: fuser-run %s --entry scan_of_sort --backend cpu --check-against interp --ulp-tolerance 0 | FileCheck %s --check-prefix=OK
// RUN: fuser-run %s --entry scan_of_sort --backend simt --check-against interp --ulp-tolerance 0 | FileCheck %s --check-prefix=OK
// RUN: fuser-run %s --entry padded_source --backend cpu --check-against interp --ulp-tolerance 0 | FileCheck %s --check-prefix=OK
// RUN: fuser-run %s --entry padded_source --backend simt --check-against interp --ulp-tolerance 0 | FileCheck %s --check-prefix=OK
// RUN: fuser-run %s --entry one_element --backend cpu --check-against interp --ulp-tolerance 0 | FileCheck %s --check-prefix=OK
// RUN: fuser-run %s --entry one_element --backend simt --check-against interp --ulp-tolerance 0 | FileCheck %s --check-prefix=OK

// OK-NOT: FAILED
// OK: ulp ok

// SEGMENTS: fusion @scan_of_sort: 2 kernels, 2 segments
// SEGMENTS: not one kernel with #1: not the rows of an argsort: it reads its argsort's result other than element by element
// SEGMENTS: fusion @padded_source: 2 kernels, 2 segments
// SEGMENTS: fusion @one_element: 1 kernel, 1 segment

func.func @scan_of_sort(%x: tensor<12x16x4xi64>) -> tensor<12x16x4xi64> {
  %s = fuser.argsort %x [1] descending : tensor<12x16x4xi64> -> tensor<12x16x4xi64>
  %m = fuser.scan min %s [2] : tensor<12x16x4xi64>
  return %m : tensor<12x16x4xi64>
}

func.func @padded_source(%x: tensor<6xf64>) -> (tensor<6xbf16>, tensor<7xi64>) {
  %h = fuser.cast %x : tensor<6xf64> to tensor<6xbf16>
  %w = fuser.cast %h : tensor<6xbf16> to tensor<6xf64>
  %v = arith.constant 7.625 : f64
  %p = fuser.pad %w low [0] high [1] value %v : tensor<6xf64>, f64 -> tensor<7xf64>
  %s = fuser.argsort %p [0] : tensor<7xf64> -> tensor<7xi64>
  return %h, %s : tensor<6xbf16>, tensor<7xi64>
}

func.func @one_element(%x: tensor<bf16>) -> (tensor<1x1xi64>, tensor<1x1xf32>) {
  %b = fuser.broadcast %x [0, 1] : tensor<bf16> -> tensor<1x1xbf16>
  %s = fuser.argsort %b [0] : tensor<1x1xbf16> -> tensor<1x1xi64>
  %q = fuser.squeeze %s [0, 1] : tensor<1x1xi64> -> tensor<i64>
  %f = fuser.cast %q : tensor<i64> to tensor<f32>
  %r = fuser.broadcast %f [0, 1] : tensor<f32> -> tensor<1x1xf32>
  return %s, %r : tensor<1x1xi64>, tensor<1x1xf32>
}
