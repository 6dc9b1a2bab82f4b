// PTX's float arithmetic gives the canonical NaN, the host's one of its
// operands' NaNs; SIMT gives the canonical one (HostModule.cpp,
// canonicalizeNaN). A row of NaNs of both signs, summed by a split inner
// reduction: the butterfly of the block's all-reduce adds the same NaNs in
// other orders on different lanes, and every lane of the first warp then
// stores "the" reduced value to the same shared word. With the host's NaNs
// those stores held different bits and the race check failed the launch
// (fuser-diff --backend simt, seed 766, once lanes folded pairwise).
// RUN: fuser-run %s --backend simt --check-against interp 2>&1 | FileCheck %s
// CHECK: check 0: {{.*}} ok
// CHECK: 0 errors
func.func @nan_sum(%x: tensor<512xf32>) -> tensor<f32> {
  %c = arith.constant 1.0 : f32
  %q = fuser.mul %x, %x : tensor<512xf32>, tensor<512xf32> -> tensor<512xf32>
  %p = fuser.add %q, %c : tensor<512xf32>, f32 -> tensor<512xf32>
  %y = fuser.neg %p : tensor<512xf32>
  %n = fuser.sqrt %y : tensor<512xf32>
  %m = fuser.neg %n : tensor<512xf32>
  %a = fuser.slice %n starts [0] limits [256] strides [1] : tensor<512xf32> -> tensor<256xf32>
  %b = fuser.slice %m starts [256] limits [512] strides [1] : tensor<512xf32> -> tensor<256xf32>
  %r = fuser.cat %a, %b dim 0 : tensor<256xf32>, tensor<256xf32> -> tensor<512xf32>
  %s = fuser.reduction add %r [0] : tensor<512xf32> -> tensor<f32>
  return %s : tensor<f32>
}
