// RUN: fuser-opt %s --split-input-file --fuser-preseg --fuser-segment --fuser-schedule --convert-fuser-to-scf --cse | FileCheck %s
// RUN: fuser-opt %s --split-input-file --fuser-preseg --fuser-segment --fuser-schedule --convert-fuser-to-scf | FileCheck %s --check-prefix=EMPTY

// The Mistral kernel: each thread of a 2048x256 grid makes 8 bf16 outputs
// from 4 aligned 16-byte loads (one per grouped head) accumulated in f32
// from -0.0, and writes them with one aligned 16-byte store in the final
// [1, 4096, 1024] layout. The input is read without its extent-1 axis, as
// the segment's ops compute (a collapsed view of its memref).
// CHECK-LABEL: func.func @mistral_rope_bwd(
// CHECK-SAME: %[[IN:.*]]: memref<1x32x4096x128xbf16>, %[[OUT:.*]]: memref<1x4096x1024xbf16>) attributes {fuser.outputs = 1 : i64}
// CHECK: %[[ROWS:.*]] = memref.collapse_shape %[[IN]] {{.*}} : memref<1x32x4096x128xbf16> into memref<32x4096x128xbf16>
// CHECK: scf.parallel ({{.*}}) = ({{.*}}) to (%c2048, %c256)
// CHECK: %[[ZERO:.*]] = arith.constant dense<-0.000000e+00> : vector<8xf32>
// CHECK: scf.for %{{.*}} = %c0 to %c4 step %c1 iter_args(%[[ACC:.*]] = %[[ZERO]]) -> (vector<8xf32>)
// CHECK: %[[X:.*]] = vector.load %[[ROWS]][{{.*}}] {alignment = 16 : i64} : memref<32x4096x128xbf16>, vector<8xbf16>
// CHECK: %[[W:.*]] = arith.extf %[[X]] : vector<8xbf16> to vector<8xf32>
// CHECK: arith.addf %[[ACC]], %[[W]] : vector<8xf32>
// CHECK: %[[R:.*]] = arith.truncf %{{.*}} : vector<8xf32> to vector<8xbf16>
// CHECK: vector.store %[[R]], %[[OUT]][%c0, {{.*}}] {alignment = 16 : i64} : memref<1x4096x1024xbf16>, vector<8xbf16>
// CHECK: mapping = [#gpu.loop_dim_map<processor = block_x, {{.*}}>, #gpu.loop_dim_map<processor = thread_x, {{.*}}>]
func.func @mistral_rope_bwd(%arg0: tensor<1x32x4096x128xbf16>) -> tensor<1x4096x1024xbf16> {
  %0 = fuser.cast %arg0 : tensor<1x32x4096x128xbf16> to tensor<1x32x4096x128xf32>
  %1 = fuser.view %0 : tensor<1x32x4096x128xf32> -> tensor<8x4x4096x128xf32>
  %2 = fuser.reduction add %1 [1] : tensor<8x4x4096x128xf32> -> tensor<8x4096x128xf32>
  %3 = fuser.cast %2 : tensor<8x4096x128xf32> to tensor<8x4096x128xbf16>
  %4 = fuser.permute %3 [1, 0, 2] : tensor<8x4096x128xbf16> -> tensor<4096x8x128xbf16>
  %5 = fuser.view %4 : tensor<4096x8x128xbf16> -> tensor<1x4096x1024xbf16>
  return %5 : tensor<1x4096x1024xbf16>
}

// -----

// Two kernels through an intermediate (allocated, freed after its last
// reader), a broadcast operand (its size-1 axis stays at 0), a scalar
// argument (splat), a permute whose lanes cross rows (a load per lane), and
// a result that is a view of an input (an alias: a copy of a strided view).
// CHECK-LABEL: func.func @chain(
// CHECK-SAME: %[[X:.*]]: memref<4x8xf32>, %[[Y:.*]]: memref<1x8xf32>, %[[S:.*]]: f32, %[[OUT0:.*]]: memref<8x4xf32>, %[[OUT1:.*]]: memref<32xf32>)
// CHECK: %[[TMP:.*]] = memref.alloc() {alignment = 16 : i64} : memref<4x8xf32>
// CHECK: scf.parallel
// CHECK:   %[[A:.*]] = vector.load %[[X]][%[[I:.*]], %[[J:.*]]] {alignment = 16 : i64} : memref<4x8xf32>, vector<4xf32>
// CHECK:   %[[B:.*]] = vector.load %[[Y]][%c0, %[[J]]] {alignment = 16 : i64} : memref<1x8xf32>, vector<4xf32>
// CHECK:   %[[SUM:.*]] = arith.addf %[[A]], %[[B]] : vector<4xf32>
// CHECK:   %[[SPLAT:.*]] = vector.broadcast %[[S]] : f32 to vector<4xf32>
// CHECK:   %[[PROD:.*]] = arith.mulf %[[SUM]], %[[SPLAT]] : vector<4xf32>
// CHECK:   vector.store %[[PROD]], %[[TMP]][%[[I]], %[[J]]]
// CHECK: scf.parallel
// CHECK-COUNT-4: memref.load %[[TMP]]
// CHECK:   %[[G:.*]] = vector.from_elements
// CHECK:   %[[NEG:.*]] = arith.negf %[[G]] : vector<4xf32>
// CHECK:   vector.store %[[NEG]], %[[OUT0]]
// CHECK: memref.dealloc %[[TMP]]
// CHECK: %[[VIEW:.*]] = memref.reinterpret_cast %[[X]] to offset: [0], sizes: [32], strides: [1]
// CHECK: memref.copy %[[VIEW]], %[[OUT1]]
// CHECK-NEXT: return
func.func @chain(%x: tensor<4x8xf32>, %y: tensor<1x8xf32>, %s: f32) -> (tensor<8x4xf32>, tensor<32xf32>) {
  %0 = fuser.add %x, %y : tensor<4x8xf32>, tensor<1x8xf32> -> tensor<4x8xf32>
  %1 = fuser.mul %0, %s : tensor<4x8xf32>, f32 -> tensor<4x8xf32>
  %2 = fuser.segment_set %1 : tensor<4x8xf32>
  %3 = fuser.permute %2 [1, 0] : tensor<4x8xf32> -> tensor<8x4xf32>
  %4 = fuser.neg %3 : tensor<8x4xf32>
  %5 = fuser.view %x : tensor<4x8xf32> -> tensor<32xf32>
  return %4, %5 : tensor<8x4xf32>, tensor<32xf32>
}

// -----

// Inner reduction, split: a block per row; each thread strides over the row
// 8 bf16 at a time, folds its lanes pairwise (the low half with the high
// half, three times), and the block combines with scf.reduce
// (gpu.all_reduce on the GPU). The f32 copy of the row, which does not need
// the reduction, is written by all threads of the grid in the same kernel;
// the row's maximum by thread 0 alone, in a thread loop of its own.
// CHECK-LABEL: func.func @rows(
// CHECK-SAME: %[[X:.*]]: memref<64x1000xbf16>, %[[MAX:.*]]: memref<64xbf16>, %[[COPY:.*]]: memref<64x1000xf32>)
// CHECK: scf.parallel (%[[ROW:.*]]) = (%c0) to (%c64)
// CHECK:   %[[NEGINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK:   %[[M:.*]] = scf.parallel (%{{.*}}) = (%c0) to (%c128) step (%c1) init (%[[NEGINF]]) -> f32
// CHECK:     scf.if
// CHECK:       vector.store %{{.*}}, %[[COPY]]
// CHECK:     scf.for %{{.*}} = %{{.*}} to %c1000 step %c1024 iter_args
// CHECK:       vector.load %[[X]][%[[ROW]], %{{.*}}] {alignment = 16 : i64} : memref<64x1000xbf16>, vector<8xbf16>
// CHECK:       arith.maximumf {{.*}} : vector<8xf32>
// CHECK:     %[[LOW8:.*]] = vector.shuffle %[[PART:.*]], %[[PART]] [0, 1, 2, 3] : vector<8xf32>, vector<8xf32>
// CHECK:     %[[HIGH8:.*]] = vector.shuffle %[[PART]], %[[PART]] [4, 5, 6, 7] : vector<8xf32>, vector<8xf32>
// CHECK:     arith.maximumf %[[LOW8]], %[[HIGH8]] : vector<4xf32>
// CHECK:     arith.maximumf {{.*}} : vector<2xf32>
// CHECK:     arith.maximumf {{.*}} : vector<1xf32>
// CHECK-NOT: arith.maximumf {{.*}} : f32
// CHECK:     scf.reduce(%{{.*}} : f32)
// CHECK:       arith.maximumf
// CHECK:   mapping = [#gpu.loop_dim_map<processor = thread_x
// CHECK:   scf.parallel (%[[T:.*]]) = (%c0) to (%c128) step (%c1) {
// CHECK:     %[[FIRST:.*]] = arith.cmpi eq, %[[T]], %c0 : index
// CHECK:     scf.if %[[FIRST]] {
// CHECK:       %[[B:.*]] = vector.broadcast %[[M]] : f32 to vector<1xf32>
// CHECK:       arith.truncf %[[B]] : vector<1xf32> to vector<1xbf16>
// CHECK:       memref.store %{{.*}}, %[[MAX]][%[[ROW]]] : memref<64xbf16>
// CHECK:   mapping = [#gpu.loop_dim_map<processor = thread_x
// CHECK-NOT: memref.store
// CHECK: mapping = [#gpu.loop_dim_map<processor = block_x
func.func @rows(%x: tensor<64x1000xbf16>) -> (tensor<64xbf16>, tensor<64x1000xf32>) {
  %0 = fuser.cast %x : tensor<64x1000xbf16> to tensor<64x1000xf32>
  %1 = fuser.reduction max %0 [1] : tensor<64x1000xf32> -> tensor<64xf32>
  %2 = fuser.cast %1 : tensor<64xf32> to tensor<64xbf16>
  return %2, %0 : tensor<64xbf16>, tensor<64x1000xf32>
}

// -----

// A squeezed input is read through a collapsed view of its memref, but not
// one without elements: that one is never referenced (a kernel argument the
// bare-pointer convention refuses). Without --cse, which would drop an
// unused view.
// EMPTY-LABEL: func.func @squeezed_empty_input(
// EMPTY-SAME: %[[E:[a-z0-9]+]]: memref<0x1x4xf32>, %[[Y:[a-z0-9]+]]: memref<3x1x4xf32>
// EMPTY-NOT: memref.collapse_shape %[[E]]
// EMPTY: memref.collapse_shape %[[Y]] {{.*}} into memref<3x4xf32>
// EMPTY-NOT: memref.collapse_shape %[[E]]
// EMPTY: return
func.func @squeezed_empty_input(%x: tensor<0x1x4xf32>, %y: tensor<3x1x4xf32>) -> (tensor<0x1x4xf32>, tensor<3x1x4xf32>) {
  %a = fuser.neg %x : tensor<0x1x4xf32>
  %b = fuser.exp %y : tensor<3x1x4xf32>
  return %a, %b : tensor<0x1x4xf32>, tensor<3x1x4xf32>
}
