// The memory report of normalization kernels: the row is read from global
// memory once (the later thread loops read it back from shared memory, which
// the report does not count as global traffic), each output written once.
// RUN: fuser-run %S/../Conversion/FuserToSCF/Inputs/normalization.mlir --entry softmax --backend cpu --memory-report | FileCheck %s --check-prefix=SOFTMAX
// RUN: fuser-run %S/../Conversion/FuserToSCF/Inputs/normalization.mlir --entry rmsnorm --backend cpu --memory-report | FileCheck %s --check-prefix=RMSNORM
// RUN: fuser-opt --fuser-preseg --fuser-segment %S/../Conversion/FuserToSCF/Inputs/normalization.mlir | fuser-opt --fuser-schedule=sm-count=16 -o %t.rows.mlir
// RUN: fuser-run %t.rows.mlir --entry rmsnorm --backend cpu --memory-report | FileCheck %s --check-prefix=ROWS
// RUN: fuser-opt --fuser-preseg --fuser-segment %S/../Conversion/FuserToSCF/Inputs/normalization.mlir | fuser-opt --fuser-schedule=sm-count=2 -o %t.share.mlir
// RUN: fuser-run %t.share.mlir --entry rmsnorm --backend cpu --memory-report | FileCheck %s --check-prefix=SHARE
// RUN: fuser-opt --fuser-preseg --fuser-segment %S/../Conversion/FuserToSCF/Inputs/normalization.mlir | fuser-opt --fuser-schedule=sm-count=1 -o %t.share1.mlir
// RUN: fuser-run %t.share1.mlir --entry rmsnorm --backend cpu --memory-report | FileCheck %s --check-prefix=SHARE
// RUN: fuser-run %t.share.mlir --entry rmsnorm --backend cpu --check-against interp --ulp-tolerance 0 | FileCheck %s --check-prefix=SHAREEXEC

// SOFTMAX: kernel 0: softmax_kernel (loops)
// SOFTMAX-NEXT: launch: grid 32 x block 128 = 4096 threads
// SOFTMAX-NEXT: ptxas: {{[0-9]+}} registers, 0 bytes spill stores, 0 bytes spill loads, 0 bytes stack frame, 0 bytes local, {{[0-9]+}} bytes shared
// SOFTMAX-NEXT: loaded: 65536 bytes (minimum 65536, 1.000x)
// SOFTMAX-NEXT: stored: 65536 bytes (minimum 65536, 1.000x)
// SOFTMAX-NEXT: load sectors: 2048 touched, 2048 fewest, efficiency 1.000
// SOFTMAX-NEXT: store sectors: 2048 touched, 2048 fewest, efficiency 1.000
// One 16-byte load and one 16-byte store per thread.
// SOFTMAX-NEXT: per thread: 1.00 loads (16 B: 1.00), 1.00 stores (16 B: 1.00)
// SOFTMAX: fusion: 1 kernel(s), moved 131072 bytes, minimum 131072 (1.000x)

// The row of x is read once; the weight row is read by every block (64
// blocks x 2000 bytes), which is what keeps RMSNorm above the minimum (a
// block per row: 64 rows are fewer than the 132 multiprocessors).
// RMSNORM: kernel 0: rmsnorm_kernel (loops)
// RMSNORM: loaded: 256000 bytes (minimum 130000, 1.969x)
// RMSNORM-NEXT: stored: 128000 bytes (minimum 128000, 1.000x)
// RMSNORM: instruction 0: vector.load arg0 16 B
// RMSNORM-NEXT: instruction 1: vector.load arg1 16 B
// RMSNORM-NEXT: instruction 2: vector.store out0 16 B
// RMSNORM-NOT: instruction 3
// RMSNORM: fusion: 1 kernel(s), moved 384000 bytes, minimum 258000 (1.488x)

// With 16 multiprocessors a block takes 4 rows and reads the weight once:
// 16 x 2000 bytes.
// ROWS: kernel 0: rmsnorm_kernel (loops)
// ROWS-NEXT: launch: grid 16 x block 128
// ROWS: loaded: 160000 bytes (minimum 130000, 1.231x)
// ROWS-NEXT: stored: 128000 bytes (minimum 128000, 1.000x)
// ROWS: fusion: 1 kernel(s), moved 288000 bytes, minimum 258000 (1.116x)

// A block takes rows (powers of two) until the weight reads add at most 5%
// of the bytes the kernel must move: 16 rows a block, 4 x 2000 bytes of
// weight, 1.023x. With 2 multiprocessors that is reached within the grid's
// limit; with 1 the block still stops at 16 rows (must not take 32: the
// share is met, and more rows per block would only cost parallelism).
// SHARE: kernel 0: rmsnorm_kernel (loops)
// SHARE-NEXT: launch: grid 4 x block 128
// SHARE: loaded: 136000 bytes (minimum 130000, 1.046x)
// SHARE-NEXT: stored: 128000 bytes (minimum 128000, 1.000x)
// SHARE: fusion: 1 kernel(s), moved 264000 bytes, minimum 258000 (1.023x)
// The 16 unrolled rows of a block give the interpreter's results.
// SHAREEXEC: check 0: max_abs_err=0 max_ulp=0 tolerance=0 ulp ok
