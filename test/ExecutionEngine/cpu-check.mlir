// The `cpu` backend (docs/Lowering.md, "CPU backend") runs the kernels of the
// shared lowering on the host and matches the interpreter bit for bit:
// vector tails, broadcast size-1 dims, permuted outputs, alias segments,
// multi-kernel fusions and bf16/f16/f64/integer/i1 elements.
// RUN: fuser-run %fuser_src_root/examples/mistral_rope_bwd.mlir --backend cpu --check-against interp | FileCheck %s --check-prefix=MISTRAL
// RUN: fuser-run %s --entry tail --backend cpu --check-against interp --seed 3 | FileCheck %s --check-prefix=TAIL
// RUN: fuser-run %s --entry mixed --backend cpu --check-against interp | FileCheck %s --check-prefix=MIXED
// RUN: fuser-run %s --entry permuted --backend cpu --check-against interp | FileCheck %s --check-prefix=PERM
// RUN: fuser-run %s --entry ints --backend cpu --check-against interp | FileCheck %s --check-prefix=INTS
// RUN: fuser-run %s --entry alias --backend cpu --check-against interp | FileCheck %s --check-prefix=ALIAS
// RUN: fuser-run %s --entry two_kernels --backend cpu --check-against interp | FileCheck %s --check-prefix=TWO
// RUN: fuser-run %s --entry to_half --backend cpu --check-against interp | FileCheck %s --check-prefix=HALF
// RUN: fuser-run %s --entry transcendental --backend cpu --check-against interp | FileCheck %s --check-prefix=TRANS
// RUN: fuser-run %s --entry libm --backend cpu --check-against interp | FileCheck %s --check-prefix=LIBM
// RUN: fuser-run %s --entry bools --backend cpu --check-against interp | FileCheck %s --check-prefix=BOOL
// Alone, the backend prints the interpreter's checksum.
// RUN: fuser-run %s --entry tail --seed 3 | FileCheck %s --check-prefix=TAILHASH
// RUN: fuser-run %s --entry tail --seed 3 --backend cpu | FileCheck %s --check-prefix=TAILHASH

// MISTRAL: result 0: tensor<1x4096x1024xbf16>
// MISTRAL-NEXT: check 0: max_abs_err=0 max_ulp=0 tolerance=0 ulp ok

// 21 bf16 per row leave a tail after the 16-byte vectors; the second
// operand broadcasts its size-1 dim.
// TAIL: result 0: tensor<3x21xbf16>
// TAIL-NEXT: check 0: max_abs_err=0 max_ulp=0 tolerance=0 ulp ok
// TAILHASH: result 0: tensor<3x21xbf16> fnv1a64=0xf3b5a7e3c61dc840
func.func @tail(%a: tensor<3x21xbf16>, %b: tensor<1x21xbf16>) -> tensor<3x21xbf16> {
  %r = fuser.add %a, %b : tensor<3x21xbf16>, tensor<1x21xbf16> -> tensor<3x21xbf16>
  return %r : tensor<3x21xbf16>
}

// f16 and i1 elements and an f16 scalar.
// MIXED: check 0: max_abs_err=0 max_ulp=0 tolerance=0 ulp ok
// MIXED: check 1: max_abs_err=0 max_ulp=0 tolerance=0 ulp ok
func.func @mixed(%a: tensor<7xf16>, %b: tensor<7xf16>, %p: tensor<7xi1>, %s: f16) -> (tensor<7xf16>, tensor<7xi1>) {
  %sum = fuser.add %a, %b : tensor<7xf16>, tensor<7xf16> -> tensor<7xf16>
  %w = fuser.where %p, %sum, %s : tensor<7xi1>, tensor<7xf16>, f16 -> tensor<7xf16>
  %gt = fuser.gt %a, %b : tensor<7xf16>, tensor<7xf16> -> tensor<7xi1>
  return %w, %gt : tensor<7xf16>, tensor<7xi1>
}

// A squeezed size-1 dim and an output written in its permuted layout.
// PERM: result 0: tensor<17x3xf64>
// PERM-NEXT: check 0: max_abs_err=0 max_ulp=0 tolerance=0 ulp ok
func.func @permuted(%a: tensor<3x1x17xf64>) -> tensor<17x3xf64> {
  %s = fuser.squeeze %a [1] : tensor<3x1x17xf64> -> tensor<3x17xf64>
  %n = fuser.neg %s : tensor<3x17xf64>
  %t = fuser.permute %n [1, 0] : tensor<3x17xf64> -> tensor<17x3xf64>
  return %t : tensor<17x3xf64>
}

// Integer division (by zero included: the deterministic inputs hold 0) and
// an i64 sum.
// INTS: check 0: max_abs_err=0 max_ulp=0 tolerance=0 ulp ok
// INTS: check 1: max_abs_err=0 max_ulp=0 tolerance=0 ulp ok
func.func @ints(%a: tensor<4x9xi32>, %b: tensor<4x9xi32>) -> (tensor<4x9xi32>, tensor<4xi64>) {
  %q = fuser.div %a, %b : tensor<4x9xi32>, tensor<4x9xi32> -> tensor<4x9xi32>
  %c = fuser.cast %q : tensor<4x9xi32> to tensor<4x9xi64>
  %s = fuser.reduction add %c [1] : tensor<4x9xi64> -> tensor<4xi64>
  return %q, %s : tensor<4x9xi32>, tensor<4xi64>
}

// An alias segment: a strided view of the input copied into the output.
// ALIAS: result 0: tensor<3x2xf32>
// ALIAS-NEXT: check 0: max_abs_err=0 max_ulp=0 tolerance=0 ulp ok
func.func @alias(%a: tensor<2x3xf32>) -> tensor<3x2xf32> {
  %t = fuser.permute %a [1, 0] : tensor<2x3xf32> -> tensor<3x2xf32>
  return %t : tensor<3x2xf32>
}

// A reduction and a pointwise kernel that reads it.
// TWO: result 0: tensor<64x4x1024xbf16>
// TWO-NEXT: check 0: max_abs_err=0 max_ulp=0 tolerance=0 ulp ok
func.func @two_kernels(%x: tensor<64x4x1024xbf16>) -> tensor<64x4x1024xbf16> {
  %s = fuser.reduction add %x [1] keepdim : tensor<64x4x1024xbf16> -> tensor<64x1x1024xbf16>
  %c = fuser.cast %s : tensor<64x1x1024xbf16> to tensor<64x1x1024xf32>
  %xf = fuser.cast %x : tensor<64x4x1024xbf16> to tensor<64x4x1024xf32>
  %m = fuser.mul %xf, %c : tensor<64x4x1024xf32>, tensor<64x1x1024xf32> -> tensor<64x4x1024xf32>
  %r = fuser.cast %m : tensor<64x4x1024xf32> to tensor<64x4x1024xbf16>
  return %r : tensor<64x4x1024xbf16>
}

// f64 and i64 to f16/bf16 round once.
// HALF: check 0: max_abs_err=0 max_ulp=0 tolerance=0 ulp ok
// HALF: check 1: max_abs_err=0 max_ulp=0 tolerance=0 ulp ok
// HALF: check 2: max_abs_err=0 max_ulp=0 tolerance=0 ulp ok
func.func @to_half(%a: tensor<5x3xf64>, %i: tensor<5x3xi64>) -> (tensor<5x3xbf16>, tensor<5x3xf16>, tensor<5x3xbf16>) {
  %b = fuser.cast %a : tensor<5x3xf64> to tensor<5x3xbf16>
  %h = fuser.cast %a : tensor<5x3xf64> to tensor<5x3xf16>
  %c = fuser.cast %i : tensor<5x3xi64> to tensor<5x3xbf16>
  return %b, %h, %c : tensor<5x3xbf16>, tensor<5x3xf16>, tensor<5x3xbf16>
}

// f32 exp and tanh are the interpreter's own algorithms (PortableMath.h),
// vectorized: bit for bit. sin comes from the process's libm, one call per
// element, within the ulp tolerance.
// TRANS: check 0: max_abs_err=0 max_ulp=0 tolerance=0 ulp ok
// LIBM: check 0: {{.*}} tolerance=4 ulp ok
func.func @transcendental(%a: tensor<9x7xf32>) -> tensor<9x7xf32> {
  %e = fuser.exp %a : tensor<9x7xf32>
  %t = fuser.tanh %e : tensor<9x7xf32>
  return %t : tensor<9x7xf32>
}

func.func @libm(%a: tensor<9x7xf32>) -> tensor<9x7xf32> {
  %s = fuser.sin %a : tensor<9x7xf32>
  return %s : tensor<9x7xf32>
}

// BOOL: result 0: tensor<13xi1>
// BOOL-NEXT: check 0: max_abs_err=0 max_ulp=0 tolerance=0 ulp ok
func.func @bools(%a: tensor<13xi1>, %b: tensor<13xf32>) -> tensor<13xi1> {
  %c = fuser.cast %b : tensor<13xf32> to tensor<13xi1>
  %r = fuser.ne %a, %c : tensor<13xi1>, tensor<13xi1> -> tensor<13xi1>
  return %r : tensor<13xi1>
}
