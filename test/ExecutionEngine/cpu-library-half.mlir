// Library segments of bf16 and f16 operands on the CPU backend
// (lib/ExecutionEngine/LibraryCalls.cpp): bf16 gemms run as oneDNN matmul
// primitives on the operands as they lie where oneDNN loads
// (scripts/setup.sh installs it), else, and with FUSER_DNNL=none, as
// sgemm on operands widened to f32 in their own layout; f16 gemms always
// take sgemm. Each path is checked against the interpreter within nvFuser's
// matmul tolerance, on odd shapes, operands transposed by permutes, a
// sliced operand, broadcast batch dims, 1-D operands, a bias, K = 0 and
// M = 0.
// FUSER_MATMUL_LOG=1 prints the path each gemm took to stderr.
// RUN: fuser-run %s --entry bf16 --backend cpu --check-against interp | FileCheck %s --check-prefix=BF16
// RUN: env FUSER_DNNL=none fuser-run %s --entry bf16 --backend cpu --check-against interp | FileCheck %s --check-prefix=BF16
// RUN: fuser-run %s --entry f16 --backend cpu --check-against interp | FileCheck %s --check-prefix=F16
// RUN: fuser-run %s --entry bf16_empty --backend cpu --check-against interp --print-values | FileCheck %s --check-prefix=EMPTY
// RUN: env FUSER_DNNL=none fuser-run %s --entry bf16_empty --backend cpu --check-against interp --print-values | FileCheck %s --check-prefix=EMPTY
// RUN: fuser-run %s --entry long_k --backend cpu --check-against interp | FileCheck %s --check-prefix=LONGK
// RUN: env FUSER_DNNL=none fuser-run %s --entry long_k --backend cpu --check-against interp | FileCheck %s --check-prefix=LONGK
// The paths taken:
// RUN: env FUSER_DNNL=none FUSER_MATMUL_LOG=1 fuser-run %s --entry bf16 --backend cpu 2>&1 >/dev/null | FileCheck %s --check-prefix=NODNNL
// RUN: env FUSER_DNNL=/nonexistent/libdnnl.so.2 FUSER_MATMUL_LOG=1 fuser-run %s --entry bf16 --backend cpu 2>&1 >/dev/null | FileCheck %s --check-prefix=MISSING
// RUN: env FUSER_MATMUL_LOG=1 fuser-run %s --entry f16 --backend cpu 2>&1 >/dev/null | FileCheck %s --check-prefix=F16LOG
// RUN: %if onednn %{ env FUSER_MATMUL_LOG=1 fuser-run %s --entry bf16 --backend cpu 2>&1 >/dev/null | FileCheck %s --check-prefix=DNNL %}
// Both of oneDNN's C APIs (LibraryCalls.cpp binds 3.x's, else 2.x's), each
// where its library loads.
// RUN: %if onednn2 %{ env FUSER_DNNL=libdnnl.so.2 fuser-run %s --entry bf16 --backend cpu --check-against interp | FileCheck %s --check-prefix=BF16 %}
// RUN: %if onednn2 %{ env FUSER_DNNL=libdnnl.so.2 FUSER_MATMUL_LOG=1 fuser-run %s --entry bf16 --backend cpu 2>&1 >/dev/null | FileCheck %s --check-prefix=DNNL %}
// RUN: %if onednn3 %{ env FUSER_DNNL=libdnnl.so.3 fuser-run %s --entry bf16 --backend cpu --check-against interp | FileCheck %s --check-prefix=BF16 %}
// RUN: %if onednn3 %{ env FUSER_DNNL=libdnnl.so.3 FUSER_MATMUL_LOG=1 fuser-run %s --entry bf16 --backend cpu 2>&1 >/dev/null | FileCheck %s --check-prefix=DNNL %}

// BF16-NOT: FAILED
// BF16-COUNT-7: ok
// F16-NOT: FAILED
// F16-COUNT-7: ok
// LONGK: check 0: {{.*}}(nvFuser's matmul tolerance for 1024 summed elements){{.*}} ok

// Without oneDNN every bf16 gemm is an sgemm of widened operands.
// NODNNL-NOT: oneDNN brg
// NODNNL: fuser matmul: bf16 37x29x53 -> sgemm (operands widened to f32); oneDNN: oneDNN turned off ($FUSER_DNNL=none)
// MISSING: fuser matmul: bf16 37x29x53 -> sgemm (operands widened to f32); oneDNN: /nonexistent/libdnnl.so.2: cannot open shared object file
// F16LOG-NOT: oneDNN
// F16LOG: fuser matmul: f16 37x29x53 -> sgemm (operands widened to f32)
// With it, each of them is a primitive on the operands as they lie: a
// permuted operand is a transposed one, not a copy.
// DNNL-NOT: sgemm
// DNNL: fuser matmul: bf16 37x29x53 -> oneDNN {{.*}} (lhs N, rhs N)
// DNNL: fuser matmul: bf16 37x29x53 -> oneDNN {{.*}} (lhs T, rhs T)

// 0: odd; 1: both operands transposed; 2: a sliced lhs; 3: batch dims
// broadcast ([2, 1] against [3], four gemms); 4: a linear over [2, 3, 40]
// with a bias (one gemm, M = 6); 5: a row times a batch; 6: a dot product.
// (An operand broadcast inside the matrix, which the CUDA backend refuses
// and so the SIMT lit corpus cannot run, is python/tests/
// test_library_half_gemm.py's broadcast_k.)
func.func @bf16(%a: tensor<37x53xbf16>, %b: tensor<53x29xbf16>, %at: tensor<53x37xbf16>, %bt: tensor<29x53xbf16>, %big: tensor<45x53xbf16>, %ba: tensor<2x1x5x7xbf16>, %bb: tensor<3x7x4xbf16>, %x: tensor<2x3x40xbf16>, %w: tensor<24x40xbf16>, %bias: tensor<24xbf16>, %v: tensor<7xbf16>) -> (tensor<37x29xbf16>, tensor<37x29xbf16>, tensor<37x29xbf16>, tensor<2x3x5x4xbf16>, tensor<2x3x24xbf16>, tensor<3x4xbf16>, tensor<bf16>) {
  %0 = fuser.matmul %a, %b : tensor<37x53xbf16>, tensor<53x29xbf16> -> tensor<37x29xbf16>
  %ap = fuser.permute %at [1, 0] : tensor<53x37xbf16> -> tensor<37x53xbf16>
  %bp = fuser.permute %bt [1, 0] : tensor<29x53xbf16> -> tensor<53x29xbf16>
  %1 = fuser.matmul %ap, %bp : tensor<37x53xbf16>, tensor<53x29xbf16> -> tensor<37x29xbf16>
  %s = fuser.slice %big starts [3, 0] limits [40, 53] strides [1, 1] : tensor<45x53xbf16> -> tensor<37x53xbf16>
  %2 = fuser.matmul %s, %b : tensor<37x53xbf16>, tensor<53x29xbf16> -> tensor<37x29xbf16>
  %3 = fuser.matmul %ba, %bb : tensor<2x1x5x7xbf16>, tensor<3x7x4xbf16> -> tensor<2x3x5x4xbf16>
  %4 = fuser.linear %x, %w bias %bias : tensor<2x3x40xbf16>, tensor<24x40xbf16>, tensor<24xbf16> -> tensor<2x3x24xbf16>
  %5 = fuser.matmul %v, %bb : tensor<7xbf16>, tensor<3x7x4xbf16> -> tensor<3x4xbf16>
  %6 = fuser.matmul %v, %v : tensor<7xbf16>, tensor<7xbf16> -> tensor<bf16>
  return %0, %1, %2, %3, %4, %5, %6 : tensor<37x29xbf16>, tensor<37x29xbf16>, tensor<37x29xbf16>, tensor<2x3x5x4xbf16>, tensor<2x3x24xbf16>, tensor<3x4xbf16>, tensor<bf16>
}

// The same in f16.
func.func @f16(%a: tensor<37x53xf16>, %b: tensor<53x29xf16>, %at: tensor<53x37xf16>, %bt: tensor<29x53xf16>, %big: tensor<45x53xf16>, %ba: tensor<2x1x5x7xf16>, %bb: tensor<3x7x4xf16>, %x: tensor<2x3x40xf16>, %w: tensor<24x40xf16>, %bias: tensor<24xf16>, %v: tensor<7xf16>) -> (tensor<37x29xf16>, tensor<37x29xf16>, tensor<37x29xf16>, tensor<2x3x5x4xf16>, tensor<2x3x24xf16>, tensor<3x4xf16>, tensor<f16>) {
  %0 = fuser.matmul %a, %b : tensor<37x53xf16>, tensor<53x29xf16> -> tensor<37x29xf16>
  %ap = fuser.permute %at [1, 0] : tensor<53x37xf16> -> tensor<37x53xf16>
  %bp = fuser.permute %bt [1, 0] : tensor<29x53xf16> -> tensor<53x29xf16>
  %1 = fuser.matmul %ap, %bp : tensor<37x53xf16>, tensor<53x29xf16> -> tensor<37x29xf16>
  %s = fuser.slice %big starts [3, 0] limits [40, 53] strides [1, 1] : tensor<45x53xf16> -> tensor<37x53xf16>
  %2 = fuser.matmul %s, %b : tensor<37x53xf16>, tensor<53x29xf16> -> tensor<37x29xf16>
  %3 = fuser.matmul %ba, %bb : tensor<2x1x5x7xf16>, tensor<3x7x4xf16> -> tensor<2x3x5x4xf16>
  %4 = fuser.linear %x, %w bias %bias : tensor<2x3x40xf16>, tensor<24x40xf16>, tensor<24xf16> -> tensor<2x3x24xf16>
  %5 = fuser.matmul %v, %bb : tensor<7xf16>, tensor<3x7x4xf16> -> tensor<3x4xf16>
  %6 = fuser.matmul %v, %v : tensor<7xf16>, tensor<7xf16> -> tensor<f16>
  return %0, %1, %2, %3, %4, %5, %6 : tensor<37x29xf16>, tensor<37x29xf16>, tensor<37x29xf16>, tensor<2x3x5x4xf16>, tensor<2x3x24xf16>, tensor<3x4xf16>, tensor<f16>
}

// M = 0: nothing; K = 0: +0.0, or the bias (no gemm on either path).
// EMPTY: result 0: tensor<0x5xbf16>
// EMPTY: check 0: {{.*}} ok
// EMPTY: result 1: tensor<2x3xbf16>
// EMPTY-NEXT: {{\[\[}}0, 0, 0], [0, 0, 0]]
// EMPTY: check 1: {{.*}} ok
// EMPTY: result 2: tensor<2x3xbf16>
// EMPTY-NEXT: {{\[\[}}[[ROW:[-0-9., e]+]]], {{\[}}[[ROW]]]]
// EMPTY: check 2: {{.*}} ok
func.func @bf16_empty(%a: tensor<0x8xbf16>, %b: tensor<8x5xbf16>, %x: tensor<2x0xbf16>, %y: tensor<0x3xbf16>, %w: tensor<3x0xbf16>, %bias: tensor<3xbf16>) -> (tensor<0x5xbf16>, tensor<2x3xbf16>, tensor<2x3xbf16>) {
  %0 = fuser.matmul %a, %b : tensor<0x8xbf16>, tensor<8x5xbf16> -> tensor<0x5xbf16>
  %1 = fuser.matmul %x, %y : tensor<2x0xbf16>, tensor<0x3xbf16> -> tensor<2x3xbf16>
  %2 = fuser.linear %x, %w bias %bias : tensor<2x0xbf16>, tensor<3x0xbf16>, tensor<3xbf16> -> tensor<2x3xbf16>
  return %0, %1, %2 : tensor<0x5xbf16>, tensor<2x3xbf16>, tensor<2x3xbf16>
}

// A long K with rounding sums (scaled as in cpu-library.mlir's long_k):
// oneDNN's blocked f32 sums stay within nvFuser's tolerance of the
// interpreter's sequential ones.
func.func @long_k(%a: tensor<37x1024xbf16>, %b: tensor<29x1024xbf16>) -> tensor<37x29xbf16> {
  %c = arith.constant 0.05 : bf16
  %as = fuser.mul %a, %c : tensor<37x1024xbf16>, bf16 -> tensor<37x1024xbf16>
  %0 = fuser.linear %as, %b : tensor<37x1024xbf16>, tensor<29x1024xbf16> -> tensor<37x29xbf16>
  return %0 : tensor<37x29xbf16>
}
