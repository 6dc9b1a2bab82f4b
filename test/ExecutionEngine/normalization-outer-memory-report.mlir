// The memory report of outer normalization kernels: the column block is read
// from global memory once (the later thread loops read it back from shared
// memory, which the report does not count as global traffic), each output
// written once; a warp reads 32 consecutive columns of a row.
// RUN: fuser-run %S/../Conversion/FuserToSCF/Inputs/outer-normalization.mlir --entry middle --backend cpu --memory-report | FileCheck %s --check-prefix=MIDDLE
// RUN: fuser-run %S/../Conversion/FuserToSCF/Inputs/outer-normalization.mlir --entry colmean --backend cpu --memory-report | FileCheck %s --check-prefix=COLMEAN
// RUN: fuser-run %S/../Conversion/FuserToSCF/Inputs/outer-normalization.mlir --entry batchnorm --backend cpu --memory-report | FileCheck %s --check-prefix=BN
// RUN: fuser-run %S/../Conversion/FuserToSCF/Inputs/outer-normalization.mlir --entry colscale --backend cpu --memory-report | FileCheck %s --check-prefix=SCALE

// Rows of 40 f32 (160 bytes, whole sectors): every sector touched is needed.
// MIDDLE: kernel 0: middle_kernel (loops)
// MIDDLE-NEXT: launch: grid 4 x block 256
// MIDDLE: loaded: 4320 bytes (minimum 4320, 1.000x)
// MIDDLE-NEXT: stored: 4320 bytes (minimum 4320, 1.000x)
// MIDDLE-NEXT: load sectors: 135 touched, 135 fewest, efficiency 1.000
// MIDDLE-NEXT: store sectors: 135 touched, 135 fewest, efficiency 1.000
// MIDDLE: fusion: 1 kernel(s), moved 8640 bytes, minimum 8640 (1.000x)

// Rows of 50 f32 (200 bytes) start off the 32-byte sector grid, so a warp's
// 128 bytes of a row span 5 sectors rather than 4 (efficiency 0.906); the
// bytes are the minimum.
// COLMEAN: kernel 0: colmean_kernel (loops)
// COLMEAN: loaded: 7400 bytes (minimum 7400, 1.000x)
// COLMEAN-NEXT: stored: 7400 bytes (minimum 7400, 1.000x)
// COLMEAN: fusion: 1 kernel(s), moved 14800 bytes, minimum 14800 (1.000x)

// The weight and bias are read from global memory once per column (group 0
// stages them in shared memory for the output loop): every load is needed.
// BN: kernel 0: batchnorm_kernel (loops)
// BN: loaded: 102800 bytes (minimum 102800, 1.000x)
// BN-NEXT: stored: 103600 bytes (minimum 103600, 1.000x)
// BN: fusion: 1 kernel(s), moved 206400 bytes, minimum 206400 (1.000x)

// A per-column scale read by the first sum and a shift read by the outputs:
// each loaded once per column (by group 0, into shared memory).
// SCALE: kernel 0: colscale_kernel (loops)
// SCALE: loaded: 13824 bytes (minimum 13824, 1.000x)
// SCALE-NEXT: stored: 13632 bytes (minimum 13632, 1.000x)
