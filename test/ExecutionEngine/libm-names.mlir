// Fusions named like the libm functions their kernels call: the CPU
// backend's JIT bound the kernels' call of `exp` to the host function @exp
// itself, which recursed until the stack overflowed. Host functions now have
// a name of their own in the JIT.
// RUN: fuser-run %s --entry exp --backend cpu --check-against interp | FileCheck %s
// RUN: fuser-run %s --entry sin --backend cpu --check-against interp | FileCheck %s
// RUN: fuser-run %s --entry expf --backend cpu --check-against interp | FileCheck %s
// CHECK: check 0: {{.*}} ulp ok

func.func @exp(%x: tensor<4xf64>) -> tensor<4xf64> {
  %0 = fuser.exp %x : tensor<4xf64>
  return %0 : tensor<4xf64>
}

func.func @sin(%x: tensor<4xf64>) -> tensor<4xf64> {
  %0 = fuser.sin %x : tensor<4xf64>
  return %0 : tensor<4xf64>
}

func.func @expf(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = fuser.exp %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}
