// Tensors with a zero extent on the CPU backend: every kind of kernel
// (pointwise, inner/outer reductions including those a split schedule would
// take, inner and outer normalizations, copies/transposes, aliases,
// cat/pad/slice) against the interpreter, bit for bit (docs/Lowering.md,
// "Tensors without elements"). A kernel without output elements launches
// nothing; an empty input is never read; an empty reduced axis gives the
// identity (-0.0 for a float sum, -inf for max, INT_MAX for an integer min).
//
// RUN: fuser-run %S/Inputs/zero-size.mlir --entry pointwise --backend cpu --check-against interp | FileCheck %s --check-prefix=EXACT --implicit-check-not='{{max_ulp=[1-9]|FAILED}}'
// RUN: fuser-run %S/Inputs/zero-size.mlir --entry outer_empty_outputs --backend cpu --check-against interp | FileCheck %s --check-prefix=EXACT --implicit-check-not='{{max_ulp=[1-9]|FAILED}}'
// RUN: fuser-run %S/Inputs/zero-size.mlir --entry inner_split_no_outputs --backend cpu --check-against interp | FileCheck %s --check-prefix=EXACT --implicit-check-not='{{max_ulp=[1-9]|FAILED}}'
// RUN: fuser-run %S/Inputs/zero-size.mlir --entry outer_split_no_outputs --backend cpu --check-against interp | FileCheck %s --check-prefix=EXACT --implicit-check-not='{{max_ulp=[1-9]|FAILED}}'
// RUN: fuser-run %S/Inputs/zero-size.mlir --entry inner_empty_axis --backend cpu --check-against interp | FileCheck %s --check-prefix=EXACT4 --implicit-check-not='{{max_ulp=[1-9]|FAILED}}'
// RUN: fuser-run %S/Inputs/zero-size.mlir --entry outer_empty_axis --backend cpu --check-against interp | FileCheck %s --check-prefix=EXACT --implicit-check-not='{{max_ulp=[1-9]|FAILED}}'
// RUN: fuser-run %S/Inputs/zero-size.mlir --entry rmsnorm_no_rows --backend cpu --check-against interp | FileCheck %s --check-prefix=EXACT --implicit-check-not='{{max_ulp=[1-9]|FAILED}}'
// RUN: fuser-run %S/Inputs/zero-size.mlir --entry rmsnorm_empty_rows --backend cpu --check-against interp | FileCheck %s --check-prefix=EXACT --implicit-check-not='{{max_ulp=[1-9]|FAILED}}'
// RUN: fuser-run %S/Inputs/zero-size.mlir --entry softmax_empty_rows --backend cpu --check-against interp | FileCheck %s --check-prefix=EXACT --implicit-check-not='{{max_ulp=[1-9]|FAILED}}'
// RUN: fuser-run %S/Inputs/zero-size.mlir --entry batchnorm_no_rows --backend cpu --check-against interp | FileCheck %s --check-prefix=EXACT --implicit-check-not='{{max_ulp=[1-9]|FAILED}}'
// RUN: fuser-run %S/Inputs/zero-size.mlir --entry colmean_no_columns --backend cpu --check-against interp | FileCheck %s --check-prefix=EXACT --implicit-check-not='{{max_ulp=[1-9]|FAILED}}'
// RUN: fuser-run %S/Inputs/zero-size.mlir --entry transpose --backend cpu --check-against interp | FileCheck %s --check-prefix=EXACT --implicit-check-not='{{max_ulp=[1-9]|FAILED}}'
// RUN: fuser-run %S/Inputs/zero-size.mlir --entry alias --backend cpu --check-against interp | FileCheck %s --check-prefix=EXACT --implicit-check-not='{{max_ulp=[1-9]|FAILED}}'
// RUN: fuser-run %S/Inputs/zero-size.mlir --entry cat_pad_slice --backend cpu --check-against interp | FileCheck %s --check-prefix=EXACT4 --implicit-check-not='{{max_ulp=[1-9]|FAILED}}'
// The hand-made normalization segments (fuser-segment makes reduction
// kernels of the ones above): inner with no rows, with empty rows (a saved
// rstd of 1, a saved max of -inf), outer with no reduced rows (a mean and
// rstd per column from the empty sums) and with no columns.
// RUN: fuser-run %S/Inputs/zero-size-segmented.mlir --entry rmsnorm_no_rows --backend cpu --check-against interp | FileCheck %s --check-prefix=EXACT --implicit-check-not='{{max_ulp=[1-9]|FAILED}}'
// RUN: fuser-run %S/Inputs/zero-size-segmented.mlir --entry rmsnorm_empty_rows --backend cpu --check-against interp | FileCheck %s --check-prefix=EXACT --implicit-check-not='{{max_ulp=[1-9]|FAILED}}'
// RUN: fuser-run %S/Inputs/zero-size-segmented.mlir --entry softmax_empty_rows --backend cpu --check-against interp | FileCheck %s --check-prefix=EXACT --implicit-check-not='{{max_ulp=[1-9]|FAILED}}'
// RUN: fuser-run %S/Inputs/zero-size-segmented.mlir --entry batchnorm_no_rows --backend cpu --check-against interp | FileCheck %s --check-prefix=EXACT --implicit-check-not='{{max_ulp=[1-9]|FAILED}}'
// RUN: fuser-run %S/Inputs/zero-size-segmented.mlir --entry colmean_no_columns --backend cpu --check-against interp | FileCheck %s --check-prefix=EXACT --implicit-check-not='{{max_ulp=[1-9]|FAILED}}'
// An empty intermediate between two kernels; split reductions beside an
// empty output (the sums of exact values are exact in any order).
// RUN: fuser-run %S/Inputs/zero-size-segmented.mlir --entry intermediate --backend cpu --check-against interp | FileCheck %s --check-prefix=EXACT --implicit-check-not='{{max_ulp=[1-9]|FAILED}}'
// RUN: fuser-run %S/Inputs/zero-size-segmented.mlir --entry split_beside --backend cpu --check-against interp | FileCheck %s --check-prefix=EXACT --implicit-check-not='{{max_ulp=[1-9]|FAILED}}'
// RUN: fuser-run %S/Inputs/zero-size-segmented.mlir --entry tiled_beside --backend cpu --check-against interp | FileCheck %s --check-prefix=EXACT --implicit-check-not='{{max_ulp=[1-9]|FAILED}}'
// EXACT: check 0: max_abs_err=0 max_ulp=0 {{.*}} ok
// EXACT4: check 0: max_abs_err=0 max_ulp=0 {{.*}} ok
// EXACT4: check 1: max_abs_err=0 max_ulp=0 {{.*}} ok
// EXACT4: check 2: max_abs_err=0 max_ulp=0 {{.*}} ok
// EXACT4: check 3: max_abs_err=0 max_ulp=0 {{.*}} ok

// The values the kernels write: identities over empty axes, padding over an
// empty source, the pieces of a cat with empty pieces.
// RUN: fuser-run %S/Inputs/zero-size.mlir --entry inner_empty_axis --backend cpu --print-values | FileCheck %s --check-prefix=IDENTITY
// IDENTITY: result 0: tensor<5xf32>
// IDENTITY-NEXT: [-0, -0, -0, -0, -0]
// IDENTITY-NEXT: result 1: tensor<5x0xf32> fnv1a64=0xcbf29ce484222325
// IDENTITY-NEXT: {{\[\[\], \[\], \[\], \[\], \[\]\]}}
// IDENTITY-NEXT: result 2: tensor<5x1xf32>
// IDENTITY-NEXT: {{\[\[}}-inf], [-inf], [-inf], [-inf], [-inf]]
// IDENTITY-NEXT: result 3: tensor<3xi32>
// IDENTITY-NEXT: [2147483647, 2147483647, 2147483647]
// RUN: fuser-run %S/Inputs/zero-size.mlir --entry cat_pad_slice --backend cpu --print-values | FileCheck %s --check-prefix=CAT
// CAT: result 0: tensor<4x6xf32>
// CAT-NEXT: {{\[\[}}-3.125, -1.25, 6.5, -3.125, -1.25, 6.5],
// CAT-NEXT: result 1: tensor<4x3xf32>
// CAT-NEXT: {{\[\[}}2.5, 2.5, 2.5], [2.5, 2.5, 2.5], [2.5, 2.5, 2.5], [2.5, 2.5, 2.5]]

// The memory report: a fusion without kernels moves nothing, which is its
// minimum (1.000x, not a division by zero); a kernel reading no input
// element loads 0 of a minimum of 0 bytes.
// RUN: fuser-run %S/Inputs/zero-size.mlir --entry alias --backend cpu --memory-report | FileCheck %s --check-prefix=REPORT0
// RUN: fuser-run %S/Inputs/zero-size.mlir --entry pointwise --backend cpu --memory-report | FileCheck %s --check-prefix=REPORT0
// RUN: fuser-run %S/Inputs/zero-size-segmented.mlir --entry colmean_no_columns --backend cpu --memory-report | FileCheck %s --check-prefix=REPORT0
// REPORT0-NOT: kernel 0
// REPORT0: fusion: 0 kernel(s), moved 0 bytes, minimum 0 (1.000x)
// RUN: fuser-run %S/Inputs/zero-size.mlir --entry outer_empty_axis --backend cpu --memory-report --cuda-toolkit=%t.none | FileCheck %s --check-prefix=REPORT1
// REPORT1: kernel 0: {{.*}} (loops)
// REPORT1: loaded: 0 bytes (minimum 0, 1.000x)
// REPORT1: stored: 80 bytes (minimum 80, 1.000x)
// REPORT1: load sectors: 0 touched, 0 fewest, efficiency 1.000
// REPORT1: fusion: 1 kernel(s), moved 80 bytes, minimum 80 (1.000x)
// RUN: fuser-run %S/Inputs/zero-size.mlir --entry alias --backend cpu --memory-report --json | FileCheck %s --check-prefix=JSON
// JSON: "kernels": [
// JSON-NEXT: ],
// JSON-NEXT: "memcpy_bytes": 0, "moved_bytes": 0, "fusion_min_bytes": 0

// The CUDA runtime against the recording stand-in for libcuda.so.1, which
// refuses a zero grid and a 0-byte allocation as the driver does: a fusion
// without output elements launches nothing, and no empty buffer is zeroed
// or uploaded (kernels do not run in the stand-in, so no results).
// RUN: env FUSER_CUDA_DRIVER=%fuser_obj_root/lib/libfuser_fake_cuda.so fuser-run %S/Inputs/zero-size.mlir --entry pointwise --backend cuda 2>&1 | FileCheck %s --check-prefix=CUDA0 --implicit-check-not=cuLaunchKernel --implicit-check-not=cuMemsetD8 --implicit-check-not=cuMemcpy
// CUDA0: fake-cuda: cuMemAlloc(1) -> #0
// CUDA0: fake-cuda: cuMemAlloc(1) -> #1
// CUDA0: fake-cuda: cuCtxSynchronize
// CUDA0: result 0: tensor<4x0xf32> fnv1a64=0xcbf29ce484222325
// RUN: env FUSER_CUDA_DRIVER=%fuser_obj_root/lib/libfuser_fake_cuda.so fuser-run %S/Inputs/zero-size.mlir --entry inner_empty_axis --backend cuda 2>&1 | FileCheck %s --check-prefix=CUDA1 --implicit-check-not='cuMemsetD8(#{{[013]}}' --implicit-check-not='cuMemcpyHtoD'
// The kernels take the non-empty outputs only (#2, #4; #5).
// CUDA1: fake-cuda: cuLaunchKernel(inner_empty_axis_kernel, grid=1x1x1, block=256x1x1, shared=0, args=[#2+0, #4+0])
// CUDA1: fake-cuda: cuLaunchKernel(inner_empty_axis_kernel, grid=1x1x1, block=256x1x1, shared=0, args=[#5+0])
// CUDA1-NOT: cuLaunchKernel
// CUDA1: fake-cuda: cuCtxSynchronize
