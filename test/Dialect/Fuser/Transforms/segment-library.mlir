// RUN: fuser-opt %s --fuser-segment | FileCheck %s
// RUN: fuser-opt %s --fuser-segment --fuser-schedule | FileCheck %s --check-prefix=SCHEDULE

// A library op (matmul, linear) is a `library` segment of its own, as
// nvFuser's ExprEval segments: one call computes it. Its operands may be
// views of the segment's inputs (a transpose of a fusion input is a layout
// the call reads); pointwise producers and consumers fuse with each other
// in the neighbouring kernels, never into the call.

// A linear between pointwise producers and consumers: three segments.
// CHECK-LABEL: func.func @linear_between_pointwise
// CHECK: %[[P:.*]] = fuser.segment pointwise
// CHECK: fuser.mul
// CHECK: fuser.cast
// CHECK: %[[L:.*]] = fuser.segment library(%[[P]], %{{.*}}, %{{.*}})
// CHECK-NEXT: ^bb0
// CHECK-NEXT: fuser.linear
// CHECK-NEXT: fuser.yield
// CHECK: fuser.segment pointwise(%[[L]])
// CHECK: fuser.silu
// CHECK: fuser.mul
// fuser-schedule schedules the kernels, not the call.
// SCHEDULE-LABEL: func.func @linear_between_pointwise
// SCHEDULE: fuser.segment pointwise(%{{.*}}) {schedule = #fuser.schedule<
// SCHEDULE: fuser.segment library(%{{.*}}) : (
// SCHEDULE: fuser.segment pointwise(%{{.*}}) {schedule = #fuser.schedule<
func.func @linear_between_pointwise(%x: tensor<4x8xf32>, %w: tensor<16x8xbf16>, %b: tensor<16xbf16>) -> tensor<4x16xbf16> {
  %s = arith.constant 2.0 : f32
  %m = fuser.mul %x, %s : tensor<4x8xf32>, f32 -> tensor<4x8xf32>
  %h = fuser.cast %m : tensor<4x8xf32> to tensor<4x8xbf16>
  %y = fuser.linear %h, %w bias %b : tensor<4x8xbf16>, tensor<16x8xbf16>, tensor<16xbf16> -> tensor<4x16xbf16>
  %f = fuser.cast %y : tensor<4x16xbf16> to tensor<4x16xf32>
  %g = fuser.silu %f : tensor<4x16xf32>
  %z = fuser.mul %g, %f : tensor<4x16xf32>, tensor<4x16xf32> -> tensor<4x16xf32>
  %o = fuser.cast %z : tensor<4x16xf32> to tensor<4x16xbf16>
  return %o : tensor<4x16xbf16>
}

// A transpose of a fusion input is read by the call (the permute is in the
// library segment); two matmuls are two segments, never one.
// CHECK-LABEL: func.func @views_and_two_calls
// CHECK: %[[A:.*]] = fuser.segment library(%{{.*}}, %{{.*}})
// CHECK-NEXT: ^bb0
// CHECK-NEXT: fuser.permute
// CHECK-NEXT: fuser.matmul
// CHECK-NEXT: fuser.yield
// CHECK: fuser.segment library(%[[A]], %{{.*}})
// CHECK-NEXT: ^bb0
// CHECK-NEXT: fuser.matmul
// CHECK-NEXT: fuser.yield
// CHECK-NOT: fuser.segment
func.func @views_and_two_calls(%a: tensor<8x4xf32>, %b: tensor<8x5xf32>, %c: tensor<5x6xf32>) -> tensor<4x6xf32> {
  %t = fuser.permute %a [1, 0] : tensor<8x4xf32> -> tensor<4x8xf32>
  %0 = fuser.matmul %t, %b : tensor<4x8xf32>, tensor<8x5xf32> -> tensor<4x5xf32>
  %1 = fuser.matmul %0, %c : tensor<4x5xf32>, tensor<5x6xf32> -> tensor<4x6xf32>
  return %1 : tensor<4x6xf32>
}

// Independent calls are not packed into one segment (the library
// template takes one library op), nor is an independent pointwise op packed
// with a call.
// CHECK-LABEL: func.func @independent_calls
// CHECK: fuser.segment library(%{{.*}}, %{{.*}})
// CHECK-NEXT: ^bb0
// CHECK-NEXT: fuser.matmul
// CHECK-NEXT: fuser.yield
// CHECK: fuser.segment library(%{{.*}}, %{{.*}})
// CHECK-NEXT: ^bb0
// CHECK-NEXT: fuser.matmul
// CHECK-NEXT: fuser.yield
// CHECK: fuser.segment pointwise(%{{.*}})
// CHECK-NEXT: ^bb0
// CHECK-NEXT: fuser.neg
func.func @independent_calls(%a: tensor<4x8xf32>, %b: tensor<8x5xf32>, %c: tensor<4x8xf32>, %x: tensor<3x3xf32>) -> (tensor<4x5xf32>, tensor<4x5xf32>, tensor<3x3xf32>) {
  %0 = fuser.matmul %a, %b : tensor<4x8xf32>, tensor<8x5xf32> -> tensor<4x5xf32>
  %1 = fuser.matmul %c, %b : tensor<4x8xf32>, tensor<8x5xf32> -> tensor<4x5xf32>
  %2 = fuser.neg %x : tensor<3x3xf32>
  return %0, %1, %2 : tensor<4x5xf32>, tensor<4x5xf32>, tensor<3x3xf32>
}

// A view of the call's result is no part of the call: an alias segment
// views what the call writes.
// CHECK-LABEL: func.func @view_of_result
// CHECK: %[[L:.*]] = fuser.segment library
// CHECK: fuser.segment alias(%[[L]])
// CHECK: fuser.view
func.func @view_of_result(%x: tensor<2x3x8xf32>, %w: tensor<4x8xf32>) -> tensor<24xf32> {
  %y = fuser.linear %x, %w : tensor<2x3x8xf32>, tensor<4x8xf32> -> tensor<2x3x4xf32>
  %v = fuser.view %y : tensor<2x3x4xf32> -> tensor<24xf32>
  return %v : tensor<24xf32>
}

// The interpreter runs segmented library segments with the fusion's bits;
// the CPU backend calls a BLAS (test/ExecutionEngine/cpu-library.mlir); the
// CUDA backend (here under the SIMT emulator and its fake cuBLASLt) calls
// cuBLASLt (test/ExecutionEngine/simt-library.mlir).
// RUN: fuser-opt %s --fuser-segment -o %t.mlir
// RUN: fuser-run %s --entry segmented_runs --check-against interp --against-file %t.mlir --ulp-tolerance 0 | FileCheck %s --check-prefix=EXEC
// RUN: fuser-run %s --entry segmented_runs --backend cpu --check-against interp | FileCheck %s --check-prefix=CPU
// RUN: fuser-run %s --entry segmented_runs --backend simt --check-against interp | FileCheck %s --check-prefix=SIMT
// EXEC-COUNT-2: ulp ok
// CPU: check 0: {{.*}}(nvFuser's matmul tolerance for 8 summed elements){{.*}} ok
// CPU: check 1: {{.*}} ulp ok
// SIMT: check 0: {{.*}}(nvFuser's matmul tolerance for 8 summed elements){{.*}} ok
// SIMT: check 1: {{.*}} ulp ok
func.func @segmented_runs(%x: tensor<3x8xf32>, %w: tensor<5x8xf32>) -> (tensor<3x5xf32>, tensor<3x8xf32>) {
  %n = fuser.neg %x : tensor<3x8xf32>
  %y = fuser.linear %n, %w : tensor<3x8xf32>, tensor<5x8xf32> -> tensor<3x5xf32>
  %e = fuser.exp %y : tensor<3x5xf32>
  return %e, %n : tensor<3x5xf32>, tensor<3x8xf32>
}
