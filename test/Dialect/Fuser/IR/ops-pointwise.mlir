// Round trip of the pointwise ops: unary, binary (with size-1 broadcasting
// and scalar operands), compare, where, full, iota, uniform, normal and
// gather.
// RUN: fuser-opt %s | FileCheck %s
// RUN: fuser-opt %s | fuser-opt | FileCheck %s
// RUN: fuser-opt %s --mlir-print-op-generic | fuser-opt | FileCheck %s

// Float unary ops, on a bf16 tensor and an f32 scalar.
// CHECK-LABEL: func.func @unary_float
// CHECK-SAME: (%[[T:[^:]*]]: tensor<8x4096xbf16>, %[[S:[^:]*]]: f32)
// CHECK-NEXT: %{{.*}} = fuser.exp %[[T]] : tensor<8x4096xbf16>
// CHECK-NEXT: %{{.*}} = fuser.exp %[[S]] : f32
// CHECK-NEXT: %{{.*}} = fuser.log %[[T]] : tensor<8x4096xbf16>
// CHECK-NEXT: %{{.*}} = fuser.log %[[S]] : f32
// CHECK-NEXT: %{{.*}} = fuser.sqrt %[[T]] : tensor<8x4096xbf16>
// CHECK-NEXT: %{{.*}} = fuser.sqrt %[[S]] : f32
// CHECK-NEXT: %{{.*}} = fuser.rsqrt %[[T]] : tensor<8x4096xbf16>
// CHECK-NEXT: %{{.*}} = fuser.rsqrt %[[S]] : f32
// CHECK-NEXT: %{{.*}} = fuser.reciprocal %[[T]] : tensor<8x4096xbf16>
// CHECK-NEXT: %{{.*}} = fuser.reciprocal %[[S]] : f32
// CHECK-NEXT: %{{.*}} = fuser.sin %[[T]] : tensor<8x4096xbf16>
// CHECK-NEXT: %{{.*}} = fuser.sin %[[S]] : f32
// CHECK-NEXT: %{{.*}} = fuser.cos %[[T]] : tensor<8x4096xbf16>
// CHECK-NEXT: %{{.*}} = fuser.cos %[[S]] : f32
// CHECK-NEXT: %{{.*}} = fuser.tanh %[[T]] : tensor<8x4096xbf16>
// CHECK-NEXT: %{{.*}} = fuser.tanh %[[S]] : f32
// CHECK-NEXT: %{{.*}} = fuser.sigmoid %[[T]] : tensor<8x4096xbf16>
// CHECK-NEXT: %{{.*}} = fuser.sigmoid %[[S]] : f32
func.func @unary_float(%t: tensor<8x4096xbf16>, %s: f32) {
  %t0 = fuser.exp %t : tensor<8x4096xbf16>
  %s0 = fuser.exp %s : f32
  %t1 = fuser.log %t : tensor<8x4096xbf16>
  %s1 = fuser.log %s : f32
  %t2 = fuser.sqrt %t : tensor<8x4096xbf16>
  %s2 = fuser.sqrt %s : f32
  %t3 = fuser.rsqrt %t : tensor<8x4096xbf16>
  %s3 = fuser.rsqrt %s : f32
  %t4 = fuser.reciprocal %t : tensor<8x4096xbf16>
  %s4 = fuser.reciprocal %s : f32
  %t5 = fuser.sin %t : tensor<8x4096xbf16>
  %s5 = fuser.sin %s : f32
  %t6 = fuser.cos %t : tensor<8x4096xbf16>
  %s6 = fuser.cos %s : f32
  %t7 = fuser.tanh %t : tensor<8x4096xbf16>
  %s7 = fuser.tanh %s : f32
  %t8 = fuser.sigmoid %t : tensor<8x4096xbf16>
  %s8 = fuser.sigmoid %s : f32
  return
}

// neg and abs also take integers (and every float type).
// CHECK-LABEL: func.func @unary_numeric
// CHECK-NEXT: fuser.neg %{{.*}} : tensor<4xi32>
// CHECK-NEXT: fuser.neg %{{.*}} : tensor<2x3xi64>
// CHECK-NEXT: fuser.neg %{{.*}} : tensor<4xf16>
// CHECK-NEXT: fuser.neg %{{.*}} : tensor<4xf64>
// CHECK-NEXT: fuser.neg %{{.*}} : i64
// CHECK-NEXT: fuser.abs %{{.*}} : tensor<4xi32>
// CHECK-NEXT: fuser.abs %{{.*}} : tensor<2x3xi64>
// CHECK-NEXT: fuser.abs %{{.*}} : tensor<4xf16>
// CHECK-NEXT: fuser.abs %{{.*}} : tensor<4xf64>
// CHECK-NEXT: fuser.abs %{{.*}} : i64
func.func @unary_numeric(%a: tensor<4xi32>, %b: tensor<2x3xi64>, %c: tensor<4xf16>, %d: tensor<4xf64>, %e: i64) {
  %neg_a = fuser.neg %a : tensor<4xi32>
  %neg_b = fuser.neg %b : tensor<2x3xi64>
  %neg_c = fuser.neg %c : tensor<4xf16>
  %neg_d = fuser.neg %d : tensor<4xf64>
  %neg_e = fuser.neg %e : i64
  %abs_a = fuser.abs %a : tensor<4xi32>
  %abs_b = fuser.abs %b : tensor<2x3xi64>
  %abs_c = fuser.abs %c : tensor<4xf16>
  %abs_d = fuser.abs %d : tensor<4xf64>
  %abs_e = fuser.abs %e : i64
  return
}

// Every binary op: equal shapes; size-1 dims broadcasting on both sides;
// a tensor with a scalar argument; a constant scalar with a tensor; two scalars.
// CHECK-LABEL: func.func @binary
// CHECK-SAME: (%[[A:[^:]*]]: tensor<8x1x128xf32>, %[[B:[^:]*]]: tensor<1x4x128xf32>, %[[S:[^:]*]]: f32)
// CHECK-NEXT: %[[C:.*]] = arith.constant 2.000000e+00 : f32
// CHECK-NEXT: fuser.add %[[A]], %[[A]] : tensor<8x1x128xf32>, tensor<8x1x128xf32> -> tensor<8x1x128xf32>
// CHECK-NEXT: fuser.add %[[A]], %[[B]] : tensor<8x1x128xf32>, tensor<1x4x128xf32> -> tensor<8x4x128xf32>
// CHECK-NEXT: fuser.add %[[A]], %[[S]] : tensor<8x1x128xf32>, f32 -> tensor<8x1x128xf32>
// CHECK-NEXT: fuser.add %[[C]], %[[B]] : f32, tensor<1x4x128xf32> -> tensor<1x4x128xf32>
// CHECK-NEXT: fuser.add %[[S]], %[[C]] : f32, f32 -> f32
// CHECK-NEXT: fuser.sub %[[A]], %[[A]] : tensor<8x1x128xf32>, tensor<8x1x128xf32> -> tensor<8x1x128xf32>
// CHECK-NEXT: fuser.sub %[[A]], %[[B]] : tensor<8x1x128xf32>, tensor<1x4x128xf32> -> tensor<8x4x128xf32>
// CHECK-NEXT: fuser.sub %[[A]], %[[S]] : tensor<8x1x128xf32>, f32 -> tensor<8x1x128xf32>
// CHECK-NEXT: fuser.sub %[[C]], %[[B]] : f32, tensor<1x4x128xf32> -> tensor<1x4x128xf32>
// CHECK-NEXT: fuser.sub %[[S]], %[[C]] : f32, f32 -> f32
// CHECK-NEXT: fuser.mul %[[A]], %[[A]] : tensor<8x1x128xf32>, tensor<8x1x128xf32> -> tensor<8x1x128xf32>
// CHECK-NEXT: fuser.mul %[[A]], %[[B]] : tensor<8x1x128xf32>, tensor<1x4x128xf32> -> tensor<8x4x128xf32>
// CHECK-NEXT: fuser.mul %[[A]], %[[S]] : tensor<8x1x128xf32>, f32 -> tensor<8x1x128xf32>
// CHECK-NEXT: fuser.mul %[[C]], %[[B]] : f32, tensor<1x4x128xf32> -> tensor<1x4x128xf32>
// CHECK-NEXT: fuser.mul %[[S]], %[[C]] : f32, f32 -> f32
// CHECK-NEXT: fuser.div %[[A]], %[[A]] : tensor<8x1x128xf32>, tensor<8x1x128xf32> -> tensor<8x1x128xf32>
// CHECK-NEXT: fuser.div %[[A]], %[[B]] : tensor<8x1x128xf32>, tensor<1x4x128xf32> -> tensor<8x4x128xf32>
// CHECK-NEXT: fuser.div %[[A]], %[[S]] : tensor<8x1x128xf32>, f32 -> tensor<8x1x128xf32>
// CHECK-NEXT: fuser.div %[[C]], %[[B]] : f32, tensor<1x4x128xf32> -> tensor<1x4x128xf32>
// CHECK-NEXT: fuser.div %[[S]], %[[C]] : f32, f32 -> f32
// CHECK-NEXT: fuser.maximum %[[A]], %[[A]] : tensor<8x1x128xf32>, tensor<8x1x128xf32> -> tensor<8x1x128xf32>
// CHECK-NEXT: fuser.maximum %[[A]], %[[B]] : tensor<8x1x128xf32>, tensor<1x4x128xf32> -> tensor<8x4x128xf32>
// CHECK-NEXT: fuser.maximum %[[A]], %[[S]] : tensor<8x1x128xf32>, f32 -> tensor<8x1x128xf32>
// CHECK-NEXT: fuser.maximum %[[C]], %[[B]] : f32, tensor<1x4x128xf32> -> tensor<1x4x128xf32>
// CHECK-NEXT: fuser.maximum %[[S]], %[[C]] : f32, f32 -> f32
// CHECK-NEXT: fuser.minimum %[[A]], %[[A]] : tensor<8x1x128xf32>, tensor<8x1x128xf32> -> tensor<8x1x128xf32>
// CHECK-NEXT: fuser.minimum %[[A]], %[[B]] : tensor<8x1x128xf32>, tensor<1x4x128xf32> -> tensor<8x4x128xf32>
// CHECK-NEXT: fuser.minimum %[[A]], %[[S]] : tensor<8x1x128xf32>, f32 -> tensor<8x1x128xf32>
// CHECK-NEXT: fuser.minimum %[[C]], %[[B]] : f32, tensor<1x4x128xf32> -> tensor<1x4x128xf32>
// CHECK-NEXT: fuser.minimum %[[S]], %[[C]] : f32, f32 -> f32
// CHECK-NEXT: fuser.pow %[[A]], %[[A]] : tensor<8x1x128xf32>, tensor<8x1x128xf32> -> tensor<8x1x128xf32>
// CHECK-NEXT: fuser.pow %[[A]], %[[B]] : tensor<8x1x128xf32>, tensor<1x4x128xf32> -> tensor<8x4x128xf32>
// CHECK-NEXT: fuser.pow %[[A]], %[[S]] : tensor<8x1x128xf32>, f32 -> tensor<8x1x128xf32>
// CHECK-NEXT: fuser.pow %[[C]], %[[B]] : f32, tensor<1x4x128xf32> -> tensor<1x4x128xf32>
// CHECK-NEXT: fuser.pow %[[S]], %[[C]] : f32, f32 -> f32
func.func @binary(%a: tensor<8x1x128xf32>, %b: tensor<1x4x128xf32>, %s: f32) {
  %c = arith.constant 2.0 : f32
  %add0 = fuser.add %a, %a : tensor<8x1x128xf32>, tensor<8x1x128xf32> -> tensor<8x1x128xf32>
  %add1 = fuser.add %a, %b : tensor<8x1x128xf32>, tensor<1x4x128xf32> -> tensor<8x4x128xf32>
  %add2 = fuser.add %a, %s : tensor<8x1x128xf32>, f32 -> tensor<8x1x128xf32>
  %add3 = fuser.add %c, %b : f32, tensor<1x4x128xf32> -> tensor<1x4x128xf32>
  %add4 = fuser.add %s, %c : f32, f32 -> f32
  %sub0 = fuser.sub %a, %a : tensor<8x1x128xf32>, tensor<8x1x128xf32> -> tensor<8x1x128xf32>
  %sub1 = fuser.sub %a, %b : tensor<8x1x128xf32>, tensor<1x4x128xf32> -> tensor<8x4x128xf32>
  %sub2 = fuser.sub %a, %s : tensor<8x1x128xf32>, f32 -> tensor<8x1x128xf32>
  %sub3 = fuser.sub %c, %b : f32, tensor<1x4x128xf32> -> tensor<1x4x128xf32>
  %sub4 = fuser.sub %s, %c : f32, f32 -> f32
  %mul0 = fuser.mul %a, %a : tensor<8x1x128xf32>, tensor<8x1x128xf32> -> tensor<8x1x128xf32>
  %mul1 = fuser.mul %a, %b : tensor<8x1x128xf32>, tensor<1x4x128xf32> -> tensor<8x4x128xf32>
  %mul2 = fuser.mul %a, %s : tensor<8x1x128xf32>, f32 -> tensor<8x1x128xf32>
  %mul3 = fuser.mul %c, %b : f32, tensor<1x4x128xf32> -> tensor<1x4x128xf32>
  %mul4 = fuser.mul %s, %c : f32, f32 -> f32
  %div0 = fuser.div %a, %a : tensor<8x1x128xf32>, tensor<8x1x128xf32> -> tensor<8x1x128xf32>
  %div1 = fuser.div %a, %b : tensor<8x1x128xf32>, tensor<1x4x128xf32> -> tensor<8x4x128xf32>
  %div2 = fuser.div %a, %s : tensor<8x1x128xf32>, f32 -> tensor<8x1x128xf32>
  %div3 = fuser.div %c, %b : f32, tensor<1x4x128xf32> -> tensor<1x4x128xf32>
  %div4 = fuser.div %s, %c : f32, f32 -> f32
  %maximum0 = fuser.maximum %a, %a : tensor<8x1x128xf32>, tensor<8x1x128xf32> -> tensor<8x1x128xf32>
  %maximum1 = fuser.maximum %a, %b : tensor<8x1x128xf32>, tensor<1x4x128xf32> -> tensor<8x4x128xf32>
  %maximum2 = fuser.maximum %a, %s : tensor<8x1x128xf32>, f32 -> tensor<8x1x128xf32>
  %maximum3 = fuser.maximum %c, %b : f32, tensor<1x4x128xf32> -> tensor<1x4x128xf32>
  %maximum4 = fuser.maximum %s, %c : f32, f32 -> f32
  %minimum0 = fuser.minimum %a, %a : tensor<8x1x128xf32>, tensor<8x1x128xf32> -> tensor<8x1x128xf32>
  %minimum1 = fuser.minimum %a, %b : tensor<8x1x128xf32>, tensor<1x4x128xf32> -> tensor<8x4x128xf32>
  %minimum2 = fuser.minimum %a, %s : tensor<8x1x128xf32>, f32 -> tensor<8x1x128xf32>
  %minimum3 = fuser.minimum %c, %b : f32, tensor<1x4x128xf32> -> tensor<1x4x128xf32>
  %minimum4 = fuser.minimum %s, %c : f32, f32 -> f32
  %pow0 = fuser.pow %a, %a : tensor<8x1x128xf32>, tensor<8x1x128xf32> -> tensor<8x1x128xf32>
  %pow1 = fuser.pow %a, %b : tensor<8x1x128xf32>, tensor<1x4x128xf32> -> tensor<8x4x128xf32>
  %pow2 = fuser.pow %a, %s : tensor<8x1x128xf32>, f32 -> tensor<8x1x128xf32>
  %pow3 = fuser.pow %c, %b : f32, tensor<1x4x128xf32> -> tensor<1x4x128xf32>
  %pow4 = fuser.pow %s, %c : f32, f32 -> f32
  return
}

// Integer and half-precision binary ops, rank 0 included.
// CHECK-LABEL: func.func @binary_types
// CHECK-NEXT: fuser.add %{{.*}}, %{{.*}} : tensor<4x1xi32>, tensor<1x6xi32> -> tensor<4x6xi32>
// CHECK-NEXT: fuser.div %{{.*}}, %{{.*}} : tensor<i64>, tensor<i64> -> tensor<i64>
// CHECK-NEXT: fuser.pow %{{.*}}, %{{.*}} : tensor<3xf16>, tensor<1xf16> -> tensor<3xf16>
// CHECK-NEXT: fuser.maximum %{{.*}}, %{{.*}} : tensor<3xf64>, f64 -> tensor<3xf64>
func.func @binary_types(%a: tensor<4x1xi32>, %b: tensor<1x6xi32>, %c: tensor<i64>, %d: tensor<3xf16>, %e: tensor<1xf16>, %f: tensor<3xf64>, %g: f64) {
  %0 = fuser.add %a, %b : tensor<4x1xi32>, tensor<1x6xi32> -> tensor<4x6xi32>
  %1 = fuser.div %c, %c : tensor<i64>, tensor<i64> -> tensor<i64>
  %2 = fuser.pow %d, %e : tensor<3xf16>, tensor<1xf16> -> tensor<3xf16>
  %3 = fuser.maximum %f, %g : tensor<3xf64>, f64 -> tensor<3xf64>
  return
}

// Compare ops give i1, with the same broadcasting; i1 operands compare too.
// CHECK-LABEL: func.func @compare
// CHECK-SAME: (%[[A:[^:]*]]: tensor<8x1xbf16>, %[[B:[^:]*]]: tensor<1x16xbf16>, %[[S:[^:]*]]: bf16, %[[P:[^:]*]]: tensor<4xi1>)
// CHECK-NEXT: fuser.eq %[[A]], %[[B]] : tensor<8x1xbf16>, tensor<1x16xbf16> -> tensor<8x16xi1>
// CHECK-NEXT: fuser.eq %[[A]], %[[S]] : tensor<8x1xbf16>, bf16 -> tensor<8x1xi1>
// CHECK-NEXT: fuser.eq %[[S]], %[[S]] : bf16, bf16 -> i1
// CHECK-NEXT: fuser.eq %[[P]], %[[P]] : tensor<4xi1>, tensor<4xi1> -> tensor<4xi1>
// CHECK-NEXT: fuser.ne %[[A]], %[[B]] : tensor<8x1xbf16>, tensor<1x16xbf16> -> tensor<8x16xi1>
// CHECK-NEXT: fuser.ne %[[A]], %[[S]] : tensor<8x1xbf16>, bf16 -> tensor<8x1xi1>
// CHECK-NEXT: fuser.ne %[[S]], %[[S]] : bf16, bf16 -> i1
// CHECK-NEXT: fuser.ne %[[P]], %[[P]] : tensor<4xi1>, tensor<4xi1> -> tensor<4xi1>
// CHECK-NEXT: fuser.lt %[[A]], %[[B]] : tensor<8x1xbf16>, tensor<1x16xbf16> -> tensor<8x16xi1>
// CHECK-NEXT: fuser.lt %[[A]], %[[S]] : tensor<8x1xbf16>, bf16 -> tensor<8x1xi1>
// CHECK-NEXT: fuser.lt %[[S]], %[[S]] : bf16, bf16 -> i1
// CHECK-NEXT: fuser.lt %[[P]], %[[P]] : tensor<4xi1>, tensor<4xi1> -> tensor<4xi1>
// CHECK-NEXT: fuser.le %[[A]], %[[B]] : tensor<8x1xbf16>, tensor<1x16xbf16> -> tensor<8x16xi1>
// CHECK-NEXT: fuser.le %[[A]], %[[S]] : tensor<8x1xbf16>, bf16 -> tensor<8x1xi1>
// CHECK-NEXT: fuser.le %[[S]], %[[S]] : bf16, bf16 -> i1
// CHECK-NEXT: fuser.le %[[P]], %[[P]] : tensor<4xi1>, tensor<4xi1> -> tensor<4xi1>
// CHECK-NEXT: fuser.gt %[[A]], %[[B]] : tensor<8x1xbf16>, tensor<1x16xbf16> -> tensor<8x16xi1>
// CHECK-NEXT: fuser.gt %[[A]], %[[S]] : tensor<8x1xbf16>, bf16 -> tensor<8x1xi1>
// CHECK-NEXT: fuser.gt %[[S]], %[[S]] : bf16, bf16 -> i1
// CHECK-NEXT: fuser.gt %[[P]], %[[P]] : tensor<4xi1>, tensor<4xi1> -> tensor<4xi1>
// CHECK-NEXT: fuser.ge %[[A]], %[[B]] : tensor<8x1xbf16>, tensor<1x16xbf16> -> tensor<8x16xi1>
// CHECK-NEXT: fuser.ge %[[A]], %[[S]] : tensor<8x1xbf16>, bf16 -> tensor<8x1xi1>
// CHECK-NEXT: fuser.ge %[[S]], %[[S]] : bf16, bf16 -> i1
// CHECK-NEXT: fuser.ge %[[P]], %[[P]] : tensor<4xi1>, tensor<4xi1> -> tensor<4xi1>
func.func @compare(%a: tensor<8x1xbf16>, %b: tensor<1x16xbf16>, %s: bf16, %p: tensor<4xi1>) {
  %eq0 = fuser.eq %a, %b : tensor<8x1xbf16>, tensor<1x16xbf16> -> tensor<8x16xi1>
  %eq1 = fuser.eq %a, %s : tensor<8x1xbf16>, bf16 -> tensor<8x1xi1>
  %eq2 = fuser.eq %s, %s : bf16, bf16 -> i1
  %eq3 = fuser.eq %p, %p : tensor<4xi1>, tensor<4xi1> -> tensor<4xi1>
  %ne0 = fuser.ne %a, %b : tensor<8x1xbf16>, tensor<1x16xbf16> -> tensor<8x16xi1>
  %ne1 = fuser.ne %a, %s : tensor<8x1xbf16>, bf16 -> tensor<8x1xi1>
  %ne2 = fuser.ne %s, %s : bf16, bf16 -> i1
  %ne3 = fuser.ne %p, %p : tensor<4xi1>, tensor<4xi1> -> tensor<4xi1>
  %lt0 = fuser.lt %a, %b : tensor<8x1xbf16>, tensor<1x16xbf16> -> tensor<8x16xi1>
  %lt1 = fuser.lt %a, %s : tensor<8x1xbf16>, bf16 -> tensor<8x1xi1>
  %lt2 = fuser.lt %s, %s : bf16, bf16 -> i1
  %lt3 = fuser.lt %p, %p : tensor<4xi1>, tensor<4xi1> -> tensor<4xi1>
  %le0 = fuser.le %a, %b : tensor<8x1xbf16>, tensor<1x16xbf16> -> tensor<8x16xi1>
  %le1 = fuser.le %a, %s : tensor<8x1xbf16>, bf16 -> tensor<8x1xi1>
  %le2 = fuser.le %s, %s : bf16, bf16 -> i1
  %le3 = fuser.le %p, %p : tensor<4xi1>, tensor<4xi1> -> tensor<4xi1>
  %gt0 = fuser.gt %a, %b : tensor<8x1xbf16>, tensor<1x16xbf16> -> tensor<8x16xi1>
  %gt1 = fuser.gt %a, %s : tensor<8x1xbf16>, bf16 -> tensor<8x1xi1>
  %gt2 = fuser.gt %s, %s : bf16, bf16 -> i1
  %gt3 = fuser.gt %p, %p : tensor<4xi1>, tensor<4xi1> -> tensor<4xi1>
  %ge0 = fuser.ge %a, %b : tensor<8x1xbf16>, tensor<1x16xbf16> -> tensor<8x16xi1>
  %ge1 = fuser.ge %a, %s : tensor<8x1xbf16>, bf16 -> tensor<8x1xi1>
  %ge2 = fuser.ge %s, %s : bf16, bf16 -> i1
  %ge3 = fuser.ge %p, %p : tensor<4xi1>, tensor<4xi1> -> tensor<4xi1>
  return
}

// where: the condition broadcasts with both branches; branches may be scalars.
// CHECK-LABEL: func.func @where
// CHECK-SAME: (%[[C:[^:]*]]: tensor<8x1xi1>, %[[A:[^:]*]]: tensor<1x16xf32>, %[[B:[^:]*]]: tensor<8x16xf32>, %[[S:[^:]*]]: f32, %[[P:[^:]*]]: i1)
// CHECK-NEXT: %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: fuser.where %[[C]], %[[A]], %[[B]] : tensor<8x1xi1>, tensor<1x16xf32>, tensor<8x16xf32> -> tensor<8x16xf32>
// CHECK-NEXT: fuser.where %[[C]], %[[A]], %[[Z]] : tensor<8x1xi1>, tensor<1x16xf32>, f32 -> tensor<8x16xf32>
// CHECK-NEXT: fuser.where %[[C]], %[[S]], %[[Z]] : tensor<8x1xi1>, f32, f32 -> tensor<8x1xf32>
// CHECK-NEXT: fuser.where %[[P]], %[[S]], %[[Z]] : i1, f32, f32 -> f32
func.func @where(%c: tensor<8x1xi1>, %a: tensor<1x16xf32>, %b: tensor<8x16xf32>, %s: f32, %p: i1) {
  %zero = arith.constant 0.0 : f32
  %0 = fuser.where %c, %a, %b : tensor<8x1xi1>, tensor<1x16xf32>, tensor<8x16xf32> -> tensor<8x16xf32>
  %1 = fuser.where %c, %a, %zero : tensor<8x1xi1>, tensor<1x16xf32>, f32 -> tensor<8x16xf32>
  %2 = fuser.where %c, %s, %zero : tensor<8x1xi1>, f32, f32 -> tensor<8x1xf32>
  %3 = fuser.where %p, %s, %zero : i1, f32, f32 -> f32
  return
}

// full from a constant and from a scalar argument, every element type.
// CHECK-LABEL: func.func @full
// CHECK-SAME: (%[[S:[^:]*]]: bf16)
// CHECK-NEXT: %[[C:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %[[T:.*]] = arith.constant true
// CHECK-NEXT: %[[I:.*]] = arith.constant 7 : i64
// CHECK-NEXT: fuser.full %[[C]] : f32 -> tensor<4x8xf32>
// CHECK-NEXT: fuser.full %[[S]] : bf16 -> tensor<2xbf16>
// CHECK-NEXT: fuser.full %[[T]] : i1 -> tensor<3x3xi1>
// CHECK-NEXT: fuser.full %[[I]] : i64 -> tensor<i64>
func.func @full(%s: bf16) {
  %c = arith.constant 0.0 : f32
  %t = arith.constant true
  %i = arith.constant 7 : i64
  %0 = fuser.full %c : f32 -> tensor<4x8xf32>
  %1 = fuser.full %s : bf16 -> tensor<2xbf16>
  %2 = fuser.full %t : i1 -> tensor<3x3xi1>
  %3 = fuser.full %i : i64 -> tensor<i64>
  return
}

// CHECK-LABEL: func.func @iota
// CHECK-SAME: (%[[START:.*]]: i64, %[[STEP:.*]]: i64, %[[H:.*]]: bf16)
// CHECK-NEXT: fuser.iota %[[START]], %[[STEP]] : i64 -> tensor<8xi64>
// CHECK-NEXT: fuser.iota %[[H]], %[[H]] : bf16 -> tensor<3xbf16>
func.func @iota(%start: i64, %step: i64, %h: bf16) {
  %0 = fuser.iota %start, %step : i64 -> tensor<8xi64>
  %1 = fuser.iota %h, %h : bf16 -> tensor<3xbf16>
  return
}

// CHECK-LABEL: func.func @random
// CHECK-SAME: (%[[A:.*]]: f32, %[[B:.*]]: f64, %[[S:.*]]: i64, %[[O:.*]]: i64)
// CHECK-NEXT: fuser.uniform %[[A]], %[[A]] seed %[[S]] offset %[[O]] : f32 -> tensor<4x8xbf16>
// CHECK-NEXT: fuser.normal %[[B]], %[[B]] seed %[[S]] offset %[[O]] : f64 -> tensor<16xf64>
func.func @random(%a: f32, %b: f64, %s: i64, %o: i64) {
  %0 = fuser.uniform %a, %a seed %s offset %o : f32 -> tensor<4x8xbf16>
  %1 = fuser.normal %b, %b seed %s offset %o : f64 -> tensor<16xf64>
  return
}

// CHECK-LABEL: func.func @gather
// CHECK-NEXT: fuser.gather %{{.*}}[%{{.*}}] dim 0 : tensor<16x4xbf16>, tensor<3x4xi32> -> tensor<3x4xbf16>
func.func @gather(%w: tensor<16x4xbf16>, %i: tensor<3x4xi32>) {
  %0 = fuser.gather %w[%i] dim 0 : tensor<16x4xbf16>, tensor<3x4xi32> -> tensor<3x4xbf16>
  return
}
