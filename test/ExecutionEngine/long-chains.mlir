// Long fusions go through every tool and backend: the kernel emitter walks
// chains of elementwise and meta ops on an explicit stack (it recursed once
// per op and overflowed the stack: a 30000-op chain or DAG crashed
// convert-fuser-to-scf, the CPU backend and the memory report with SIGSEGV).
// RUN: %python %S/Inputs/long-chain.py chain 30000 > %t.chain.mlir
// RUN: %python %S/Inputs/long-chain.py dag 30000 > %t.dag.mlir
// RUN: %python %S/Inputs/long-chain.py chain 3000 > %t.short.mlir
// RUN: fuser-run %t.chain.mlir --backend cpu --check-against interp | FileCheck %s
// RUN: fuser-run %t.dag.mlir --backend cpu --check-against interp | FileCheck %s
// RUN: fuser-run %t.chain.mlir --backend cpu --memory-report --cuda-toolkit= | FileCheck %s --check-prefix=REPORT
// RUN: fuser-opt %t.dag.mlir --fuser-preseg --fuser-segment --fuser-schedule --convert-fuser-to-scf | FileCheck %s --check-prefix=SCF
// RUN: fuser-opt %t.short.mlir --fuser-preseg --fuser-segment --fuser-lower-to-nvvm="chip=sm_90 format=isa" | FileCheck %s --check-prefix=NVVM

// CHECK: check 0: max_abs_err=0 max_ulp=0 tolerance=0 ulp ok
// REPORT: kernel 0: kernel0
// REPORT: loaded: 8192 bytes (minimum 8192, 1.000x)
// REPORT-NOT: kernel 1:
// One kernel; the DAG's 30000 maximums inside it.
// SCF: scf.parallel
// SCF-COUNT-30000: arith.maximumf
// SCF-NOT: scf.parallel
// NVVM: gpu.launch_func
// NVVM-NOT: gpu.launch_func
