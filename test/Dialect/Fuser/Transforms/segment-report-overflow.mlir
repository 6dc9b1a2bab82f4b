// RUN: fuser-opt --fuser-segment --fuser-segment-report %s -o /dev/null | FileCheck %s
// RUN: fuser-opt --fuser-segment --fuser-segment-graph %s -o /dev/null | FileCheck %s --check-prefix=DOT
//
// Byte counts that do not fit in 64 bits are reported as such, not wrapped:
// 2^61 f64 elements are 2^64 bytes, which wrapped to "0 bytes".

// CHECK:      fusion @huge: 1 kernel, 1 segment, reads more than 18446744073709551615 bytes, writes more than 18446744073709551615 bytes
// CHECK-NEXT:   segment #0 pointwise: reads more than 18446744073709551615 bytes, writes more than 18446744073709551615 bytes
// CHECK-NEXT:     in  %arg0: tensor<2305843009213693952xf64>, more than 18446744073709551615 bytes
// CHECK-NEXT:     out #0.0: tensor<2305843009213693952xf64>, more than 18446744073709551615 bytes -> return 0
// DOT: seg0 [shape=box, label="#0 pointwise\nreads > 16 EiB, writes > 16 EiB"];
func.func @huge(%x: tensor<2305843009213693952xf64>) -> tensor<2305843009213693952xf64> {
  %0 = fuser.neg %x : tensor<2305843009213693952xf64>
  return %0 : tensor<2305843009213693952xf64>
}

// Each count fits, their sum does not: two reads of 2^63 bytes.
// CHECK:      fusion @huge_sum: 1 kernel, 1 segment, reads more than 18446744073709551615 bytes, writes 9223372036854775808 bytes
// CHECK-NEXT:   segment #0 pointwise: reads more than 18446744073709551615 bytes, writes 9223372036854775808 bytes
// CHECK-NEXT:     in  %arg0: tensor<1152921504606846976xf64>, 9223372036854775808 bytes
// CHECK-NEXT:     in  %arg1: tensor<1152921504606846976xf64>, 9223372036854775808 bytes
func.func @huge_sum(%x: tensor<1152921504606846976xf64>, %y: tensor<1152921504606846976xf64>) -> tensor<1152921504606846976xf64> {
  %0 = fuser.add %x, %y : tensor<1152921504606846976xf64>, tensor<1152921504606846976xf64> -> tensor<1152921504606846976xf64>
  return %0 : tensor<1152921504606846976xf64>
}

// An empty tensor moves nothing, however large its other dims.
// CHECK:      fusion @empty_huge: 1 kernel, 1 segment, reads 0 bytes, writes 0 bytes
func.func @empty_huge(%x: tensor<0x4611686018427387904x8xf64>) -> tensor<0x4611686018427387904x8xf64> {
  %0 = fuser.neg %x : tensor<0x4611686018427387904x8xf64>
  return %0 : tensor<0x4611686018427387904x8xf64>
}
