// --check-against compares two runs on the same inputs per result: exact
// agreement passes; an ulp beyond the tolerance fails with status 1.
// RUN: fuser-run %s --check-against interp | FileCheck %s --check-prefix=SELF
// RUN: sh -c 'fuser-run %s --check-against interp --against-file %S/Inputs/one-ulp.mlir; echo "exit=$?"' | FileCheck %s --check-prefix=ULP
// RUN: fuser-run %s --check-against interp --against-file %S/Inputs/one-ulp.mlir --ulp-tolerance 1 | FileCheck %s --check-prefix=TOL
// RUN: sh -c 'fuser-run %s --check-against interp --against-file %S/Inputs/one-ulp.mlir --json; echo "exit=$?"' | FileCheck %s --check-prefix=JSON
// RUN: fuser-run %s --entry transcendental --check-against interp | FileCheck %s --check-prefix=TRANS
// RUN: fuser-run %s --entry portable --check-against interp | FileCheck %s --check-prefix=PORTABLE
// RUN: sh -c 'fuser-run %s --entry transcendental --check-against interp --against-file %S/Inputs/one-ulp.mlir; echo "exit=$?"' 2>&1 | FileCheck %s --check-prefix=MISMATCH

// SELF: result 0: tensor<3xf32> fnv1a64=
// SELF-NEXT: check 0: max_abs_err=0 max_ulp=0 tolerance=0 ulp ok

// 1.0, 2.0 and -4.0 times (1 + 2^-23) are each one ulp away.
// ULP: check 0: max_abs_err=4.76837e-07 max_ulp=1 tolerance=0 ulp FAILED
// ULP: exit=1

// TOL: check 0: max_abs_err=4.76837e-07 max_ulp=1 tolerance=1 ulp ok

// JSON: "check": {"max_abs_err": 4.76837158203125e-07, "max_ulp": 1, "tolerance_ulp": 0, "passed": false, "verdict": "FAILED"}
// JSON: exit=1

// A function from the host libm may be a few ulp off between backends; f32
// exp is the interpreter's own algorithm on the CPU too (PortableMath.h):
// bit for bit.
// TRANS: check 0: max_abs_err=0 max_ulp=0 tolerance=4 ulp ok
// PORTABLE: check 0: max_abs_err=0 max_ulp=0 tolerance=0 ulp ok

// MISMATCH: one-ulp.mlir has no function named 'transcendental'
// MISMATCH: exit=2

func.func @scale() -> tensor<3xf32> {
  %c = arith.constant dense<[1.0, 2.0, -4.0]> : tensor<3xf32>
  %k = arith.constant 1.0 : f32
  %r = fuser.mul %c, %k : tensor<3xf32>, f32 -> tensor<3xf32>
  return %r : tensor<3xf32>
}

func.func @transcendental(%a: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %s = fuser.sin %a : tensor<4x8xf32>
  return %s : tensor<4x8xf32>
}

func.func @portable(%a: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = fuser.exp %a : tensor<4x8xf32>
  return %e : tensor<4x8xf32>
}
