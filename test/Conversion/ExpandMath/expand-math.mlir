// RUN: fuser-opt %s --fuser-expand-math --split-input-file | FileCheck %s

// Rule: math.exp, math.log, math.tanh and math.erf on f32 scalars and
// vectors become PortableMath.h's arith/math sequence (the interpreter's
// algorithm): no math call of them is left, the vector form keeps the
// vector type throughout, and the result is the sequence's last select
// (NaN operands pass through).

// CHECK-LABEL: func.func @exp_f32
// CHECK-NOT: math.exp
// CHECK-DAG: arith.maxnumf
// CHECK-DAG: arith.minnumf
// CHECK-DAG: math.roundeven
// CHECK-DAG: math.fma
// CHECK-DAG: arith.fptosi {{.*}} : f32 to i32
// CHECK-DAG: arith.shli
// CHECK-DAG: arith.bitcast {{.*}} : i32 to f32
// CHECK: %[[NAN:.*]] = arith.cmpf uno, %arg0, %arg0 : f32
// CHECK: %[[R:.*]] = arith.select %[[NAN]], %arg0, %{{.*}} : f32
// CHECK: return %[[R]]
func.func @exp_f32(%x: f32) -> f32 {
  %0 = math.exp %x : f32
  return %0 : f32
}

// -----

// CHECK-LABEL: func.func @each_function_vector
// CHECK-NOT: math.exp
// CHECK-NOT: math.log
// CHECK-NOT: math.tanh
// CHECK-NOT: math.erf
// CHECK-DAG: math.fma {{.*}} : vector<8xf32>
// CHECK-DAG: arith.bitcast {{.*}} : vector<8xf32> to vector<8xi32>
// CHECK-DAG: arith.constant dense<{{.*}}> : vector<8xf32>
// CHECK-DAG: math.copysign {{.*}} : vector<8xf32>
// CHECK-DAG: arith.divf {{.*}} : vector<8xf32>
// CHECK: return
func.func @each_function_vector(%x: vector<8xf32>)
    -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>) {
  %0 = math.exp %x : vector<8xf32>
  %1 = math.log %x : vector<8xf32>
  %2 = math.tanh %x : vector<8xf32>
  %3 = math.erf %x : vector<8xf32>
  return %0, %1, %2, %3 : vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>
}

// -----

// Must NOT fire: f64 and f16 operands (f64 calls the C library in the
// interpreter too; f16 math reaches the CPU backend widened to f32), math
// functions without a portable algorithm (sin), and constant operands are
// not folded.

// CHECK-LABEL: func.func @left_alone
// CHECK: math.exp %{{.*}} : f64
// CHECK: math.erf %{{.*}} : vector<4xf16>
// CHECK: math.sin %{{.*}} : f32
// CHECK-NOT: math.exp
func.func @left_alone(%d: f64, %h: vector<4xf16>, %a: f32) -> (f64, vector<4xf16>, f32) {
  %0 = math.exp %d : f64
  %1 = math.erf %h : vector<4xf16>
  %2 = math.sin %a : f32
  return %0, %1, %2 : f64, vector<4xf16>, f32
}

// -----

// A constant operand is expanded, not folded with the host libm.
// CHECK-LABEL: func.func @constant_operand
// CHECK: %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-NOT: math.log
// CHECK: arith.cmpf uno, %[[ONE]], %[[ONE]]
func.func @constant_operand() -> f32 {
  %one = arith.constant 1.0 : f32
  %0 = math.log %one : f32
  return %0 : f32
}
