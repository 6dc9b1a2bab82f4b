// The Mistral RoPE backward kernel in the form convert-fuser-to-scf emits
// (docs/Lowering.md): one thread per 16-byte output vector (8 bf16), the 4
// grouped heads read with aligned 16-byte loads, an f32 accumulator from
// -0.0, one aligned 16-byte store; 2048 blocks of 256 threads.
// RUN: fuser-opt %s --fuser-kernel-loops-to-nvvm="chip=sm_90 format=isa" | FileCheck %s
// RUN: fuser-opt %s --fuser-kernel-loops-to-nvvm="chip=sm_90 format=isa" | FileCheck %s --check-prefix=PTX --implicit-check-not=.entry --implicit-check-not=.shared --implicit-check-not=bar.sync --implicit-check-not=ld.global.b16 --implicit-check-not=st.global.b16
// RUN: fuser-opt %s --fuser-kernel-loops-to-nvvm="chip=sm_90 format=bin" | FileCheck %s --check-prefix=BIN

// The host function keeps the signature and launches the kernel.
// CHECK-LABEL: module attributes {gpu.container_module}
// CHECK: func.func @mistral_rope_bwd(%{{.*}}: memref<1x32x4096x128xbf16>, %{{.*}}: memref<1x4096x1024xbf16>)
// CHECK-DAG: %[[C2048:.*]] = arith.constant 2048 : index
// CHECK-DAG: %[[C256:.*]] = arith.constant 256 : index
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK: gpu.launch_func @mistral_rope_bwd_kernel::@mistral_rope_bwd_kernel blocks in (%[[C2048]], %[[C1]], %[[C1]]) threads in (%[[C256]], %[[C1]], %[[C1]])
// CHECK-NEXT: return
// CHECK: gpu.binary @mistral_rope_bwd_kernel [#gpu.object<#nvvm.target<O = 3, chip = "sm_90">

// One kernel, PTX 7.8 (the lowest sm_90 accepts), 16-byte non-coherent loads
// of the read-only input, 16-byte stores, no shared memory, no barriers.
// PTX: .version 7.8
// PTX: .target sm_90
// PTX: .entry mistral_rope_bwd_kernel(
// PTX-COUNT-4: ld.global.nc.v4.b32
// PTX: cvt.rn.bf16x2.f32
// PTX: st.global.v4.b32
// PTX-NOT: st.global
// PTX: ret;

// format=bin: a cubin (ELF) made by ptxas for sm_90.
// BIN: gpu.binary @mistral_rope_bwd_kernel [#gpu.object<#nvvm.target<O = 3, chip = "sm_90">, properties = {{.*}}, bin = "\7FELF

#blk = #gpu.loop_dim_map<processor = block_x, map = (d0) -> (d0), bound = (d0) -> (d0)>
#thr = #gpu.loop_dim_map<processor = thread_x, map = (d0) -> (d0), bound = (d0) -> (d0)>
func.func @mistral_rope_bwd(%in: memref<1x32x4096x128xbf16>, %out: memref<1x4096x1024xbf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  %c1024 = arith.constant 1024 : index
  %c2048 = arith.constant 2048 : index
  scf.parallel (%b, %t) = (%c0, %c0) to (%c2048, %c256) step (%c1, %c1) {
    %bt = arith.muli %b, %c256 : index
    %v = arith.addi %bt, %t : index
    %e = arith.muli %v, %c8 : index
    %s = arith.divui %e, %c1024 : index
    %hd = arith.remui %e, %c1024 : index
    %h = arith.divui %hd, %c128 : index
    %d = arith.remui %hd, %c128 : index
    %h4 = arith.muli %h, %c4 : index
    %zero = arith.constant dense<-0.0> : vector<8xf32>
    %acc = scf.for %g = %c0 to %c4 step %c1 iter_args(%a = %zero) -> (vector<8xf32>) {
      %head = arith.addi %h4, %g : index
      %x = vector.load %in[%c0, %head, %s, %d] {alignment = 16} : memref<1x32x4096x128xbf16>, vector<8xbf16>
      %xf = arith.extf %x : vector<8xbf16> to vector<8xf32>
      %sum = arith.addf %a, %xf : vector<8xf32>
      scf.yield %sum : vector<8xf32>
    }
    %r = arith.truncf %acc : vector<8xf32> to vector<8xbf16>
    vector.store %r, %out[%c0, %s, %hd] {alignment = 16} : memref<1x4096x1024xbf16>, vector<8xbf16>
    scf.reduce
  } {mapping = [#blk, #thr]}
  return
}
