// Bad options are errors before anything runs (LLVM would abort on
// +ptx60 with sm_90; ptxas would fail late on a chip it does not know).
// RUN: not fuser-opt %s --fuser-kernel-loops-to-nvvm="chip=sm_999" 2>&1 | FileCheck %s --check-prefix=CHIP
// RUN: not fuser-opt %s --fuser-kernel-loops-to-nvvm="chip=sm_50" 2>&1 | FileCheck %s --check-prefix=PTXAS-CHIP
// RUN: not fuser-opt %s --fuser-kernel-loops-to-nvvm="chip=sm_90 features=+ptx60" 2>&1 | FileCheck %s --check-prefix=PTX60
// RUN: not fuser-opt %s --fuser-kernel-loops-to-nvvm="features=+nosuchfeature" 2>&1 | FileCheck %s --check-prefix=FEATURE
// RUN: not fuser-opt %s --fuser-kernel-loops-to-nvvm="toolkit=/nonexistent" 2>&1 | FileCheck %s --check-prefix=TOOLKIT
// RUN: not fuser-opt %s --fuser-kernel-loops-to-nvvm="format=isa toolkit=/nonexistent" 2>&1 | FileCheck %s --check-prefix=TOOLKIT
// RUN: not fuser-opt %s --fuser-kernel-loops-to-nvvm="format=elf" 2>&1 | FileCheck %s --check-prefix=FORMAT
// RUN: not fuser-opt %s --fuser-kernel-loops-to-nvvm="opt-level=4" 2>&1 | FileCheck %s --check-prefix=OPT
// RUN: not fuser-opt %s --fuser-lower-to-nvvm="chip=sm_999" 2>&1 | FileCheck %s --check-prefix=CHIP
// A PTX version above the minimum is fine.
// RUN: fuser-opt %s --fuser-kernel-loops-to-nvvm="chip=sm_90 features=+ptx80 format=isa" | FileCheck %s --check-prefix=PTX80

// CHIP: error: --fuser-lower-to-nvvm: chip=sm_999: not a GPU that LLVM's NVPTX backend knows
// CHIP-NOT: see current operation
// PTXAS-CHIP: error: --fuser-lower-to-nvvm: chip=sm_50: {{.*}}/bin/ptxas does not support this GPU (it supports {{.*}}sm_90{{.*}})
// PTX60: error: --fuser-lower-to-nvvm: features=+ptx60: sm_90 needs PTX 7.8 or newer (+ptx78), not PTX 6.0; leave features empty for the lowest PTX the chip accepts
// PTX60-NOT: LLVM ERROR
// FEATURE: error: --fuser-lower-to-nvvm: features=+nosuchfeature: 'nosuchfeature' is not an NVPTX feature
// TOOLKIT: error: --fuser-lower-to-nvvm: toolkit=/nonexistent: no executable ptxas at /nonexistent/bin/ptxas; set the `toolkit` option
// FORMAT: error: --fuser-lower-to-nvvm: format=elf: unknown output format (expected isa, bin, fatbin or llvm)
// OPT: error: --fuser-lower-to-nvvm: opt-level=4: expected an optimization level from 0 to 3
// PTX80: .version 8.0

#blk = #gpu.loop_dim_map<processor = block_x, map = (d0) -> (d0), bound = (d0) -> (d0)>
func.func @copy(%a: memref<64xf32>, %out: memref<64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  scf.parallel (%i) = (%c0) to (%c64) step (%c1) {
    %x = memref.load %a[%i] : memref<64xf32>
    memref.store %x, %out[%i] : memref<64xf32>
    scf.reduce
  } {mapping = [#blk]}
  return
}
