// fuser-translate --fuser-export-launch: the launch plan of the lowered
// Mistral example as JSON, and its cubin as a file (for bench/gpu_bench.py).
// RUN: rm -rf %t && mkdir -p %t
// RUN: fuser-opt %fuser_src_root/examples/mistral_rope_bwd.mlir --fuser-preseg --fuser-segment --fuser-lower-to-nvvm="chip=sm_90 format=bin" -o %t/lowered.mlir
// RUN: fuser-translate --fuser-export-launch --fuser-export-dir=%t %t/lowered.mlir -o %t/launch.json
// RUN: FileCheck %s < %t/launch.json
// RUN: %python -c "import json, sys; d = open(sys.argv[1], 'rb').read(); j = json.load(open(sys.argv[2])); assert d[:4] == b'\x7fELF' and len(d) == j['binaries'][0]['bytes'] and b'mistral_rope_bwd_kernel\0' in d; print('cubin ok')" %t/mistral_rope_bwd_kernel.cubin %t/launch.json | FileCheck %s --check-prefix=CUBIN
// CUBIN: cubin ok

// CHECK:      "function": "mistral_rope_bwd",
// CHECK:      {"index": 0, "role": "input", "kind": "buffer", "buffer": 0, "dtype": "bf16", "shape": [1, 32, 4096, 128], "bytes": 33554432},
// CHECK-NEXT: {"index": 1, "role": "output", "kind": "buffer", "buffer": 1, "dtype": "bf16", "shape": [1, 4096, 1024], "bytes": 8388608}
// CHECK:      "binaries": [
// CHECK-NEXT: {"index": 0, "name": "mistral_rope_bwd_kernel", "format": "bin", "chip": "sm_90", "file": "mistral_rope_bwd_kernel.cubin", "bytes": {{[0-9]+}}}
// CHECK:      "steps": [
// CHECK-NEXT: {"op": "launch", "binary": 0, "kernel": "mistral_rope_bwd_kernel", "grid": [2048, 1, 1], "block": [256, 1, 1], "shared_memory_bytes": 0, "min_bytes": 41943040, "args": [{"kind": "pointer", "buffer": 0}, {"kind": "pointer", "buffer": 1}]}
// CHECK-NEXT: ]

// Errors: a function that is not there.
// RUN: not fuser-translate --fuser-export-launch --fuser-export-function=g --fuser-export-dir=%t %t/lowered.mlir 2>&1 | FileCheck %s --check-prefix=ERR
// ERR: error: the lowered module has no function 'g'

// The lowered module may hold fuser attributes (preseg moves a set's
// cache_op onto the fusion argument): exported like any other (fuser-gen
// seed 5007 failed to parse before).
// RUN: fuser-opt %S/Inputs/export-cache-op.mlir --fuser-preseg --fuser-segment --fuser-lower-to-nvvm="chip=sm_90 format=bin" -o %t/cache-op.mlir
// RUN: FileCheck %s --check-prefix=CACHE-OP-IR < %t/cache-op.mlir
// RUN: fuser-translate --fuser-export-launch --fuser-export-dir=%t %t/cache-op.mlir | FileCheck %s --check-prefix=CACHE-OP
// CACHE-OP-IR: fuser.cache_op = #fuser<cache_op streaming>
// CACHE-OP: "function": "streamed",
// CACHE-OP: {"op": "launch", "binary": 0, "kernel": "streamed_kernel"
