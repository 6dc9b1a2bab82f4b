// RUN: fuser-opt %s --split-input-file --pass-pipeline='builtin.module(fuser-gpu-host-memory)' --verify-diagnostics | FileCheck %s
// RUN: fuser-opt %s --split-input-file --fuser-kernel-loops-to-nvvm="format=isa" --verify-diagnostics | FileCheck %s --check-prefix=NVVM

// Two kernels through an intermediate, and an alias output copied from an
// identity-layout view: device allocation, device free, device memcpy.
// CHECK-LABEL: func.func @two_kernels
// CHECK: %[[T:.*]] = gpu.alloc () : memref<64xf32>
// CHECK: scf.parallel
// CHECK: scf.parallel
// CHECK: gpu.dealloc %[[T]] : memref<64xf32>
// CHECK: gpu.memcpy %{{.*}}, %{{.*}} : memref<64xf32>, memref<64xf32>
// CHECK-NOT: memref.alloc
// CHECK-NOT: memref.dealloc
// CHECK-NOT: memref.copy

// After the whole GPU half: two launches, in order, and the host code.
// NVVM-LABEL: func.func @two_kernels
// NVVM: %[[T:.*]] = gpu.alloc () : memref<64xf32>
// NVVM: gpu.launch_func @two_kernels_kernel::@two_kernels_kernel {{.*}} args(%{{.*}} : memref<64xf32>, %[[T]] : memref<64xf32>)
// NVVM: gpu.launch_func @two_kernels_kernel_0::@two_kernels_kernel {{.*}} args(%[[T]] : memref<64xf32>, %{{.*}} : memref<64xf32>)
// NVVM: gpu.dealloc %[[T]] : memref<64xf32>
// NVVM: gpu.memcpy
// NVVM: return
// NVVM: gpu.binary @two_kernels_kernel
// NVVM: gpu.binary @two_kernels_kernel_0

#blk = #gpu.loop_dim_map<processor = block_x, map = (d0) -> (d0), bound = (d0) -> (d0)>
#thr = #gpu.loop_dim_map<processor = thread_x, map = (d0) -> (d0), bound = (d0) -> (d0)>
func.func @two_kernels(%a: memref<64xf32>, %out0: memref<64xf32>, %out1: memref<64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c32 = arith.constant 32 : index
  %t = memref.alloc() : memref<64xf32>
  scf.parallel (%b, %i) = (%c0, %c0) to (%c2, %c32) step (%c1, %c1) {
    %j0 = arith.muli %b, %c32 : index
    %j = arith.addi %j0, %i : index
    %x = memref.load %a[%j] : memref<64xf32>
    %y = arith.addf %x, %x : f32
    memref.store %y, %t[%j] : memref<64xf32>
    scf.reduce
  } {mapping = [#blk, #thr]}
  scf.parallel (%b, %i) = (%c0, %c0) to (%c2, %c32) step (%c1, %c1) {
    %j0 = arith.muli %b, %c32 : index
    %j = arith.addi %j0, %i : index
    %x = memref.load %t[%j] : memref<64xf32>
    %y = arith.mulf %x, %x : f32
    memref.store %y, %out0[%j] : memref<64xf32>
    scf.reduce
  } {mapping = [#blk, #thr]}
  memref.dealloc %t : memref<64xf32>
  memref.copy %a, %out1 : memref<64xf32> to memref<64xf32>
  return
}

// -----

// An alias output that is a strided (transposed) view of an input: a flat
// memcpy cannot read it, so it becomes a copy kernel, one element per
// thread, guarded where the grid overhangs (3 x 100 = 300 = 2 x 256 - 212).
// CHECK-LABEL: func.func @strided_alias
// CHECK: scf.parallel (%[[B:.*]], %[[T:.*]]) = (%{{.*}}, %{{.*}}) to (%c2, %c256) step (%c1, %c1)
// CHECK: %[[LIN:.*]] = arith.addi
// CHECK: %[[IN:.*]] = arith.cmpi ult, %[[LIN]], %c300
// CHECK: scf.if %[[IN]]
// CHECK: %[[J:.*]] = arith.remui %[[LIN]], %c100
// CHECK: %[[I:.*]] = arith.divui %[[LIN]], %c100
// CHECK: %[[X:.*]] = memref.load %{{.*}}[%[[I]], %[[J]]] : memref<3x100xf32, strided<[1, 3]>>
// CHECK: memref.store %[[X]], %{{.*}}[%[[I]], %[[J]]] : memref<3x100xf32>
// CHECK: } {mapping = [#gpu.loop_dim_map<processor = block_x, {{.*}}>, #gpu.loop_dim_map<processor = thread_x, {{.*}}>]}
// CHECK-NOT: memref.copy

// NVVM-LABEL: func.func @strided_alias
// NVVM: gpu.launch_func @strided_alias_kernel::@strided_alias_kernel blocks in (%c2, %c1, %c1) threads in (%c256, %c1, %c1)
// NVVM: gpu.binary @strided_alias_kernel

func.func @strided_alias(%a: memref<100x3xf32>, %out: memref<3x100xf32>) {
  %v = memref.reinterpret_cast %a to offset: [0], sizes: [3, 100], strides: [1, 3] : memref<100x3xf32> to memref<3x100xf32, strided<[1, 3]>>
  memref.copy %v, %out : memref<3x100xf32, strided<[1, 3]>> to memref<3x100xf32>
  return
}

// -----

// A kernel nest without its mapping would silently stay on the host.
func.func @unmapped(%a: memref<64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  // expected-error @below {{kernel nest without a `mapping` (#gpu.loop_dim_map) attribute: it would stay on the host}}
  scf.parallel (%i) = (%c0) to (%c64) step (%c1) {
    %x = memref.load %a[%i] : memref<64xf32>
    memref.store %x, %a[%i] : memref<64xf32>
    scf.reduce
  }
  return
}

// -----

// A host value computed from constants alone (a fusion's scalar constant
// cast to complex<f64>: complex.create of two constants) is recomputed in
// the kernel nest that uses it: as a kernel argument it would be a 16-byte
// scalar, which the launch plan does not pass. A function argument stays an
// argument.
// CHECK-LABEL: func.func @complex_scale
// CHECK: %[[HOST:.*]] = complex.create
// CHECK: scf.parallel
// CHECK-NEXT: %[[RE:.*]] = arith.constant 7.812500e-03 : f64
// CHECK-NEXT: %[[IM:.*]] = arith.constant 0.000000e+00 : f64
// CHECK-NEXT: %[[C:.*]] = complex.create %[[RE]], %[[IM]] : complex<f64>
// CHECK: complex.mul %{{.*}}, %[[C]] : complex<f64>
// CHECK: arith.mulf %{{.*}}, %arg2 : f64
// NVVM-LABEL: func.func @complex_scale
// NVVM: gpu.launch_func @complex_scale_kernel::@complex_scale_kernel blocks in (%{{.*}}) threads in (%{{.*}}) args(%arg0 : memref<64xcomplex<f64>>, %arg2 : f64, %arg1 : memref<64xcomplex<f64>>)
func.func @complex_scale(%a: memref<64xcomplex<f64>>, %o: memref<64xcomplex<f64>>, %s: f64) attributes {fuser.outputs = 1 : i64} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %re = arith.constant 7.812500e-03 : f64
  %im = arith.constant 0.000000e+00 : f64
  %k = complex.create %re, %im : complex<f64>
  scf.parallel (%b, %t) = (%c0, %c0) to (%c1, %c64) step (%c1, %c1) {
    %v = memref.load %a[%t] : memref<64xcomplex<f64>>
    %m = complex.mul %v, %k : complex<f64>
    %r = complex.re %m : complex<f64>
    %i = complex.im %m : complex<f64>
    %rs = arith.mulf %r, %s : f64
    %w = complex.create %rs, %i : complex<f64>
    memref.store %w, %o[%t] : memref<64xcomplex<f64>>
    scf.reduce
  } {mapping = [#gpu.loop_dim_map<processor = block_x, map = (d0) -> (d0), bound = (d0) -> (d0)>, #gpu.loop_dim_map<processor = thread_x, map = (d0) -> (d0), bound = (d0) -> (d0)>]}
  return
}
