// Library segments (fuser.matmul, fuser.linear) on the CUDA backend's host
// side: the SIMT emulator runs the kernels, its fake cuBLASLt the gemms
// (lib/ExecutionEngine/Simt/BlasLt.cpp), which checks the descriptors,
// layouts, leading dimensions, transposes, batch strides, compute and scale
// types, workspace and alignment the runtime gives it
// (CUDALibraryCall.cpp), and computes from them alone, so a wrong layout is
// a wrong result. Checked against the interpreter within nvFuser's matmul
// tolerance, as on the CPU backend: cpu-library.mlir's fusions (odd
// shapes, permuted and sliced operands, broadcast batch dims, 1-D
// operands, empty dims, the four dtypes, a bf16 MLP, K = 1024), and here
// linears with bias between kernels in bf16 and f16, a batched f64 matmul
// of two permuted operands, a broadcast f16 batch and a linear whose weight
// is stored [K, N].
// RUN: fuser-run %S/cpu-library.mlir --entry odd --backend simt --check-against interp 2>&1 | FileCheck %s --check-prefix=OK1
// RUN: fuser-run %S/cpu-library.mlir --entry transposed --backend simt --check-against interp 2>&1 | FileCheck %s --check-prefix=OK2
// RUN: fuser-run %S/cpu-library.mlir --entry sliced --backend simt --check-against interp 2>&1 | FileCheck %s --check-prefix=OK1
// RUN: fuser-run %S/cpu-library.mlir --entry batch_broadcast --backend simt --check-against interp 2>&1 | FileCheck %s --check-prefix=OK2
// RUN: fuser-run %S/cpu-library.mlir --entry vectors --backend simt --check-against interp 2>&1 | FileCheck %s --check-prefix=OK3
// RUN: fuser-run %S/cpu-library.mlir --entry empty --backend simt --check-against interp --print-values | FileCheck %s --check-prefix=EMPTY
// RUN: fuser-run %S/cpu-library.mlir --entry dtypes --backend simt --check-against interp 2>&1 | FileCheck %s --check-prefix=OK4
// RUN: fuser-run %S/cpu-library.mlir --entry mlp_bf16 --backend simt --check-against interp 2>&1 | FileCheck %s --check-prefix=OK1
// RUN: fuser-run %S/cpu-library.mlir --entry linear_3d --backend simt --check-against interp 2>&1 | FileCheck %s --check-prefix=OK1
// RUN: fuser-run %S/cpu-library.mlir --entry long_k --backend simt --check-against interp --library-tolerance-scale 2 2>&1 | FileCheck %s --check-prefix=OK1
// RUN: fuser-run %S/cpu-library.mlir --entry permuted_reshape --backend simt --check-against interp 2>&1 | FileCheck %s --check-prefix=OK1
// RUN: fuser-run %s --entry linear_bias_bf16 --backend simt --check-against interp 2>&1 | FileCheck %s --check-prefix=OK1
// RUN: fuser-run %s --entry linear_bias_f16 --backend simt --check-against interp 2>&1 | FileCheck %s --check-prefix=OK1
// RUN: fuser-run %s --entry permuted_f64 --backend simt --check-against interp 2>&1 | FileCheck %s --check-prefix=OK1
// RUN: fuser-run %s --entry broadcast_f16 --backend simt --check-against interp 2>&1 | FileCheck %s --check-prefix=OK1
// RUN: fuser-run %s --entry weight_kn --backend simt --check-against interp 2>&1 | FileCheck %s --check-prefix=OK1
//
// The calls as the fake sees them (FUSER_SIMT_BLASLT_LOG=1): cuBLASLt's D
// is the result transposed (D = A B with A the rhs, B the lhs); a permuted
// operand is CUBLAS_OP_T with the permute's stride as leading dimension,
// not a copy; batch dims are BATCH_COUNT and strided offsets (0 where an
// operand broadcasts), an outer batch dim whose strides do not nest a loop
// of calls, and the rhs-broadcast batch of a linear part of M; a bias is
// the bias epilogue; the workspace is what the fake's heuristic asked.
// RUN: env FUSER_SIMT_BLASLT_LOG=1 fuser-run %S/cpu-library.mlir --entry transposed --backend simt 2>&1 | FileCheck %s --check-prefix=LOG-T
// RUN: env FUSER_SIMT_BLASLT_LOG=1 fuser-run %S/cpu-library.mlir --entry batch_broadcast --backend simt 2>&1 | FileCheck %s --check-prefix=LOG-B
// RUN: env FUSER_SIMT_BLASLT_LOG=1 fuser-run %s --entry linear_bias_bf16 --backend simt 2>&1 | FileCheck %s --check-prefix=LOG-BIAS
// RUN: env FUSER_SIMT_BLASLT_LOG=1 fuser-run %s --entry permuted_f64 --backend simt 2>&1 | FileCheck %s --check-prefix=LOG-F64
// RUN: env FUSER_SIMT_BLASLT_LOG=1 fuser-run %s --entry weight_kn --backend simt 2>&1 | FileCheck %s --check-prefix=LOG-KN
//
// Through dlopen: the SIMT drop-in driver exports the fake under cuBLASLt's
// names, and `--backend cuda` loads it from there (or from $FUSER_CUBLASLT);
// a cuBLASLt that is not there is an error naming what was tried.
// RUN: env FUSER_CUDA_DRIVER=%fuser_obj_root/lib/libfuser_simt_cuda.so fuser-run %s --entry linear_bias_bf16 --backend cuda --check-against interp 2>&1 | FileCheck %s --check-prefix=CUDA
// RUN: env FUSER_CUDA_DRIVER=%fuser_obj_root/lib/libfuser_simt_cuda.so FUSER_CUBLASLT=%fuser_obj_root/lib/libfuser_simt_cuda.so fuser-run %s --entry permuted_f64 --backend cuda --check-against interp 2>&1 | FileCheck %s --check-prefix=CUDA
// RUN: env FUSER_CUDA_DRIVER=%fuser_obj_root/lib/libfuser_simt_cuda.so FUSER_CUBLASLT=/nonexistent/libcublasLt.so.13 not fuser-run %s --entry weight_kn --backend cuda 2>&1 | FileCheck %s --check-prefix=NOLT
//
// The exported launch plan (--fuser-export-launch) states the library step
// with its descriptor; bench/gpu_bench.py, which has no cuBLASLt path,
// refuses it.
// RUN: rm -rf %t && mkdir -p %t
// RUN: fuser-opt %s --fuser-preseg --fuser-segment --fuser-lower-to-nvvm="chip=sm_90 format=isa" -o %t/lowered.mlir
// RUN: fuser-translate --fuser-export-launch --fuser-export-dir=%t --fuser-export-function=weight_kn %t/lowered.mlir -o %t/launch.json
// RUN: FileCheck %s --check-prefix=JSON < %t/launch.json
// RUN: not %python %fuser_src_root/bench/gpu_bench.py --launch %t/launch.json --self-check 2>&1 | FileCheck %s --check-prefix=BENCH
//
// What cuBLASLt cannot read in place is refused where it is, before
// anything runs (the CPU backend packs such operands).
// RUN: not fuser-run %s --entry strided_operand --backend simt 2>&1 | FileCheck %s --check-prefix=STRIDED
// RUN: not fuser-run %s --entry strided_bias --backend simt 2>&1 | FileCheck %s --check-prefix=BIASSTRIDE

// OK1-NOT: {{FAILED|error}}
// OK1: check 0: {{.*}}nvFuser's matmul tolerance{{.*}} ok
// OK1-NOT: {{FAILED|error}}
// OK1: simt: {{.*}} 0 errors
// OK2-NOT: {{FAILED|error}}
// OK2-COUNT-2: ok
// OK2: simt: {{.*}} 0 errors
// OK3-NOT: {{FAILED|error}}
// OK3-COUNT-3: ok
// OK3: simt: {{.*}} 0 errors
// OK4-NOT: {{FAILED|error}}
// OK4-COUNT-4: ok
// OK4: simt: {{.*}} 0 errors
// CUDA-NOT: {{FAILED|error}}
// CUDA: check 0: {{.*}}nvFuser's matmul tolerance{{.*}} ok
// K = 0: the result is zeroed, or a copy of the bias in each row.
// EMPTY: result 1: tensor<2x3xf32>
// EMPTY-NEXT: {{\[\[}}0, 0, 0], [0, 0, 0]]
// EMPTY: check 1: {{.*}} ok
// EMPTY: result 2: tensor<2x3xf32>
// EMPTY-NEXT: {{\[\[}}[[ROW:[-0-9., e]+]]], {{\[}}[[ROW]]]]
// EMPTY: check 2: {{.*}} ok
// LOG-T: simt: cublasLtMatmul m=29 n=37 k=53 type=0 compute=68 scale=0 A=53x29,ld=53,T B=37x53,ld=37,T D=29x37,ld=29 epilogue=default workspace=1048576
// LOG-T-NEXT: simt: cublasLtMatmul m=37 n=37 k=53 type=0 compute=68 scale=0 A=37x53,ld=37,N B=37x53,ld=37,T D=37x37,ld=37 epilogue=default
// [2, 1] x [3] batch dims: the inner 3 is cuBLASLt's batch (the lhs
// broadcasts it: stride 0), the outer 2 two calls; [4, 6] x 2-D is M = 24.
// LOG-B-COUNT-2: simt: cublasLtMatmul m=4 n=5 k=7 type=0 compute=68 scale=0 A=4x7,ld=4,N,batch=3/28 B=7x5,ld=7,N,batch=3/0 D=4x5,ld=4,batch=3/20 epilogue=default
// LOG-B-NEXT: simt: cublasLtMatmul m=9 n=24 k=7 {{.*}} A=9x7,ld=9,N B=7x24,ld=7,N D=9x24,ld=9 epilogue=default
// LOG-BIAS: simt: cublasLtMatmul m=29 n=15 k=37 type=14 compute=68 scale=0 A=37x29,ld=37,T B=37x15,ld=37,N D=29x15,ld=29 epilogue=bias
// LOG-F64: simt: cublasLtMatmul m=9 n=5 k=37 type=1 compute=70 scale=1 A=37x9,ld=37,T,batch=2/333 B=5x37,ld=5,T,batch=2/185 D=9x5,ld=9,batch=2/45 epilogue=default
// LOG-KN: simt: cublasLtMatmul m=11 n=6 k=13 type=0 compute=68 scale=0 A=11x13,ld=11,N B=13x6,ld=13,N D=11x6,ld=11 epilogue=bias
// JSON: {"op": "library", "function": "__fuser_matmul", "descriptor": [0, 6, 11, 13, {{.*}}], "buffers": [0, 1, 2, 3]}
// BENCH: gpu_bench: error: a library segment (__fuser_matmul): cuBLASLt calls are run by fuser-run --backend cuda
// NOLT: error: could not load the kernels of 'weight_kn': no cuBLASLt found for matmul/linear library segments {{.*}}/nonexistent/libcublasLt.so.13
// STRIDED: simt-library.mlir:[[# @LINE + 41]]:8: error: the CUDA backend cannot run this matmul with cuBLASLt: cuBLASLt cannot read the lhs (strides 40, 2) in place
// BIASSTRIDE: simt-library.mlir:[[# @LINE + 46]]:8: error: the CUDA backend cannot run this matmul with cuBLASLt: the bias has stride 2; cuBLASLt's bias epilogue reads a contiguous vector

// A linear between a producer kernel and a consumer kernel, with bias.
func.func @linear_bias_bf16(%x: tensor<3x5x37xbf16>, %w: tensor<29x37xbf16>, %b: tensor<29xbf16>) -> tensor<3x5x29xbf16> {
  %n = fuser.neg %x : tensor<3x5x37xbf16>
  %y = fuser.linear %n, %w bias %b : tensor<3x5x37xbf16>, tensor<29x37xbf16>, tensor<29xbf16> -> tensor<3x5x29xbf16>
  %r = fuser.relu %y : tensor<3x5x29xbf16>
  return %r : tensor<3x5x29xbf16>
}

func.func @linear_bias_f16(%x: tensor<7x37xf16>, %w: tensor<29x37xf16>, %b: tensor<29xf16>) -> tensor<7x29xf16> {
  %n = fuser.neg %x : tensor<7x37xf16>
  %y = fuser.linear %n, %w bias %b : tensor<7x37xf16>, tensor<29x37xf16>, tensor<29xf16> -> tensor<7x29xf16>
  return %y : tensor<7x29xf16>
}

// Both operands of a batched f64 matmul read through permutes.
func.func @permuted_f64(%a: tensor<2x37x5xf64>, %b: tensor<2x9x37xf64>) -> tensor<2x5x9xf64> {
  %at = fuser.permute %a [0, 2, 1] : tensor<2x37x5xf64> -> tensor<2x5x37xf64>
  %bt = fuser.permute %b [0, 2, 1] : tensor<2x9x37xf64> -> tensor<2x37x9xf64>
  %0 = fuser.matmul %at, %bt : tensor<2x5x37xf64>, tensor<2x37x9xf64> -> tensor<2x5x9xf64>
  return %0 : tensor<2x5x9xf64>
}

// [3, 1] against [4] batch dims in f16.
func.func @broadcast_f16(%a: tensor<3x1x6x11xf16>, %b: tensor<4x11x7xf16>) -> tensor<3x4x6x7xf16> {
  %0 = fuser.matmul %a, %b : tensor<3x1x6x11xf16>, tensor<4x11x7xf16> -> tensor<3x4x6x7xf16>
  return %0 : tensor<3x4x6x7xf16>
}

// A linear's weight stored [K, N] and permuted to [N, K]: read as it lies.
func.func @weight_kn(%x: tensor<6x13xf32>, %wt: tensor<13x11xf32>, %b: tensor<11xf32>) -> tensor<6x11xf32> {
  %w = fuser.permute %wt [1, 0] : tensor<13x11xf32> -> tensor<11x13xf32>
  %0 = fuser.linear %x, %w bias %b : tensor<6x13xf32>, tensor<11x13xf32>, tensor<11xf32> -> tensor<6x11xf32>
  return %0 : tensor<6x11xf32>
}

// Every other row and column: no unit stride.
func.func @strided_operand(%a: tensor<10x20xf32>, %b: tensor<10x3xf32>) -> tensor<5x3xf32> {
  %s = fuser.slice %a starts [0, 0] limits [10, 20] strides [2, 2] : tensor<10x20xf32> -> tensor<5x10xf32>
  %0 = fuser.matmul %s, %b : tensor<5x10xf32>, tensor<10x3xf32> -> tensor<5x3xf32>
  return %0 : tensor<5x3xf32>
}

func.func @strided_bias(%x: tensor<4x6xf32>, %w: tensor<5x6xf32>, %c: tensor<10xf32>) -> tensor<4x5xf32> {
  %b = fuser.slice %c starts [0] limits [10] strides [2] : tensor<10xf32> -> tensor<5xf32>
  %0 = fuser.linear %x, %w bias %b : tensor<4x6xf32>, tensor<5x6xf32>, tensor<5xf32> -> tensor<4x5xf32>
  return %0 : tensor<4x5xf32>
}
