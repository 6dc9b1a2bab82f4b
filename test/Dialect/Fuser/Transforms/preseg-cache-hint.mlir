// RUN: fuser-opt %s --fuser-preseg -split-input-file | FileCheck %s
// RUN: fuser-opt %s --canonicalize -split-input-file | FileCheck %s
// RUN: fuser-opt %s --canonicalize="top-down=false" -split-input-file | FileCheck %s

// Erasing a `set` keeps its cache hint on the tensor in memory that it reads
// (docs/Preseg.md, "Cache hints"): a fusion input gets the argument
// attribute `fuser.cache_op`, a segment_set the attribute `fuser.cache_op`.

// A set of a view of an input: the input keeps the hint.
// CHECK-LABEL: func.func @hint_on_input(
// CHECK-SAME: %[[ARG0:[a-zA-Z0-9_]+]]: tensor<8x4xf32> {fuser.cache_op = #fuser<cache_op streaming>}) -> tensor<8x4xf32> {
// CHECK-NEXT: return %[[ARG0]] : tensor<8x4xf32>
func.func @hint_on_input(%x: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %0 = fuser.broadcast %x [0] : tensor<8x4xf32> -> tensor<1x8x4xf32>
  %1 = fuser.set %0 cache_op = streaming : tensor<1x8x4xf32>
  %2 = fuser.squeeze %1 [0] : tensor<1x8x4xf32> -> tensor<8x4xf32>
  return %2 : tensor<8x4xf32>
}

// -----

// No hint, or `unspecified`: nothing is left behind.
// CHECK-LABEL: func.func @no_hint(
// CHECK-SAME: %[[ARG0:[a-zA-Z0-9_]+]]: tensor<8x4xf32>, %[[ARG1:[a-zA-Z0-9_]+]]: tensor<8x4xf32>) -> tensor<8x4xf32> {
// CHECK-NEXT: %[[V0:[a-zA-Z0-9_]+]] = fuser.add %[[ARG0]], %[[ARG1]] : tensor<8x4xf32>, tensor<8x4xf32> -> tensor<8x4xf32>
// CHECK-NEXT: return %[[V0]]
// CHECK-NOT: cache_op
func.func @no_hint(%x: tensor<8x4xf32>, %y: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %0 = fuser.set %x cache_op = unspecified : tensor<8x4xf32>
  %1 = fuser.set %y : tensor<8x4xf32>
  %2 = fuser.add %0, %1 : tensor<8x4xf32>, tensor<8x4xf32> -> tensor<8x4xf32>
  return %2 : tensor<8x4xf32>
}

// -----

// Hints of the same input meet: equal hints stay, different ones become
// `unspecified` (the lowering chooses), in whatever order the sets go.
// CHECK-LABEL: func.func @hints_meet(
// CHECK-SAME: %{{[a-zA-Z0-9_]+}}: tensor<8x4xf32> {fuser.cache_op = #fuser<cache_op global>},
// CHECK-SAME: %{{[a-zA-Z0-9_]+}}: tensor<8x4xf32> {fuser.cache_op = #fuser<cache_op unspecified>},
// CHECK-SAME: %{{[a-zA-Z0-9_]+}}: tensor<8x4xf32> {fuser.cache_op = #fuser<cache_op unspecified>})
func.func @hints_meet(%x: tensor<8x4xf32>, %y: tensor<8x4xf32>, %z: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %0 = fuser.set %x cache_op = global : tensor<8x4xf32>
  %1 = fuser.permute %x [1, 0] : tensor<8x4xf32> -> tensor<4x8xf32>
  %2 = fuser.set %1 cache_op = global : tensor<4x8xf32>
  %3 = fuser.permute %2 [1, 0] : tensor<4x8xf32> -> tensor<8x4xf32>
  %4 = fuser.set %y cache_op = streaming : tensor<8x4xf32>
  %5 = fuser.set %y cache_op = all_levels : tensor<8x4xf32>
  %6 = fuser.set %z cache_op = streaming : tensor<8x4xf32>
  %7 = fuser.set %z cache_op = global : tensor<8x4xf32>
  %8 = fuser.set %z cache_op = streaming : tensor<8x4xf32>
  %a = fuser.add %0, %3 : tensor<8x4xf32>, tensor<8x4xf32> -> tensor<8x4xf32>
  %b = fuser.add %4, %5 : tensor<8x4xf32>, tensor<8x4xf32> -> tensor<8x4xf32>
  %c = fuser.add %6, %7 : tensor<8x4xf32>, tensor<8x4xf32> -> tensor<8x4xf32>
  %d = fuser.add %c, %8 : tensor<8x4xf32>, tensor<8x4xf32> -> tensor<8x4xf32>
  %e = fuser.add %a, %b : tensor<8x4xf32>, tensor<8x4xf32> -> tensor<8x4xf32>
  %f = fuser.add %e, %d : tensor<8x4xf32>, tensor<8x4xf32> -> tensor<8x4xf32>
  return %f : tensor<8x4xf32>
}

// -----

// A cast after a hinted set: the set goes where it is (the cast does not
// rise above it first), so the input gets the hint in every driver order.
// CHECK-LABEL: func.func @hint_then_cast(
// CHECK-SAME: %[[ARG0:[a-zA-Z0-9_]+]]: tensor<8xbf16> {fuser.cache_op = #fuser<cache_op all_levels>})
// CHECK-NEXT: %[[V0:[a-zA-Z0-9_]+]] = fuser.cast %[[ARG0]] : tensor<8xbf16> to tensor<8xf32>
// CHECK-NEXT: return %[[V0]] : tensor<8xf32>
func.func @hint_then_cast(%x: tensor<8xbf16>) -> tensor<8xf32> {
  %0 = fuser.set %x cache_op = all_levels : tensor<8xbf16>
  %1 = fuser.cast %0 : tensor<8xbf16> to tensor<8xf32>
  return %1 : tensor<8xf32>
}

// -----

// A set of a computed tensor: that tensor is not in memory before
// segmentation, there is no load to hint, and the hint goes with the set.
// CHECK-LABEL: func.func @hint_on_computed(
// CHECK-SAME: %[[ARG0:[a-zA-Z0-9_]+]]: tensor<8x4xf32>) -> tensor<8x4xf32> {
// CHECK-NEXT: %[[V0:[a-zA-Z0-9_]+]] = fuser.neg %[[ARG0]] : tensor<8x4xf32>
// CHECK-NEXT: %[[V1:[a-zA-Z0-9_]+]] = fuser.exp %[[V0]] : tensor<8x4xf32>
// CHECK-NEXT: return %[[V1]]
// CHECK-NOT: cache_op
func.func @hint_on_computed(%x: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %0 = fuser.neg %x : tensor<8x4xf32>
  %1 = fuser.set %0 cache_op = streaming : tensor<8x4xf32>
  %2 = fuser.exp %1 : tensor<8x4xf32>
  return %2 : tensor<8x4xf32>
}

// -----

// A set of a segment_set result (written to memory by its producer's
// kernel): the segment_set keeps the hint.
// CHECK-LABEL: func.func @hint_on_segment_set(
// CHECK-SAME: %[[ARG0:[a-zA-Z0-9_]+]]: tensor<8x4xf32>) -> tensor<4x8xf32> {
// CHECK-NEXT: %[[V0:[a-zA-Z0-9_]+]] = fuser.neg %[[ARG0]] : tensor<8x4xf32>
// CHECK-NEXT: %[[V1:[a-zA-Z0-9_]+]] = fuser.segment_set %[[V0]] {fuser.cache_op = #fuser<cache_op global>} : tensor<8x4xf32>
// CHECK-NEXT: %[[V2:[a-zA-Z0-9_]+]] = fuser.exp %[[V1]] : tensor<8x4xf32>
// CHECK-NEXT: %[[V3:[a-zA-Z0-9_]+]] = fuser.permute %[[V2]] [1, 0]
// CHECK-NEXT: return %[[V3]]
func.func @hint_on_segment_set(%x: tensor<8x4xf32>) -> tensor<4x8xf32> {
  %0 = fuser.neg %x : tensor<8x4xf32>
  %1 = fuser.segment_set %0 : tensor<8x4xf32>
  %2 = fuser.permute %1 [1, 0] : tensor<8x4xf32> -> tensor<4x8xf32>
  %3 = fuser.set %2 cache_op = global : tensor<4x8xf32>
  %4 = fuser.exp %3 : tensor<4x8xf32>
  return %4 : tensor<4x8xf32>
}

// -----

// A returned set of an input goes like any other (the output is then an
// alias of the input); its hint stays on the input, for the loads of it.
// CHECK-LABEL: func.func @hinted_set_output(
// CHECK-SAME: %[[ARG0:[a-zA-Z0-9_]+]]: tensor<8x4xf32> {fuser.cache_op = #fuser<cache_op streaming>}) -> tensor<8x4xf32> {
// CHECK-NEXT: return %[[ARG0]]
func.func @hinted_set_output(%x: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %0 = fuser.set %x cache_op = streaming : tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// -----

// A returned set of a view of an input, with a hint: the set goes, the view
// stays as the output, the hint goes to the input; a second returned set of
// the same input with another hint meets it as `unspecified`.
// CHECK-LABEL: func.func @hinted_set_output_of_view(
// CHECK-SAME: %[[ARG0:[a-zA-Z0-9_]+]]: tensor<8x4xf32> {fuser.cache_op = #fuser<cache_op unspecified>}) -> (tensor<4x8xf32>, tensor<8x4xf32>) {
// CHECK-NEXT: %[[V0:[a-zA-Z0-9_]+]] = fuser.permute %[[ARG0]] [1, 0] : tensor<8x4xf32> -> tensor<4x8xf32>
// CHECK-NEXT: return %[[V0]], %[[ARG0]]
func.func @hinted_set_output_of_view(%x: tensor<8x4xf32>) -> (tensor<4x8xf32>, tensor<8x4xf32>) {
  %0 = fuser.permute %x [1, 0] : tensor<8x4xf32> -> tensor<4x8xf32>
  %1 = fuser.set %0 cache_op = streaming : tensor<4x8xf32>
  %2 = fuser.set %x cache_op = global : tensor<8x4xf32>
  return %1, %2 : tensor<4x8xf32>, tensor<8x4xf32>
}
