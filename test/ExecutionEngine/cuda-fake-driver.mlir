// The CUDA runtime against a recording stand-in for libcuda.so.1
// (libfuser_fake_cuda.so, CUDAFakeDriver.cpp): device memory is host memory
// and kernels do not run, so this checks what the runtime asks of the driver
// (modules, kernel names found in the cubins, grids, blocks, kernel
// arguments in the bare-pointer convention, buffers, copies), not results.
// RUN: env FUSER_CUDA_DRIVER=%fuser_obj_root/lib/libfuser_fake_cuda.so fuser-run %s --backend cuda 2>&1 | FileCheck %s
// CHECK: fake-cuda: cuInit(0)
// CHECK: fake-cuda: cuModuleLoadData(ELF cubin)
// CHECK: fake-cuda: cuModuleLoadData(ELF cubin)
// CHECK: fake-cuda: cuModuleGetFunction(f_kernel) -> found
// CHECK: fake-cuda: cuModuleGetFunction(f_kernel) -> found
// Buffers: the input, then the four outputs (zeroed), then the upload.
// CHECK: fake-cuda: cuMemAlloc(128) -> #0
// CHECK: fake-cuda: cuMemAlloc(128) -> #1
// CHECK: fake-cuda: cuMemsetD8(#1+0, 0, 128)
// CHECK: fake-cuda: cuMemAlloc(128) -> #2
// CHECK: fake-cuda: cuMemAlloc(16) -> #3
// CHECK: fake-cuda: cuMemAlloc(128) -> #4
// CHECK: fake-cuda: cuMemcpyHtoD(#0+0, 128)
// The reduction kernel: input, %r, the scalar %s by value (-3.125 is
// 0xc0480000, its deterministic value), %q.
// CHECK: fake-cuda: cuLaunchKernel(f_kernel, grid=1x1x1, block=256x1x1, shared=0, args=[#0+0, #3+0, 0xc0480000, #4+0])
// The copy kernel of the strided alias %p (the input's base pointer; the
// transposed view is in the kernel's memref type).
// CHECK: fake-cuda: cuLaunchKernel(f_kernel, grid=1x1x1, block=32x1x1, shared=0, args=[#0+0, #1+0])
// The contiguous alias %v: a device-to-device copy.
// CHECK: fake-cuda: cuMemcpyDtoD(#2+0, #0+0, 128)
// CHECK: fake-cuda: cuCtxSynchronize
// CHECK: fake-cuda: cuMemcpyDtoH(#1+0, 128)
// CHECK: fake-cuda: cuMemcpyDtoH(#4+0, 128)
// CHECK: fake-cuda: cuMemFree(#4)
// CHECK: result 0: tensor<8x4xf32>

// The memcpy'd alias output is real data even with the fake: it matches the
// interpreter's result 1.
// RUN: fuser-run %s > %t.interp
// RUN: env FUSER_CUDA_DRIVER=%fuser_obj_root/lib/libfuser_fake_cuda.so FUSER_FAKE_CUDA_QUIET=1 fuser-run %s --backend cuda > %t.cuda
// RUN: cat %t.interp %t.cuda | FileCheck %s --check-prefix=ALIAS
// ALIAS: result 1: tensor<32xf32> fnv1a64=[[V:0x[0-9a-f]+]]
// ALIAS: result 1: tensor<32xf32> fnv1a64=[[V]]

// --bench with the fake: the report's form (the fake clock advances 1 us per
// event, so the figures mean nothing).
// RUN: env FUSER_CUDA_DRIVER=%fuser_obj_root/lib/libfuser_fake_cuda.so FUSER_FAKE_CUDA_QUIET=1 fuser-run %s --backend cuda --bench 2 | FileCheck %s --check-prefix=BENCH
// BENCH: bench: 'f' on fake CUDA device (no GPU, kernels do not run) (sm_90, 132 SMs, 60 MiB L2): 2 timed runs after 5 warm-up, L2 flushed (240 MiB memset) before each; CUDA events
// BENCH: bench: min_bytes from each kernel's distinct memref arguments;
// BENCH: kernel 0 f_kernel grid=1x1x1 block=256x1x1: min_bytes=272 median_us=
// BENCH: kernel 1 f_kernel grid=1x1x1 block=32x1x1: min_bytes=256 median_us=
// BENCH: memcpy 2 (128 bytes): min_bytes=256 median_us=
// BENCH: fusion f (2 kernels): min_bytes=
// BENCH-SAME: vs_copy=

// The Mistral example: one kernel, 2048 blocks of 256 threads, the 32 MiB
// input and the 8 MiB output; --bench takes its 40 MiB from FusionTraffic.
// RUN: env FUSER_CUDA_DRIVER=%fuser_obj_root/lib/libfuser_fake_cuda.so fuser-run %fuser_src_root/examples/mistral_rope_bwd.mlir --backend cuda 2>&1 | FileCheck %s --check-prefix=MISTRAL
// MISTRAL: fake-cuda: cuModuleGetFunction(mistral_rope_bwd_kernel) -> found
// MISTRAL: fake-cuda: cuMemAlloc(33554432) -> #0
// MISTRAL: fake-cuda: cuMemAlloc(8388608) -> #1
// MISTRAL: fake-cuda: cuLaunchKernel(mistral_rope_bwd_kernel, grid=2048x1x1, block=256x1x1, shared=0, args=[#0+0, #1+0])
// RUN: env FUSER_CUDA_DRIVER=%fuser_obj_root/lib/libfuser_fake_cuda.so FUSER_FAKE_CUDA_QUIET=1 fuser-run %fuser_src_root/examples/mistral_rope_bwd.mlir --backend cuda --bench 1 | FileCheck %s --check-prefix=MISTRALBENCH
// MISTRALBENCH: bench: min_bytes from FusionTraffic
// MISTRALBENCH: kernel 0 mistral_rope_bwd_kernel grid=2048x1x1 block=256x1x1: min_bytes=41943040
// MISTRALBENCH: fusion mistral_rope_bwd (1 kernels): min_bytes=41943040

func.func @f(%a: tensor<4x8xf32>, %s: f32) -> (tensor<8x4xf32>, tensor<32xf32>, tensor<4xf32>, tensor<8x4xf32>) {
  %p = fuser.permute %a [1, 0] : tensor<4x8xf32> -> tensor<8x4xf32>
  %v = fuser.view %a : tensor<4x8xf32> -> tensor<32xf32>
  %e = fuser.exp %a : tensor<4x8xf32>
  %r = fuser.reduction add %e [1] : tensor<4x8xf32> -> tensor<4xf32>
  %m = fuser.mul %e, %s : tensor<4x8xf32>, f32 -> tensor<4x8xf32>
  %q = fuser.permute %m [1, 0] : tensor<4x8xf32> -> tensor<8x4xf32>
  return %p, %v, %r, %q : tensor<8x4xf32>, tensor<32xf32>, tensor<4xf32>, tensor<8x4xf32>
}
