// `--backend cuda` where there is no driver: exit status 2 and the reason,
// for a run, --check-against (either side) and --bench. FUSER_CUDA_DRIVER
// names the library the runtime loads instead of libcuda.so.1, so these
// lines give the same result on a machine that has a GPU. Nothing here (or
// anywhere in this test suite) runs on a GPU.
// RUN: env FUSER_CUDA_DRIVER=/nonexistent/libcuda.so.1 %python %S/Inputs/expect-exit.py 2 fuser-run %s --backend cuda 2>&1 | FileCheck %s --check-prefix=NODRIVER
// RUN: env FUSER_CUDA_DRIVER=/nonexistent/libcuda.so.1 %python %S/Inputs/expect-exit.py 2 fuser-run %s --backend cuda --check-against interp 2>&1 | FileCheck %s --check-prefix=NODRIVER
// RUN: env FUSER_CUDA_DRIVER=/nonexistent/libcuda.so.1 %python %S/Inputs/expect-exit.py 2 fuser-run %s --backend cpu --check-against cuda 2>&1 | FileCheck %s --check-prefix=NODRIVER
// RUN: env FUSER_CUDA_DRIVER=/nonexistent/libcuda.so.1 %python %S/Inputs/expect-exit.py 2 fuser-run %s --backend cuda --bench 10 2>&1 | FileCheck %s --check-prefix=NODRIVER
// NODRIVER: fuser-run: backend cuda is not available: no CUDA driver found (/nonexistent/libcuda.so.1: cannot open shared object file
// NODRIVER-NOT: result

// The toolkit's stub libcuda.so (what linking against CUDA without a driver
// gets) has every entry point; its cuInit fails.
// RUN: env FUSER_CUDA_DRIVER=/usr/local/cuda/lib64/stubs/libcuda.so %python %S/Inputs/expect-exit.py 2 fuser-run %s --backend cuda 2>&1 | FileCheck %s --check-prefix=STUB
// STUB: fuser-run: backend cuda is not available: no CUDA driver found (cuInit failed: CUDA_ERROR_STUB_LIBRARY (34))

// A driver without devices (the recording fake of CUDAFakeDriver.cpp).
// RUN: env FUSER_CUDA_DRIVER=%fuser_obj_root/lib/libfuser_fake_cuda.so FUSER_FAKE_CUDA_DEVICES=0 FUSER_FAKE_CUDA_QUIET=1 %python %S/Inputs/expect-exit.py 2 fuser-run %s --backend cuda --bench 3 2>&1 | FileCheck %s --check-prefix=NODEVICE
// NODEVICE: fuser-run: backend cuda is not available: no CUDA device (cuDeviceGetCount found 0 devices)

// --bench times compiled kernels: not the interpreter's.
// RUN: %python %S/Inputs/expect-exit.py 2 fuser-run %s --backend interp --bench 3 2>&1 | FileCheck %s --check-prefix=BENCHINTERP
// BENCHINTERP: fuser-run: --bench times kernels: it needs --backend cuda or cpu

func.func @f(%a: tensor<4x8xf32>) -> tensor<4xf32> {
  %r = fuser.reduction add %a [1] : tensor<4x8xf32> -> tensor<4xf32>
  return %r : tensor<4xf32>
}
