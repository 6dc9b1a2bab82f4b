// RUN: fuser-opt %s --split-input-file --fuser-segment --fuser-schedule --convert-fuser-to-scf --cse | FileCheck %s

// Rule: a segment with one scan whose outputs all have the scan's shape is
// a row kernel: a thread per row (here the 7 columns of a dim-0 scan), one
// loop along the scan dim carrying the prefix from the kind's identity,
// each output stored at each position from it.
// CHECK-LABEL: func.func @columns
// CHECK: scf.parallel {{.*}} to (%c1, %c32)
// CHECK: scf.if
// CHECK: %[[ONE:.*]] = arith.constant dense<1> : vector<1xi32>
// CHECK: scf.for %[[I:.*]] = %c0 to %c33 step %c1 iter_args(%[[ACC:.*]] = %[[ONE]]) -> (vector<1xi32>)
// CHECK: memref.load %arg0[%[[I]], %{{.*}}] : memref<33x7xi32>
// CHECK: %[[NEXT:.*]] = arith.muli %[[ACC]], %{{.*}} : vector<1xi32>
// CHECK: memref.store %{{.*}}, %arg1[%[[I]], %{{.*}}] : memref<33x7xi32>
// CHECK: memref.store %{{.*}}, %arg2[%[[I]], %{{.*}}] : memref<33x7xi32>
// CHECK: scf.yield %[[NEXT]]
// CHECK-NOT: scf.for
// CHECK: return
func.func @columns(%x: tensor<33x7xi32>) -> (tensor<33x7xi32>, tensor<33x7xi32>) {
  %p = fuser.scan mul %x [0] : tensor<33x7xi32>
  %n = fuser.neg %p : tensor<33x7xi32>
  return %p, %n : tensor<33x7xi32>, tensor<33x7xi32>
}

// -----

// Must not fire: an output of another shape (a permute of the scan). The
// pointwise kernel combines each element's prefix in a loop up to its
// position along the scan dim, from the identity (-inf for max); the
// vector lanes (across rows here) share that position and one loop.
// CHECK-LABEL: func.func @permuted
// CHECK: scf.parallel
// CHECK: %[[NEG:.*]] = arith.constant dense<0xFF800000> : vector<2xf32>
// CHECK: %[[END:.*]] = arith.addi %{{.*}}, %c1 : index
// CHECK: scf.for %{{.*}} = %c0 to %[[END]] step %c1 iter_args(%{{.*}} = %[[NEG]]) -> (vector<2xf32>)
// CHECK: arith.maximumf %{{.*}} : vector<2xf32>
// CHECK: return
func.func @permuted(%x: tensor<6x40xf32>) -> tensor<40x6xf32> {
  %m = fuser.scan max %x [1] : tensor<6x40xf32>
  %t = fuser.permute %m [1, 0] : tensor<6x40xf32> -> tensor<40x6xf32>
  return %t : tensor<40x6xf32>
}
