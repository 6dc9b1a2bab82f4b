// Pad, cat and reduction evaluate their operands from inside their own
// loops and selects, recursively: at most 200 nested in one kernel, beyond
// which the kernel lowering says so, located on the op, instead of
// overflowing the stack. The interpreter runs the same fusion.
// RUN: %python -c "import sys; sys.path.insert(0, '%fuser_src_root/scripts'); import stress; print(stress.pads(200))" > %t.200.mlir
// RUN: %python -c "import sys; sys.path.insert(0, '%fuser_src_root/scripts'); import stress; print(stress.pads(201))" > %t.201.mlir
// RUN: fuser-run %t.200.mlir --backend cpu --check-against interp | FileCheck %s
// RUN: fuser-run %t.201.mlir | FileCheck %s --check-prefix=INTERP
// RUN: not fuser-run %t.201.mlir --backend cpu 2>&1 | FileCheck %s --check-prefix=DEEP
// RUN: not fuser-opt %t.201.mlir --fuser-preseg --fuser-segment --fuser-lower-to-nvvm="chip=sm_90 format=isa" -o /dev/null 2>&1 | FileCheck %s --check-prefix=DEEP
// CHECK: check 0: {{.*}} ok
// INTERP: result 0: tensor<209xf32>
// DEEP: .201.mlir:4:{{[0-9]+}}: error: the kernel lowering nests pad, cat, gather and reduction evaluations at most 200 deep in one kernel; split the fusion here (fuser.segment_set)
