// `fuser-run --backend cpu --memory-report` (docs/Performance.md): the
// kernels run on the CPU backend with every global memory access recorded.
//
// The Mistral targets (issue 12): one kernel; 32 MiB loaded and 8 MiB stored,
// exactly the minimum; sector efficiency >= 0.95 (here 1.000) for loads and
// stores; 4 loads and 1 store per thread, all 16 bytes; no spills, no local
// memory; at least 50% occupancy. The recorded run computes the same result
// as the plain CPU backend (and the interpreter).
// RUN: fuser-run %fuser_src_root/examples/mistral_rope_bwd.mlir --backend cpu --memory-report | FileCheck %s --check-prefix=MISTRAL
// MISTRAL:      memory report for @mistral_rope_bwd on sm_90 (132 SMs; warps of 32, sectors of 32 bytes)
// MISTRAL-NEXT: kernel 0: mistral_rope_bwd_kernel (loops)
// MISTRAL-NEXT:   launch: grid 2048 x block 256 = 524288 threads; {{[0-9]+}} blocks/SM (limited by {{[a-z ]+}}), {{[0-9]+}} threads/SM, occupancy {{(100|[5-9][0-9])\.[0-9]}}%, waves {{[0-9.]+}}{{$}}
// MISTRAL-NEXT:   ptxas: {{[0-9]+}} registers, 0 bytes spill stores, 0 bytes spill loads, 0 bytes stack frame, 0 bytes local, 0 bytes shared, 0 barriers
// MISTRAL-NEXT:   loaded: 33554432 bytes (minimum 33554432, 1.000x)
// MISTRAL-NEXT:   stored: 8388608 bytes (minimum 8388608, 1.000x)
// MISTRAL-NEXT:   load sectors: 1048576 touched, 1048576 fewest, efficiency 1.000
// MISTRAL-NEXT:   store sectors: 262144 touched, 262144 fewest, efficiency 1.000
// MISTRAL-NEXT:   per thread: 4.00 loads (16 B: 4.00), 1.00 stores (16 B: 1.00)
// MISTRAL-NEXT:   instruction 0: vector.load arg0 16 B, 4.00 per thread, 65536 warp instructions, 1048576 sectors (fewest 1048576)
// MISTRAL-NEXT:   instruction 1: vector.store out0 16 B, 1.00 per thread, 16384 warp instructions, 262144 sectors (fewest 262144)
// MISTRAL-NEXT: fusion: 1 kernel(s), moved 41943040 bytes, minimum 41943040 (1.000x)
// MISTRAL-NEXT: result 0: fnv1a64=0x741d24b99dd5ba0e
//
// RUN: fuser-run %fuser_src_root/examples/mistral_rope_bwd.mlir --backend cpu | FileCheck %s --check-prefix=PLAIN
// PLAIN: result 0: tensor<1x4096x1024xbf16> fnv1a64=0x741d24b99dd5ba0e
//
// RUN: fuser-run %fuser_src_root/examples/mistral_rope_bwd.mlir --backend cpu --memory-report --json | FileCheck %s --check-prefix=JSON
// JSON: {"memory_report": {"fusion": "mistral_rope_bwd", "limits": {"chip": "sm_90", "sm_count": 132,
// JSON: "kernels": [
// JSON-NEXT: {"name": "mistral_rope_bwd_kernel", "kind": "loops", "grid": 2048, "block": 256, "sample_stride": 1, "records": 2621440,
// JSON-NEXT: "load_bytes": 33554432, "store_bytes": 8388608, "min_load_bytes": 33554432, "min_store_bytes": 8388608,
// JSON-NEXT: "load_efficiency": 1.0000, "store_efficiency": 1.0000,
// JSON-NEXT: "loads_per_thread": 4.0000, "stores_per_thread": 1.0000, "load_widths": {"16": 4.0000}, "store_widths": {"16": 1.0000},
// JSON-NEXT: "ptxas": {"measured": true, "registers": {{[0-9]+}}, "spill_stores": 0, "spill_loads": 0, "stack_frame": 0, "local_bytes": 0,
// JSON: "moved_bytes": 41943040, "fusion_min_bytes": 41943040

// Without ptxas the memory figures stay; the report says what is missing.
// RUN: fuser-run %s --entry odd_tail --backend cpu --memory-report --cuda-toolkit=%t.none | FileCheck %s --check-prefix=NOPTXAS
// NOPTXAS:      kernel 0: kernel0 (loops)
// NOPTXAS-NEXT:   launch: grid 1 x block 256 = 256 threads; 8 blocks/SM (limited by threads), 2048 threads/SM, occupancy 100.0%, waves 0.00 (threads and blocks only: no ptxas)
// NOPTXAS-NEXT:   ptxas: not run: no ptxas at {{.*}}/bin/ptxas: registers, spills and occupancy by registers not measured
// An odd extent: one element per thread, 15 of the 256 threads access
// memory, 60 contiguous bytes in 2 sectors.
// NOPTXAS-NEXT:   loaded: 60 bytes (minimum 60, 1.000x)
// NOPTXAS-NEXT:   stored: 60 bytes (minimum 60, 1.000x)
// NOPTXAS-NEXT:   load sectors: 2 touched, 2 fewest, efficiency 1.000
// NOPTXAS-NEXT:   store sectors: 2 touched, 2 fewest, efficiency 1.000
// NOPTXAS-NEXT:   per thread: 0.06 loads (4 B: 0.06), 0.06 stores (4 B: 0.06)
// NOPTXAS: note: no ptxas at
// NOPTXAS: fusion: 1 kernel(s), moved 120 bytes, minimum 120 (1.000x)
func.func @odd_tail(%x: tensor<3x5xf32>) -> tensor<3x5xf32> {
  %0 = fuser.neg %x : tensor<3x5xf32>
  return %0 : tensor<3x5xf32>
}

// A permuted copy is an alias output: the GPU copies it with a copy kernel,
// measured the same way. The output's innermost axis is not the input's, so
// the kernel is a tiled transpose: a block stages a 32x32 tile in shared
// memory, each warp reads 32 input elements adjacent in memory and, after a
// barrier, writes 32 adjacent output elements (4 of each per thread).
// RUN: fuser-run %s --entry perm_small --backend cpu --memory-report | FileCheck %s --check-prefix=PERM
// PERM:      kernel 0: perm_small_kernel (copy)
// PERM-NEXT:   launch: grid 8 x block 256 = 2048 threads;
// PERM-NEXT:   ptxas: {{.*}} bytes shared, 1 barriers
// PERM-NEXT:   loaded: 16384 bytes (minimum 16384, 1.000x)
// PERM-NEXT:   stored: 16384 bytes (minimum 16384, 1.000x)
// PERM-NEXT:   load sectors: 512 touched, 512 fewest, efficiency 1.000
// PERM-NEXT:   store sectors: 512 touched, 512 fewest, efficiency 1.000
// PERM-NEXT:   per thread: 4.00 loads (2 B: 4.00), 4.00 stores (2 B: 4.00)
// PERM:      fusion: 1 kernel(s), moved 32768 bytes, minimum 32768 (1.000x)
// The same bits as the interpreter.
// RUN: fuser-run %s --entry perm_small --backend cpu --memory-report > %t.perm && fuser-run %s --entry perm_small >> %t.perm && FileCheck %s --check-prefix=PERMINTERP < %t.perm
// PERMINTERP: result 0: fnv1a64=[[PERMHASH:0x[0-9a-f]+]]
// PERMINTERP: result 0: tensor<4x32x64xbf16> fnv1a64=[[PERMHASH]]

// A permute whose output's innermost axis is short (5 < 16) is copied one
// element per thread: a tile would be mostly idle (must not tile).
// RUN: fuser-run %s --entry perm_short --backend cpu --memory-report | FileCheck %s --check-prefix=PERMSHORT
// PERMSHORT:      kernel 0: perm_short_kernel (copy)
// PERMSHORT-NEXT:   launch: grid 60 x block 256 = 15360 threads;
// PERMSHORT-NEXT:   ptxas: {{.*}} 0 bytes shared, 0 barriers
// PERMSHORT:        per thread: 1.00 loads (4 B: 1.00), 1.00 stores (4 B: 1.00)
func.func @perm_short(%x: tensor<64x5x48xf32>) -> tensor<48x64x5xf32> {
  %0 = fuser.permute %x [2, 0, 1] : tensor<64x5x48xf32> -> tensor<48x64x5xf32>
  return %0 : tensor<48x64x5xf32>
}

func.func @perm_small(%x: tensor<4x64x32xbf16>) -> tensor<4x32x64xbf16> {
  %0 = fuser.permute %x [0, 2, 1] : tensor<4x64x32xbf16> -> tensor<4x32x64xbf16>
  return %0 : tensor<4x32x64xbf16>
}

// A block per row: the block's sum is stored by thread 0 alone (code
// outside a thread loop would run in every thread: 256 stores of the same 4
// bytes per block), so the kernel stores the minimum.
// RUN: fuser-run %s --entry row_sums --backend cpu --memory-report | FileCheck %s --check-prefix=ROWS
// ROWS:      kernel 0: row_sums_kernel (loops)
// ROWS-NEXT:   launch: grid 8 x block 256 = 2048 threads;
// ROWS:        loaded: 32768 bytes (minimum 32768, 1.000x)
// ROWS-NEXT:   stored: 32 bytes (minimum 32, 1.000x)
// ROWS-NEXT:   load sectors: 1024 touched, 1024 fewest, efficiency 1.000
// ROWS-NEXT:   store sectors: 8 touched, 8 fewest, efficiency 1.000
// ROWS-NEXT:   per thread: 1.00 loads (16 B: 1.00), 0.00 stores (4 B: 0.00)
// ROWS-NEXT:   instruction 0: vector.load arg0 16 B, 1.00 per thread, 64 warp instructions, 1024 sectors (fewest 1024)
// ROWS-NEXT:   instruction 1: memref.store out0 4 B, 0.00 per thread, 8 warp instructions, 8 sectors (fewest 8)
// ROWS:      fusion: 1 kernel(s), moved 32800 bytes, minimum 32800 (1.000x)
func.func @row_sums(%x: tensor<8x1024xf32>) -> tensor<8xf32> {
  %0 = fuser.reduction add %x [1] : tensor<8x1024xf32> -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// A reduction over a middle axis with few outputs (384, too few for a
// thread each) is a tiled split: a block covers 32 consecutive outputs, so a
// warp's loads are 32 adjacent elements (efficiency >= 0.9; a block per
// output read 32 elements 192 bytes apart, 0.062), and its 8 thread groups'
// partials meet in shared memory behind one barrier; one thread per output
// stores.
// RUN: fuser-run %s --entry middle_sums --backend cpu --memory-report | FileCheck %s --check-prefix=MIDDLE
// MIDDLE:      kernel 0: middle_sums_kernel (loops)
// MIDDLE-NEXT:   launch: grid 12 x block 256 = 3072 threads;
// MIDDLE-NEXT:   ptxas: {{.*}} 1024 bytes shared, 1 barriers
// MIDDLE-NEXT:   loaded: 196608 bytes (minimum 196608, 1.000x)
// MIDDLE-NEXT:   stored: 768 bytes (minimum 768, 1.000x)
// MIDDLE-NEXT:   load sectors: 6144 touched, 6144 fewest, efficiency 1.000
// MIDDLE-NEXT:   store sectors: 24 touched, 24 fewest, efficiency 1.000
// MIDDLE:      fusion: 1 kernel(s), moved 197376 bytes, minimum 197376 (1.000x)
func.func @middle_sums(%x: tensor<4x256x96xbf16>) -> tensor<4x96xbf16> {
  %0 = fuser.cast %x : tensor<4x256x96xbf16> to tensor<4x256x96xf32>
  %1 = fuser.reduction add %0 [1] : tensor<4x256x96xf32> -> tensor<4x96xf32>
  %2 = fuser.cast %1 : tensor<4x96xf32> to tensor<4x96xbf16>
  return %2 : tensor<4x96xbf16>
}

// --memory-report is a cpu backend mode.
// RUN: not fuser-run %s --entry odd_tail --memory-report 2>&1 | FileCheck %s --check-prefix=BACKEND
// BACKEND: fuser-run: --memory-report runs on --backend cpu, without --check-against
