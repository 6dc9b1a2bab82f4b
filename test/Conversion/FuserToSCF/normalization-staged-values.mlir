// RUN: fuser-opt %s --split-input-file --fuser-preseg --fuser-segment --fuser-schedule --convert-fuser-to-scf --cse | FileCheck %s

// Rule: in an inner normalization, the source of a reduction that the
// row's outputs read too, f32 or f64, row-shaped and computed by a
// transcendental op, is kept in a row stage of its own (beside the staged
// inputs) where shared memory allows: the reduction's thread loop stores
// it, and the output loop loads it instead of computing it again
// (softmax's exp: one exp per element, not two).

// CHECK-LABEL: memref.global "private" @__fuser_row_0 : memref<1024xf32, #gpu.address_space<workgroup>>
// CHECK: memref.global "private" @__fuser_row : memref<1024xf32, #gpu.address_space<workgroup>>
// CHECK-LABEL: func.func @softmax(
// The max's loop stages the input.
// CHECK: scf.parallel
// CHECK:   vector.store %{{.*}}, %{{.*}} : memref<1024xf32, #gpu.address_space<workgroup>>, vector<4xf32>
// CHECK:   arith.maximumf
// The sum's loop reads the staged input, computes exp once and stages it.
// CHECK: scf.parallel
// CHECK:   %[[IN:.*]] = memref.get_global @__fuser_row :
// CHECK:   vector.load %[[IN]]
// CHECK:   %[[E:.*]] = math.exp %{{.*}} : vector<4xf32>
// CHECK:   %[[STAGE:.*]] = memref.get_global @__fuser_row_0 :
// CHECK:   vector.store %[[E]], %[[STAGE]][%{{.*}}]
// The output loop loads exp.
// CHECK: scf.parallel
// CHECK-NOT: math.exp
// CHECK:   %[[OUT:.*]] = memref.get_global @__fuser_row_0 :
// CHECK:   %[[L:.*]] = vector.load %[[OUT]][%{{.*}}]
// CHECK:   arith.divf %[[L]], %{{.*}} : vector<4xf32>
// CHECK-NOT: math.exp
// CHECK: return
func.func @softmax(%x: tensor<8x1024xf32>) -> tensor<8x1024xf32> {
  %m = fuser.reduction max %x [1] keepdim : tensor<8x1024xf32> -> tensor<8x1xf32>
  %d = fuser.sub %x, %m : tensor<8x1024xf32>, tensor<8x1xf32> -> tensor<8x1024xf32>
  %e = fuser.exp %d : tensor<8x1024xf32>
  %s = fuser.reduction add %e [1] keepdim : tensor<8x1024xf32> -> tensor<8x1xf32>
  %r = fuser.div %e, %s : tensor<8x1024xf32>, tensor<8x1xf32> -> tensor<8x1024xf32>
  return %r : tensor<8x1024xf32>
}

// -----

// Must not fire: exp feeds the sum alone; the output reads the input.
// CHECK: memref.global "private" @__fuser_row :
// CHECK-NOT: memref.global
// CHECK-LABEL: func.func @only_reduced(
func.func @only_reduced(%x: tensor<8x1024xf32>) -> tensor<8x1024xf32> {
  %e = fuser.exp %x : tensor<8x1024xf32>
  %s = fuser.reduction add %e [1] keepdim : tensor<8x1024xf32> -> tensor<8x1xf32>
  %r = fuser.div %x, %s : tensor<8x1024xf32>, tensor<8x1xf32> -> tensor<8x1024xf32>
  return %r : tensor<8x1024xf32>
}

// -----

// Must not fire: the squares (a multiply, cheaper to compute again than to
// stage) feed the sum and the output.
// CHECK: memref.global "private" @__fuser_row :
// CHECK-NOT: memref.global
// CHECK-LABEL: func.func @not_transcendental(
func.func @not_transcendental(%x: tensor<8x1024xf32>) -> tensor<8x1024xf32> {
  %q = fuser.mul %x, %x : tensor<8x1024xf32>, tensor<8x1024xf32> -> tensor<8x1024xf32>
  %s = fuser.reduction add %q [1] keepdim : tensor<8x1024xf32> -> tensor<8x1xf32>
  %r = fuser.div %q, %s : tensor<8x1024xf32>, tensor<8x1xf32> -> tensor<8x1024xf32>
  return %r : tensor<8x1024xf32>
}

// -----

// Must not fire: a row of 8192 f32 (32 KiB) fits the block's 48 KiB of
// shared memory once, the input's; exp is computed twice.
// CHECK: memref.global "private" @__fuser_row : memref<8192xf32
// CHECK-NOT: memref.global
// CHECK-LABEL: func.func @no_room(
// CHECK-COUNT-2: math.exp
// CHECK-NOT: math.exp
func.func @no_room(%x: tensor<8x8192xf32>) -> tensor<8x8192xf32> {
  %m = fuser.reduction max %x [1] keepdim : tensor<8x8192xf32> -> tensor<8x1xf32>
  %d = fuser.sub %x, %m : tensor<8x8192xf32>, tensor<8x1xf32> -> tensor<8x8192xf32>
  %e = fuser.exp %d : tensor<8x8192xf32>
  %s = fuser.reduction add %e [1] keepdim : tensor<8x8192xf32> -> tensor<8x1xf32>
  %r = fuser.div %e, %s : tensor<8x8192xf32>, tensor<8x1xf32> -> tensor<8x8192xf32>
  return %r : tensor<8x8192xf32>
}
