// RUN: fuser-opt %s --fuser-segment --fuser-schedule --fuser-segment-report -o /dev/null | FileCheck %s

// The segment report shows each scheduled kernel's launch geometry. (The
// unrelated pointwise output joins the reduction's kernel: rule 9.)
// CHECK: fusion @report: 1 kernel
// CHECK: segment #0 reduction
// CHECK-NEXT: kernel inner_reduction: grid 64 x 128 threads, 8 elements per access, 128 threads share each reduction output
// CHECK: fusion @alias_only: 0 kernels
// CHECK-NOT: kernel {{.*}}: grid
func.func @report(%x: tensor<64x1000xbf16>, %y: tensor<8xbf16>) -> (tensor<64xf32>, tensor<8xbf16>) {
  %0 = fuser.cast %x : tensor<64x1000xbf16> to tensor<64x1000xf32>
  %1 = fuser.reduction add %0 [1] : tensor<64x1000xf32> -> tensor<64xf32>
  %2 = fuser.neg %y : tensor<8xbf16>
  return %1, %2 : tensor<64xf32>, tensor<8xbf16>
}

func.func @alias_only(%x: tensor<4x4xf32>) -> tensor<16xf32> {
  %0 = fuser.view %x : tensor<4x4xf32> -> tensor<16xf32>
  return %0 : tensor<16xf32>
}
