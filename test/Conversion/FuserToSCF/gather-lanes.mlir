// RUN: fuser-opt %s --split-input-file --fuser-segment --fuser-schedule --convert-fuser-to-scf --cse | FileCheck %s
// (The i64 index's 16-byte vectors make the kernels' width 2.)

// Rule: a gather whose index is equal at all lanes of a vector (it does not
// vary along the lanes' axis: broadcast or expanded along it, or a fill)
// reads its source with the lanes' own kind, so a gathered row is one
// aligned vector load. Where the index varies along the lanes, or the lanes
// run along the gather dim, each lane is a scalar load.

// An embedding: the row index broadcast along the row.
// CHECK-LABEL: func.func @embedding
// CHECK: memref.load %{{.*}} : memref<16xi64>
// CHECK: %[[ROW:.*]] = arith.index_cast %{{.*}} : i64 to index
// CHECK: vector.load %{{.*}}[%[[ROW]], %{{.*}}] {alignment = {{[0-9]+}} : i64} : memref<32x64xf32>, vector<2xf32>
// CHECK-NOT: memref.load %{{.*}} : memref<32x64xf32>
// CHECK: return
func.func @embedding(%ids: tensor<16xi64>, %table: tensor<32x64xf32>) -> tensor<16x64xf32> {
  %ib = fuser.broadcast %ids [1] : tensor<16xi64> -> tensor<16x1xi64>
  %ie = fuser.expand %ib : tensor<16x1xi64> -> tensor<16x64xi64>
  %x = fuser.gather %table[%ie] dim 0 : tensor<32x64xf32>, tensor<16x64xi64> -> tensor<16x64xf32>
  return %x : tensor<16x64xf32>
}

// -----

// Must not fire: the index varies along the lanes (one per element).
// CHECK-LABEL: func.func @take_along_rows
// CHECK-NOT: vector.load %{{.*}} : memref<32x64xf32>
// CHECK-COUNT-2: memref.load %{{.*}} : memref<32x64xf32>
// CHECK-NOT: vector.load %{{.*}} : memref<32x64xf32>
// CHECK: return
func.func @take_along_rows(%idx: tensor<16x64xi64>, %table: tensor<32x64xf32>) -> tensor<16x64xf32> {
  %x = fuser.gather %table[%idx] dim 0 : tensor<32x64xf32>, tensor<16x64xi64> -> tensor<16x64xf32>
  return %x : tensor<16x64xf32>
}

// -----

// Must not fire: the lanes run along the gather dim (there the source is
// read at the index, whatever the lanes' own index is: a load per lane).
// CHECK-LABEL: func.func @along_gather_dim
// CHECK-NOT: vector.load %{{.*}} : memref<16x32xf32>
// CHECK-COUNT-2: memref.load %{{.*}} : memref<16x32xf32>
// CHECK: return
func.func @along_gather_dim(%ids: tensor<16xi64>, %x: tensor<16x32xf32>) -> tensor<16x64xf32> {
  %ib = fuser.broadcast %ids [1] : tensor<16xi64> -> tensor<16x1xi64>
  %ie = fuser.expand %ib : tensor<16x1xi64> -> tensor<16x64xi64>
  %g = fuser.gather %x[%ie] dim 1 : tensor<16x32xf32>, tensor<16x64xi64> -> tensor<16x64xf32>
  return %g : tensor<16x64xf32>
}
