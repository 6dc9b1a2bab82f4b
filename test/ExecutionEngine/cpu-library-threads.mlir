// Library calls take their run's threads (lib/ExecutionEngine/
// LibraryCalls.cpp): OpenBLAS's sgemm/dgemm through
// openblas_set_num_threads, oneDNN's bf16 primitive through its OpenMP
// runtime, as fuser-run --num-threads or FUSER_MLIR_NUM_THREADS ask. The
// log line ends with the count each library reports. The default (every
// core) is what OpenBLAS and OpenMP take by themselves, so the one-thread
// runs show that the request reaches them; the results stay within
// nvFuser's tolerance on either count.
// RUN: env FUSER_MATMUL_LOG=1 fuser-run %s --entry f32 --backend cpu --num-threads 1 2>&1 >/dev/null | FileCheck %s --check-prefix=ONE
// RUN: env FUSER_MATMUL_LOG=1 FUSER_MLIR_NUM_THREADS=1 fuser-run %s --entry f32 --backend cpu 2>&1 >/dev/null | FileCheck %s --check-prefix=ONE
// RUN: env FUSER_MATMUL_LOG=1 FUSER_DNNL=none fuser-run %s --entry bf16 --backend cpu --num-threads 1 2>&1 >/dev/null | FileCheck %s --check-prefix=WIDENED
// RUN: %if onednn %{ env FUSER_MATMUL_LOG=1 fuser-run %s --entry bf16 --backend cpu --num-threads 1 2>&1 >/dev/null | FileCheck %s --check-prefix=DNNL %}
// RUN: fuser-run %s --entry f32 --backend cpu --num-threads 1 --check-against interp | FileCheck %s --check-prefix=OK
// RUN: fuser-run %s --entry bf16 --backend cpu --num-threads 1 --check-against interp | FileCheck %s --check-prefix=OK
// RUN: fuser-run %s --entry bf16 --backend cpu --num-threads 2 --check-against interp | FileCheck %s --check-prefix=OK

// ONE: fuser matmul: f32 64x48x96 -> sgemm; 1 threads
// ONE: fuser matmul: f64 64x48x96 -> dgemm; 1 threads
// WIDENED: fuser matmul: bf16 64x48x96 -> sgemm (operands widened to f32); oneDNN: {{.*}}; 1 threads
// DNNL: fuser matmul: bf16 64x48x96 -> oneDNN {{.*}} (lhs N, rhs N); 1 threads
// OK-NOT: FAILED
// OK: ok

func.func @f32(%a: tensor<64x96xf32>, %b: tensor<96x48xf32>, %c: tensor<64x96xf64>, %d: tensor<96x48xf64>) -> (tensor<64x48xf32>, tensor<64x48xf64>) {
  %0 = fuser.matmul %a, %b : tensor<64x96xf32>, tensor<96x48xf32> -> tensor<64x48xf32>
  %1 = fuser.matmul %c, %d : tensor<64x96xf64>, tensor<96x48xf64> -> tensor<64x48xf64>
  return %0, %1 : tensor<64x48xf32>, tensor<64x48xf64>
}

func.func @bf16(%a: tensor<64x96xbf16>, %b: tensor<96x48xbf16>) -> tensor<64x48xbf16> {
  %0 = fuser.matmul %a, %b : tensor<64x96xbf16>, tensor<96x48xbf16> -> tensor<64x48xbf16>
  return %0 : tensor<64x48xbf16>
}
