// libfuser_simt_cuda.so is a drop-in for libcuda.so.1: with it, the cuda
// backend compiles for it in the offload format (it exports
// fuserSimtEmulator) and runs its whole launch plan (allocations, uploads,
// a row reduction and a tiled transpose, downloads) on the emulator.
// A cubin given to it is refused with a message, not run.
//
// RUN: env FUSER_CUDA_DRIVER=%fuser_obj_root/lib/libfuser_simt_cuda.so fuser-run %s --backend cuda --check-against interp | FileCheck %s
// CHECK-NOT: FAILED
// CHECK-COUNT-2: max_ulp=0 tolerance=0 ulp ok
//
// RUN: fuser-opt %s --fuser-segment --fuser-lower-to-nvvm=format=bin -o %t.cubin.mlir
// RUN: env FUSER_CUDA_DRIVER=%fuser_obj_root/lib/libfuser_simt_cuda.so not fuser-run %t.cubin.mlir --backend cuda 2>&1 | FileCheck %s --check-prefix=CUBIN
// CUBIN: simt: error: cannot load the module: the image is not LLVM bitcode in a wrapper header (the emulator runs gpu-module-to-binary{format=llvm}'s output; a cubin or PTX needs a GPU)
// CUBIN: error: could not load the kernels of 'sum_rows': cuModuleLoadData of @sum_rows_kernel (bin, sm_90, device sm_90) failed: CUDA_ERROR_INVALID_IMAGE (200)

func.func @sum_rows(%x: tensor<64x1000xf32>) -> (tensor<64xf32>, tensor<1000x64xf32>) {
  %0 = fuser.reduction add %x [1] : tensor<64x1000xf32> -> tensor<64xf32>
  %1 = fuser.permute %x [1, 0] : tensor<64x1000xf32> -> tensor<1000x64xf32>
  return %0, %1 : tensor<64xf32>, tensor<1000x64xf32>
}
