// RUN: fuser-opt %s --fuser-segment --fuser-schedule --convert-fuser-to-scf="check-indices=true" | FileCheck %s --check-prefix=CHECKED
// RUN: fuser-opt %s --fuser-segment --fuser-schedule --convert-fuser-to-scf | FileCheck %s --check-prefix=UNCHECKED

// Rule: with check-indices (the CPU backend), a gather compares each index
// it reads with the source's extent, unsigned (so a negative index is out of
// range too), calls __fuser_index_out_of_range(check, index, extent, dim,
// element) where it is out of range, and reads clamped in bounds; the
// module lists each checked gather's location in fuser.index_checks, by
// check number. Without it (GPU kernels), the index is used as read: no
// compare, no call, no clamp.

// CHECKED: module attributes {fuser.index_checks = [#loc{{[0-9]*}}]}
// CHECKED: func.func private @__fuser_index_out_of_range(i64, i64, i64, i64, i64)
// CHECKED-LABEL: func.func @take
// CHECKED: %[[I:.*]] = arith.index_cast %{{.*}} : i32 to index
// CHECKED: %[[OUT:.*]] = arith.cmpi uge, %[[I]], %c7 : index
// CHECKED: scf.if %[[OUT]] {
// CHECKED: %[[POS:.*]] = arith.index_cast %[[I]] : index to i64
// CHECKED: func.call @__fuser_index_out_of_range(%c0_i64, %[[POS]], %c7_i64, %c1_i64, %{{.*}}) : (i64, i64, i64, i64, i64) -> ()
// CHECKED: }
// CHECKED: %[[LOW:.*]] = arith.maxsi %[[I]], %c0{{.*}} : index
// CHECKED: %[[IN:.*]] = arith.minsi %[[LOW]], %c6 : index
// CHECKED: memref.load %{{.*}}[%{{.*}}, %[[IN]]] : memref<5x7xf32>

// UNCHECKED-NOT: fuser.index_checks
// UNCHECKED-NOT: __fuser_index_out_of_range
// UNCHECKED-LABEL: func.func @take
// UNCHECKED: %[[I:.*]] = arith.index_cast %{{.*}} : i32 to index
// UNCHECKED-NOT: arith.cmpi
// UNCHECKED-NOT: arith.maxsi
// UNCHECKED: memref.load %{{.*}}[%{{.*}}, %[[I]]] : memref<5x7xf32>
// UNCHECKED-NOT: __fuser_index_out_of_range
func.func @take(%x: tensor<5x7xf32>, %idx: tensor<5x3xi32>) -> tensor<5x3xf32> {
  %g = fuser.gather %x[%idx] dim 1 : tensor<5x7xf32>, tensor<5x3xi32> -> tensor<5x3xf32>
  return %g : tensor<5x3xf32>
}
