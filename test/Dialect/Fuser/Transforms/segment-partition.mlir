// RUN: fuser-opt --fuser-segment -split-input-file %s | FileCheck %s
// The partitions compute the same bits as the fusions.
// RUN: fuser-opt --fuser-segment %s -o %t.mlir
// RUN: fuser-run %s --entry returned_expansion --check-against interp --against-file %t.mlir --ulp-tolerance 0 | FileCheck %s --check-prefix=EXEC
// RUN: fuser-run %s --entry returned_slice --check-against interp --against-file %t.mlir --ulp-tolerance 0 | FileCheck %s --check-prefix=EXEC
// RUN: fuser-run %s --entry returned_reshape_of_expansion --check-against interp --against-file %t.mlir --ulp-tolerance 0 | FileCheck %s --check-prefix=EXEC
// RUN: fuser-run %s --entry merge_order --check-against interp --against-file %t.mlir --ulp-tolerance 0 | FileCheck %s --check-prefix=EXEC
// RUN: fuser-run %s --entry capacity_chain --check-against interp --against-file %t.mlir --ulp-tolerance 0 | FileCheck %s --check-prefix=EXEC
// The kernels run on the CPU backend, whose aliases must be strided views.
// RUN: fuser-run %t.mlir --entry tree_source_stays_written --backend cpu --check-against interp | FileCheck %s --check-prefix=EXEC
// RUN: fuser-run %t.mlir --entry alias_switches_to_shared_source --backend cpu --check-against interp | FileCheck %s --check-prefix=EXEC
//
// What fuser-segment decides before and during partitioning
// (docs/Segmentation.md, "Partitioning").

// EXEC: check 0: max_abs_err=0 max_ulp=0 tolerance=0 ulp ok
// EXEC-NOT: mismatch

// return expand(broadcast(v)) -> the kernel writes v, the caller gets a view:
// meta ops that only lead to returned values larger than their source are
// views before partitioning, so the expand neither stays in the reduction
// kernel (which no template takes) nor splits the casts off into a kernel
// of their own.
// CHECK-LABEL: func.func @returned_expansion
// CHECK: %[[R:.*]] = fuser.segment reduction(%{{.*}}) : (tensor<6x12xbf16>) -> tensor<6xbf16> {
// CHECK-NEXT: ^bb0
// CHECK-NEXT: fuser.reduction mul
// CHECK-NEXT: fuser.cast
// CHECK-NEXT: fuser.cast
// CHECK-NEXT: fuser.yield
// CHECK: %[[A:.*]] = fuser.segment alias(%[[R]]) : (tensor<6xbf16>) -> tensor<8x6x5xbf16> {
// CHECK-NOT: fuser.segment
// CHECK: return %[[A]]
func.func @returned_expansion(%x: tensor<6x12xbf16>) -> tensor<8x6x5xbf16> {
  %r = fuser.reduction mul %x [1] keepdim : tensor<6x12xbf16> -> tensor<6x1xbf16>
  %b = fuser.cast %r : tensor<6x1xbf16> to tensor<6x1xi1>
  %c = fuser.cast %b : tensor<6x1xi1> to tensor<6x1xbf16>
  %d = fuser.broadcast %c [0] : tensor<6x1xbf16> -> tensor<1x6x1xbf16>
  %e = fuser.expand %d : tensor<1x6x1xbf16> -> tensor<8x6x5xbf16>
  return %e : tensor<8x6x5xbf16>
}

// -----

// Bail-out: a returned slice holds fewer bytes than its source; the kernel
// writes the slice, not the whole tensor under it.
// CHECK-LABEL: func.func @returned_slice
// CHECK: %[[P:.*]] = fuser.segment pointwise(%{{.*}}) : (tensor<64xf32>) -> tensor<2xf32> {
// CHECK-NEXT: ^bb0
// CHECK-NEXT: fuser.neg
// CHECK-NEXT: fuser.slice
// CHECK-NEXT: fuser.yield
// CHECK-NOT: fuser.segment
// CHECK: return %[[P]]
func.func @returned_slice(%x: tensor<64xf32>) -> tensor<2xf32> {
  %n = fuser.neg %x : tensor<64xf32>
  %s = fuser.slice %n starts [0] limits [2] strides [1] : tensor<64xf32> -> tensor<2xf32>
  return %s : tensor<2xf32>
}

// -----

// Bail-out: the returned reshape of a permuted expand is no strided view of
// %n, so the whole tree stays in a kernel (a part of it made views would
// leave the reshape reading an expand of the reduction's kernel, which no
// template takes).
// CHECK-LABEL: func.func @returned_reshape_of_expansion
// CHECK: %[[R:.*]] = fuser.segment reduction(%{{.*}}) : (tensor<6x3xf32>) -> tensor<6xf32> {
// CHECK: %[[P:.*]] = fuser.segment pointwise(%[[R]]) : (tensor<6xf32>) -> tensor<9x8xf32> {
// CHECK-NEXT: ^bb0
// CHECK-NEXT: fuser.neg
// CHECK-NEXT: fuser.broadcast
// CHECK-NEXT: fuser.expand
// CHECK-NEXT: fuser.permute
// CHECK-NEXT: fuser.view
// CHECK-NEXT: fuser.yield
// CHECK-NOT: fuser.segment
// CHECK: return %[[R]], %[[P]]
func.func @returned_reshape_of_expansion(%x: tensor<6x3xf32>) -> (tensor<6xf32>, tensor<9x8xf32>) {
  %r = fuser.reduction add %x [1] : tensor<6x3xf32> -> tensor<6xf32>
  %n = fuser.neg %r : tensor<6xf32>
  %b = fuser.broadcast %n [1] : tensor<6xf32> -> tensor<6x1xf32>
  %e = fuser.expand %b : tensor<6x1xf32> -> tensor<6x12xf32>
  %p = fuser.permute %e [1, 0] : tensor<6x12xf32> -> tensor<12x6xf32>
  %v = fuser.view %p : tensor<12x6xf32> -> tensor<9x8xf32>
  return %r, %v : tensor<6xf32>, tensor<9x8xf32>
}

// -----

// Merge order: by estimated saving, %m joins %w in the kernel that waits
// for %min, so the reduction of %c reads %m from that kernel and can join
// neither it nor %min's: 3 kernels. In program order %min's and %max's
// reductions form one kernel and everything reading them another: 2
// kernels, the fewer, which fuser-segment keeps. %t reduces an extent-1
// axis only: a squeeze of the slice, so an alias of %x.
// CHECK-LABEL: func.func @merge_order
// CHECK-SAME: (%[[X:.*]]: tensor<6xi64>)
// CHECK: %[[K:.*]]:2 = fuser.segment reduction(%[[X]]) : (tensor<6xi64>) -> (tensor<i64>, tensor<i32>) {
// CHECK-NEXT: ^bb0
// CHECK-NEXT: arith.constant
// CHECK-NEXT: fuser.eq
// CHECK-NEXT: fuser.reduction min
// CHECK-NEXT: fuser.cast
// CHECK-NEXT: fuser.reduction max
// CHECK-NEXT: fuser.yield
// CHECK: %[[L:.*]]:3 = fuser.segment reduction(%[[X]], %[[K]]#0, %[[K]]#1) : (tensor<6xi64>, tensor<i64>, tensor<i32>) -> (tensor<6xi64>, tensor<1xi64>, tensor<i32>) {
// CHECK: %[[T:.*]] = fuser.segment alias(%[[X]])
// CHECK-NOT: fuser.segment
// CHECK: return %[[L]]#0, %[[T]], %[[L]]#2, %[[L]]#1
func.func @merge_order(%x: tensor<6xi64>) -> (tensor<6xi64>, tensor<i64>, tensor<i32>, tensor<1xi64>) {
  %c3 = arith.constant 3 : i64
  %m = fuser.eq %x, %c3 : tensor<6xi64>, i64 -> tensor<6xi1>
  %min = fuser.reduction min %x [0] keepdim : tensor<6xi64> -> tensor<1xi64>
  %w = fuser.where %m, %x, %min : tensor<6xi1>, tensor<6xi64>, tensor<1xi64> -> tensor<6xi64>
  %s = fuser.slice %x starts [4] limits [6] strides [2] : tensor<6xi64> -> tensor<1xi64>
  %a = fuser.add %s, %s : tensor<1xi64>, tensor<1xi64> -> tensor<1xi64>
  %t = fuser.reduction add %s [0] : tensor<1xi64> -> tensor<i64>
  %c = fuser.cast %m : tensor<6xi1> to tensor<6xi32>
  %max = fuser.reduction max %c [0] keepdim : tensor<6xi32> -> tensor<1xi32>
  %e = fuser.expand %max : tensor<1xi32> -> tensor<3xi32>
  %u = fuser.reduction add %e [0] : tensor<3xi32> -> tensor<i32>
  return %w, %t, %u, %a : tensor<6xi64>, tensor<i64>, tensor<i32>, tensor<1xi64>
}

// -----

// The value a returned tree views stays written as the tree assumes: %a and
// %b (a copy: a reshape of the permuted %p) view %p written contiguously,
// so %p may not become a view of %m too (its permuted layout is no strided
// view of %m that %a could reshape).
// CHECK-LABEL: func.func @tree_source_stays_written
// CHECK: %[[K:.*]]:2 = fuser.segment reduction(%{{.*}}) : (tensor<8xf16>) -> (tensor<2x1x4x1x1xf32>, tensor<1x1x1x4xf32>) {
// CHECK: %[[A:.*]]:3 = fuser.segment alias(%[[K]]#0) : (tensor<2x1x4x1x1xf32>) -> (tensor<8xf32>, tensor<1x2x4xf32>, tensor<2x1x4xf32>) {
// CHECK-NOT: fuser.segment
// CHECK: return %[[A]]#1, %[[A]]#0, %[[A]]#2, %[[K]]#1
func.func @tree_source_stays_written(%x: tensor<8xf16>) -> (tensor<1x2x4xf32>, tensor<8xf32>, tensor<2x1x4xf32>, tensor<1x1x1x4xf32>) {
  %zero = arith.constant 0.000000e+00 : f32
  %two = arith.constant 2.000000e+00 : f32
  %f = fuser.cast %x : tensor<8xf16> to tensor<8xf32>
  %full = fuser.full %two : f32 -> tensor<1x4x1x1x2xf32>
  %m = fuser.maximum %full, %zero : tensor<1x4x1x1x2xf32>, f32 -> tensor<1x4x1x1x2xf32>
  %p = fuser.permute %m [4, 0, 1, 2, 3] : tensor<1x4x1x1x2xf32> -> tensor<2x1x4x1x1xf32>
  %rows = fuser.view %p : tensor<2x1x4x1x1xf32> -> tensor<1x2x1x4xf32>
  %b = fuser.view %p : tensor<2x1x4x1x1xf32> -> tensor<1x2x4xf32>
  %s = fuser.squeeze %p [3, 4] : tensor<2x1x4x1x1xf32> -> tensor<2x1x4xf32>
  %v = fuser.view %f : tensor<8xf32> -> tensor<4x1x1x2xf32>
  %t = fuser.permute %v [2, 1, 3, 0] : tensor<4x1x1x2xf32> -> tensor<1x1x2x4xf32>
  %sum = fuser.add %rows, %t : tensor<1x2x1x4xf32>, tensor<1x1x2x4xf32> -> tensor<1x2x2x4xf32>
  %r = fuser.reduction add %sum [1, 2] keepdim : tensor<1x2x2x4xf32> -> tensor<1x1x1x4xf32>
  %a = fuser.view %p : tensor<2x1x4x1x1xf32> -> tensor<8xf32>
  return %b, %a, %s, %r : tensor<1x2x4xf32>, tensor<8xf32>, tensor<2x1x4xf32>, tensor<1x1x1x4xf32>
}

// -----

// Two views of one kernel's value: the expand of %b views %r (which the
// kernel writes for the slice's view; %b is a broadcast of %r), so the
// slice (fewer bytes than %r) does not move into the kernel in %r's place:
// the kernel keeps writing %r for both views, one alias segment.
// CHECK-LABEL: func.func @alias_switches_to_shared_source
// CHECK: %[[K:.*]]:2 = fuser.segment reduction(%{{.*}}) : (tensor<4x8xi64>) -> (tensor<4xi64>, tensor<2x2xi1>) {
// CHECK: %[[A:.*]]:2 = fuser.segment alias(%[[K]]#0) : (tensor<4xi64>) -> (tensor<4x3xi64>, tensor<1xi64>) {
// CHECK-NOT: fuser.segment
// CHECK: return %[[A]]#0, %[[K]]#1, %[[A]]#1
func.func @alias_switches_to_shared_source(%x: tensor<4x8xi64>) -> (tensor<4x3xi64>, tensor<2x2xi1>, tensor<1xi64>) {
  %r = fuser.reduction add %x [1] : tensor<4x8xi64> -> tensor<4xi64>
  %b = fuser.broadcast %r [1] : tensor<4xi64> -> tensor<4x1xi64>
  %e = fuser.expand %b : tensor<4x1xi64> -> tensor<4x3xi64>
  %c = fuser.set %r : tensor<4xi64>
  %s = fuser.slice %c starts [3] limits [4] strides [1] : tensor<4xi64> -> tensor<1xi64>
  %f = fuser.floor %b : tensor<4x1xi64>
  %q = fuser.squeeze %f [1] : tensor<4x1xi64> -> tensor<4xi64>
  %h = fuser.slice %q starts [0] limits [4] strides [2] : tensor<4xi64> -> tensor<2xi64>
  %hb = fuser.broadcast %h [0] : tensor<2xi64> -> tensor<1x2xi64>
  %he = fuser.expand %hb : tensor<1x2xi64> -> tensor<2x2xi64>
  %m3 = arith.constant -3 : i64
  %ne = fuser.ne %he, %m3 : tensor<2x2xi64>, i64 -> tensor<2x2xi1>
  return %e, %ne, %s : tensor<4x3xi64>, tensor<2x2xi1>, tensor<1xi64>
}

// -----

// A chain of normalizations, each reading one more input row of 4 KiB: ten
// blocks' rows fill a block's 48 KiB (docs/Segmentation.md, "Compile
// time"). Once the first kernel is too large with its reader, the refusal
// carries over as the reader grows by ops that keep its rows and inputs
// (no earlier reduction, nothing they write read back): the first kernel
// takes nine blocks and the tenth's product, the second the other seven
// reductions, never tried with the first again.
// CHECK-LABEL: func.func @capacity_chain
// CHECK: %[[K:.*]] = fuser.segment normalization(%arg0, %arg1, %arg2, %arg3, %arg4, %arg5, %arg6, %arg7, %arg8, %arg9, %arg10) :
// CHECK-COUNT-9: fuser.reduction add
// CHECK-NOT: fuser.reduction
// CHECK: fuser.segment normalization(%[[K]], %arg11, %arg12, %arg13, %arg14, %arg15, %arg16) :
// CHECK-COUNT-7: fuser.reduction add
// CHECK-NOT: fuser.segment
// CHECK: return
func.func @capacity_chain(%v: tensor<2x1024xf32>, %x0: tensor<2x1024xf32>, %x1: tensor<2x1024xf32>, %x2: tensor<2x1024xf32>, %x3: tensor<2x1024xf32>, %x4: tensor<2x1024xf32>, %x5: tensor<2x1024xf32>, %x6: tensor<2x1024xf32>, %x7: tensor<2x1024xf32>, %x8: tensor<2x1024xf32>, %x9: tensor<2x1024xf32>, %x10: tensor<2x1024xf32>, %x11: tensor<2x1024xf32>, %x12: tensor<2x1024xf32>, %x13: tensor<2x1024xf32>, %x14: tensor<2x1024xf32>, %x15: tensor<2x1024xf32>) -> tensor<2x1024xf32> {
  %p0 = fuser.mul %v, %x0 : tensor<2x1024xf32>, tensor<2x1024xf32> -> tensor<2x1024xf32>
  %s0 = fuser.reduction add %p0 [1] keepdim : tensor<2x1024xf32> -> tensor<2x1xf32>
  %w0 = fuser.mul %p0, %s0 : tensor<2x1024xf32>, tensor<2x1xf32> -> tensor<2x1024xf32>
  %p1 = fuser.mul %w0, %x1 : tensor<2x1024xf32>, tensor<2x1024xf32> -> tensor<2x1024xf32>
  %s1 = fuser.reduction add %p1 [1] keepdim : tensor<2x1024xf32> -> tensor<2x1xf32>
  %w1 = fuser.mul %p1, %s1 : tensor<2x1024xf32>, tensor<2x1xf32> -> tensor<2x1024xf32>
  %p2 = fuser.mul %w1, %x2 : tensor<2x1024xf32>, tensor<2x1024xf32> -> tensor<2x1024xf32>
  %s2 = fuser.reduction add %p2 [1] keepdim : tensor<2x1024xf32> -> tensor<2x1xf32>
  %w2 = fuser.mul %p2, %s2 : tensor<2x1024xf32>, tensor<2x1xf32> -> tensor<2x1024xf32>
  %p3 = fuser.mul %w2, %x3 : tensor<2x1024xf32>, tensor<2x1024xf32> -> tensor<2x1024xf32>
  %s3 = fuser.reduction add %p3 [1] keepdim : tensor<2x1024xf32> -> tensor<2x1xf32>
  %w3 = fuser.mul %p3, %s3 : tensor<2x1024xf32>, tensor<2x1xf32> -> tensor<2x1024xf32>
  %p4 = fuser.mul %w3, %x4 : tensor<2x1024xf32>, tensor<2x1024xf32> -> tensor<2x1024xf32>
  %s4 = fuser.reduction add %p4 [1] keepdim : tensor<2x1024xf32> -> tensor<2x1xf32>
  %w4 = fuser.mul %p4, %s4 : tensor<2x1024xf32>, tensor<2x1xf32> -> tensor<2x1024xf32>
  %p5 = fuser.mul %w4, %x5 : tensor<2x1024xf32>, tensor<2x1024xf32> -> tensor<2x1024xf32>
  %s5 = fuser.reduction add %p5 [1] keepdim : tensor<2x1024xf32> -> tensor<2x1xf32>
  %w5 = fuser.mul %p5, %s5 : tensor<2x1024xf32>, tensor<2x1xf32> -> tensor<2x1024xf32>
  %p6 = fuser.mul %w5, %x6 : tensor<2x1024xf32>, tensor<2x1024xf32> -> tensor<2x1024xf32>
  %s6 = fuser.reduction add %p6 [1] keepdim : tensor<2x1024xf32> -> tensor<2x1xf32>
  %w6 = fuser.mul %p6, %s6 : tensor<2x1024xf32>, tensor<2x1xf32> -> tensor<2x1024xf32>
  %p7 = fuser.mul %w6, %x7 : tensor<2x1024xf32>, tensor<2x1024xf32> -> tensor<2x1024xf32>
  %s7 = fuser.reduction add %p7 [1] keepdim : tensor<2x1024xf32> -> tensor<2x1xf32>
  %w7 = fuser.mul %p7, %s7 : tensor<2x1024xf32>, tensor<2x1xf32> -> tensor<2x1024xf32>
  %p8 = fuser.mul %w7, %x8 : tensor<2x1024xf32>, tensor<2x1024xf32> -> tensor<2x1024xf32>
  %s8 = fuser.reduction add %p8 [1] keepdim : tensor<2x1024xf32> -> tensor<2x1xf32>
  %w8 = fuser.mul %p8, %s8 : tensor<2x1024xf32>, tensor<2x1xf32> -> tensor<2x1024xf32>
  %p9 = fuser.mul %w8, %x9 : tensor<2x1024xf32>, tensor<2x1024xf32> -> tensor<2x1024xf32>
  %s9 = fuser.reduction add %p9 [1] keepdim : tensor<2x1024xf32> -> tensor<2x1xf32>
  %w9 = fuser.mul %p9, %s9 : tensor<2x1024xf32>, tensor<2x1xf32> -> tensor<2x1024xf32>
  %p10 = fuser.mul %w9, %x10 : tensor<2x1024xf32>, tensor<2x1024xf32> -> tensor<2x1024xf32>
  %s10 = fuser.reduction add %p10 [1] keepdim : tensor<2x1024xf32> -> tensor<2x1xf32>
  %w10 = fuser.mul %p10, %s10 : tensor<2x1024xf32>, tensor<2x1xf32> -> tensor<2x1024xf32>
  %p11 = fuser.mul %w10, %x11 : tensor<2x1024xf32>, tensor<2x1024xf32> -> tensor<2x1024xf32>
  %s11 = fuser.reduction add %p11 [1] keepdim : tensor<2x1024xf32> -> tensor<2x1xf32>
  %w11 = fuser.mul %p11, %s11 : tensor<2x1024xf32>, tensor<2x1xf32> -> tensor<2x1024xf32>
  %p12 = fuser.mul %w11, %x12 : tensor<2x1024xf32>, tensor<2x1024xf32> -> tensor<2x1024xf32>
  %s12 = fuser.reduction add %p12 [1] keepdim : tensor<2x1024xf32> -> tensor<2x1xf32>
  %w12 = fuser.mul %p12, %s12 : tensor<2x1024xf32>, tensor<2x1xf32> -> tensor<2x1024xf32>
  %p13 = fuser.mul %w12, %x13 : tensor<2x1024xf32>, tensor<2x1024xf32> -> tensor<2x1024xf32>
  %s13 = fuser.reduction add %p13 [1] keepdim : tensor<2x1024xf32> -> tensor<2x1xf32>
  %w13 = fuser.mul %p13, %s13 : tensor<2x1024xf32>, tensor<2x1xf32> -> tensor<2x1024xf32>
  %p14 = fuser.mul %w13, %x14 : tensor<2x1024xf32>, tensor<2x1024xf32> -> tensor<2x1024xf32>
  %s14 = fuser.reduction add %p14 [1] keepdim : tensor<2x1024xf32> -> tensor<2x1xf32>
  %w14 = fuser.mul %p14, %s14 : tensor<2x1024xf32>, tensor<2x1xf32> -> tensor<2x1024xf32>
  %p15 = fuser.mul %w14, %x15 : tensor<2x1024xf32>, tensor<2x1024xf32> -> tensor<2x1024xf32>
  %s15 = fuser.reduction add %p15 [1] keepdim : tensor<2x1024xf32> -> tensor<2x1xf32>
  %w15 = fuser.mul %p15, %s15 : tensor<2x1024xf32>, tensor<2x1xf32> -> tensor<2x1024xf32>
  return %w15 : tensor<2x1024xf32>
}
