// Bad input exits with status 2 and says what was wrong; it never crashes.
// RUN: sh -c 'fuser-run %S/Inputs/unparsable.mlir; echo "exit=$?"' 2>&1 | FileCheck %s --check-prefix=PARSE
// RUN: sh -c 'fuser-run %S/Inputs/invalid.mlir; echo "exit=$?"' 2>&1 | FileCheck %s --check-prefix=VERIFY
// RUN: sh -c 'fuser-run %s --entry nope; echo "exit=$?"' 2>&1 | FileCheck %s --check-prefix=ENTRY
// RUN: sh -c 'fuser-run %s --entry unsupported; echo "exit=$?"' 2>&1 | FileCheck %s --check-prefix=BADOP
// RUN: sh -c 'fuser-run %s --entry dynamic; echo "exit=$?"' 2>&1 | FileCheck %s --check-prefix=DYNAMIC
// RUN: sh -c 'fuser-run %s --entry scale --max-bytes 8; echo "exit=$?"' 2>&1 | FileCheck %s --check-prefix=TOOBIG
// RUN: sh -c 'fuser-run %s --entry big_arg --max-bytes 1000; echo "exit=$?"' 2>&1 | FileCheck %s --check-prefix=BIGARG
// RUN: sh -c 'FUSER_CUDA_DRIVER=/nonexistent/libcuda.so fuser-run %s --backend cuda; echo "exit=$?"' 2>&1 | FileCheck %s --check-prefix=CUDA
// RUN: sh -c 'fuser-run %s --entry unsupported --backend cpu; echo "exit=$?"' 2>&1 | FileCheck %s --check-prefix=CPU
// RUN: sh -c 'fuser-run %s --backend tpu; echo "exit=$?"' 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: sh -c 'fuser-run %s --bogus-flag; echo "exit=$?"' 2>&1 | FileCheck %s --check-prefix=FLAG
// RUN: sh -c 'fuser-run %S/Inputs/does-not-exist.mlir; echo "exit=$?"' 2>&1 | FileCheck %s --check-prefix=MISSING

// PARSE: unparsable.mlir:2:35: error: expected '>' in tensor type
// PARSE: could not parse
// PARSE: exit=2

// VERIFY: error: 'fuser.view' op changes the element count from 6 to 9
// VERIFY: exit=2

// ENTRY: has no function named 'nope'; it has: scale unsupported dynamic big_arg
// ENTRY: exit=2

// BADOP: error: unsupported op 'arith.xori' in the interpreter
// BADOP: exit=2

// DYNAMIC: error: argument 0 has the dynamic shape 'tensor<?xf32>'; only static shapes are supported
// DYNAMIC: exit=2

// TOOBIG: error: a value of type 'tensor<3xf32>' takes 12 bytes, more than the limit of 8 bytes
// TOOBIG: exit=2

// BIGARG: error: argument 0 of type 'tensor<1000000000000x1000000000000xf64>' takes more than 18446744073709551615 bytes (the size overflows 64 bits), more than the limit of 1000 bytes (--max-bytes)
// BIGARG: exit=2

// CUDA: backend cuda is not available: no CUDA driver found{{.*}}
// CUDA: exit=2
// CPU: errors.mlir:{{[0-9]+}}:{{[0-9]+}}: error:
// CPU: exit=2
// UNKNOWN: unknown backend 'tpu' (expected interp, cpu, cuda or simt)
// UNKNOWN: exit=2
// FLAG: Unknown command line argument '--bogus-flag'
// FLAG: exit=2
// MISSING: does-not-exist.mlir
// MISSING: exit=2

func.func @scale() -> tensor<3xf32> {
  %c = arith.constant dense<[1.0, 2.0, -4.0]> : tensor<3xf32>
  %k = arith.constant 1.0 : f32
  %r = fuser.mul %c, %k : tensor<3xf32>, f32 -> tensor<3xf32>
  return %r : tensor<3xf32>
}

func.func @unsupported(%a: i32) -> i32 {
  %b = arith.xori %a, %a : i32
  return %b : i32
}

func.func @dynamic(%a: tensor<?xf32>) -> tensor<?xf32> {
  return %a : tensor<?xf32>
}

func.func @big_arg(%a: tensor<1000000000000x1000000000000xf64>) -> tensor<1000000000000x1000000000000xf64> {
  return %a : tensor<1000000000000x1000000000000xf64>
}
