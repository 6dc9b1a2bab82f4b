// The target fuser-segment costs a segmentation on (TargetInfo, pass
// options): a normalization's rows must fit the shared memory of a block.
// An RMSNorm over rows of 256 f32 (1 KiB a row) is one normalization kernel
// with the default 48 KiB; with 512 bytes a block its rows do not fit, and
// the reduction and the kernel that reads its result back stay two kernels
// (the input read twice).
// RUN: fuser-opt --fuser-segment --fuser-segment-report %s -o /dev/null | FileCheck %s --check-prefix=DEFAULT
// RUN: fuser-opt --fuser-segment=shared-memory-per-block=512 --fuser-segment-report %s -o /dev/null | FileCheck %s --check-prefix=SMALL
// The report gives the reason on the target it is told (the same option);
// on the default one the two kernels would be one, so it gives none.
// RUN: fuser-opt --fuser-segment=shared-memory-per-block=512 --fuser-segment-report=shared-memory-per-block=512 %s -o /dev/null | FileCheck %s --check-prefix=SMALL-WHY
// RUN: fuser-opt --fuser-segment=shared-memory-per-block=512 --fuser-segment-report %s -o /dev/null | FileCheck %s --check-prefix=SMALL-NO-WHY
// Launch overhead and bandwidth order the merges, not their legality: the
// same kernels with a launch that costs nothing.
// RUN: fuser-opt --fuser-segment="launch-overhead-us=0 bandwidth-gbps=1" --fuser-segment-report %s -o /dev/null | FileCheck %s --check-prefix=DEFAULT
// The split kernels compute the same bits.
// RUN: fuser-opt --fuser-segment=shared-memory-per-block=512 %s -o %t.mlir
// RUN: fuser-run %s --entry rmsnorm --check-against interp --against-file %t.mlir --ulp-tolerance 0 | FileCheck %s --check-prefix=EXEC

// DEFAULT: fusion @rmsnorm: 1 kernel, 1 segment, reads 65536 bytes (64 KiB), writes 65536 bytes (64 KiB)
// DEFAULT-NEXT: segment #0 normalization
// SMALL: fusion @rmsnorm: 2 kernels, 2 segments, reads 131328 bytes, writes 65792 bytes
// SMALL-NEXT: segment #0 reduction
// SMALL: segment #1 pointwise
// SMALL-WHY: segment #0 reduction
// SMALL-WHY: not one kernel with #1: a normalization whose rows take 1152 bytes of shared memory, over the 512 a block has
// SMALL-NO-WHY: segment #0 reduction
// SMALL-NO-WHY-NOT: not one kernel
// EXEC-NOT: FAILED
// EXEC: check 0: {{.*}} ulp ok
func.func @rmsnorm(%x: tensor<64x256xf32>) -> tensor<64x256xf32> {
  %sq = fuser.mul %x, %x : tensor<64x256xf32>, tensor<64x256xf32> -> tensor<64x256xf32>
  %s = fuser.reduction add %sq [1] keepdim : tensor<64x256xf32> -> tensor<64x1xf32>
  %r = fuser.rsqrt %s : tensor<64x1xf32>
  %y = fuser.mul %x, %r : tensor<64x256xf32>, tensor<64x1xf32> -> tensor<64x256xf32>
  return %y : tensor<64x256xf32>
}
