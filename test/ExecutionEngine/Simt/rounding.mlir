// fuser.round, trunc, frac, floor and ceil on the GPU path, run under the
// SIMT emulator against the interpreter, bit for bit. trunc and frac did not
// lower for the GPU at all (math.trunc has no libdevice call in
// convert-gpu-to-nvvm; the pipeline now runs convert-math-to-llvm after it),
// and nvvm.round is cvt.rni, ties to even.
//
// RUN: fuser-opt %s --fuser-segment --fuser-lower-to-nvvm=format=isa | FileCheck %s --check-prefix=PTX
// RUN: fuser-run %s --entry rounding_f32 --backend simt --check-against interp | FileCheck %s
// RUN: fuser-run %s --entry rounding_f64 --backend simt --check-against interp | FileCheck %s
// CHECK-NOT: FAILED
// CHECK-COUNT-5: max_ulp=0 tolerance=0 ulp ok

// PTX-LABEL: gpu.binary @rounding_f32_kernel
// PTX: cvt.rzi.f32.f32
// PTX-LABEL: gpu.binary @rounding_f64_kernel
// PTX: cvt.rzi.f64.f64

func.func @rounding_f32(%x: tensor<4x256xf32>) -> (tensor<4x256xf32>, tensor<4x256xf32>, tensor<4x256xf32>, tensor<4x256xf32>, tensor<4x256xf32>) {
  %s = arith.constant 7.5 : f32
  %y = fuser.mul %x, %s : tensor<4x256xf32>, f32 -> tensor<4x256xf32>
  %0 = fuser.round %y : tensor<4x256xf32>
  %1 = fuser.trunc %y : tensor<4x256xf32>
  %2 = fuser.frac %y : tensor<4x256xf32>
  %3 = fuser.floor %y : tensor<4x256xf32>
  %4 = fuser.ceil %y : tensor<4x256xf32>
  return %0, %1, %2, %3, %4 : tensor<4x256xf32>, tensor<4x256xf32>, tensor<4x256xf32>, tensor<4x256xf32>, tensor<4x256xf32>
}

func.func @rounding_f64(%x: tensor<4x256xf64>) -> (tensor<4x256xf64>, tensor<4x256xf64>, tensor<4x256xf64>, tensor<4x256xf64>, tensor<4x256xf64>) {
  %s = arith.constant 7.5 : f64
  %y = fuser.mul %x, %s : tensor<4x256xf64>, f64 -> tensor<4x256xf64>
  %0 = fuser.round %y : tensor<4x256xf64>
  %1 = fuser.trunc %y : tensor<4x256xf64>
  %2 = fuser.frac %y : tensor<4x256xf64>
  %3 = fuser.floor %y : tensor<4x256xf64>
  %4 = fuser.ceil %y : tensor<4x256xf64>
  return %0, %1, %2, %3, %4 : tensor<4x256xf64>, tensor<4x256xf64>, tensor<4x256xf64>, tensor<4x256xf64>, tensor<4x256xf64>
}
