// fuser-preseg keeps fuser-run results bit-identical: the Mistral chain and
// every function of the rule tests, before and after, on the same inputs.
// RUN: fuser-run %fuser_src_root/examples/mistral_rope_bwd.mlir > %t.mistral.before
// RUN: fuser-opt --fuser-preseg %fuser_src_root/examples/mistral_rope_bwd.mlir -o %t.mistral.mlir
// RUN: fuser-run %t.mistral.mlir > %t.mistral.after
// RUN: diff %t.mistral.before %t.mistral.after
// RUN: FileCheck %s --input-file %t.mistral.after
// RUN: fuser-opt --fuser-preseg %S/Inputs/preseg-rules.mlir -o %t.preseg.mlir
// RUN: fuser-run --entry up_down %S/Inputs/preseg-rules.mlir > %t.up_down.before && fuser-run --entry up_down %t.preseg.mlir > %t.up_down.after && diff %t.up_down.before %t.up_down.after
// RUN: fuser-run --entry through_wider %S/Inputs/preseg-rules.mlir > %t.through_wider.before && fuser-run --entry through_wider %t.preseg.mlir > %t.through_wider.after && diff %t.through_wider.before %t.through_wider.after
// RUN: fuser-run --entry int_widen_narrow %S/Inputs/preseg-rules.mlir > %t.int_widen_narrow.before && fuser-run --entry int_widen_narrow %t.preseg.mlir > %t.int_widen_narrow.after && diff %t.int_widen_narrow.before %t.int_widen_narrow.after
// RUN: fuser-run --entry bool_chains %S/Inputs/preseg-rules.mlir > %t.bool_chains.before && fuser-run --entry bool_chains %t.preseg.mlir > %t.bool_chains.after && diff %t.bool_chains.before %t.bool_chains.after
// RUN: fuser-run --entry long_chain %S/Inputs/preseg-rules.mlir > %t.long_chain.before && fuser-run --entry long_chain %t.preseg.mlir > %t.long_chain.after && diff %t.long_chain.before %t.long_chain.after
// RUN: fuser-run --entry partial_chain %S/Inputs/preseg-rules.mlir > %t.partial_chain.before && fuser-run --entry partial_chain %t.preseg.mlir > %t.partial_chain.after && diff %t.partial_chain.before %t.partial_chain.after
// RUN: fuser-run --entry scalar %S/Inputs/preseg-rules.mlir > %t.scalar.before && fuser-run --entry scalar %t.preseg.mlir > %t.scalar.after && diff %t.scalar.before %t.scalar.after
// RUN: fuser-run --entry inner_multi_use %S/Inputs/preseg-rules.mlir > %t.inner_multi_use.before && fuser-run --entry inner_multi_use %t.preseg.mlir > %t.inner_multi_use.after && diff %t.inner_multi_use.before %t.inner_multi_use.after
// RUN: fuser-run --entry lossy_narrow_widen %S/Inputs/preseg-rules.mlir > %t.lossy_narrow_widen.before && fuser-run --entry lossy_narrow_widen %t.preseg.mlir > %t.lossy_narrow_widen.after && diff %t.lossy_narrow_widen.before %t.lossy_narrow_widen.after
// RUN: fuser-run --entry half_bfloat %S/Inputs/preseg-rules.mlir > %t.half_bfloat.before && fuser-run --entry half_bfloat %t.preseg.mlir > %t.half_bfloat.after && diff %t.half_bfloat.before %t.half_bfloat.after
// RUN: fuser-run --entry double_rounding %S/Inputs/preseg-rules.mlir > %t.double_rounding.before && fuser-run --entry double_rounding %t.preseg.mlir > %t.double_rounding.after && diff %t.double_rounding.before %t.double_rounding.after
// RUN: fuser-run --entry int_float %S/Inputs/preseg-rules.mlir > %t.int_float.before && fuser-run --entry int_float %t.preseg.mlir > %t.int_float.after && diff %t.int_float.before %t.int_float.after
// RUN: fuser-run --entry one_hot_counts %S/Inputs/preseg-rules.mlir > %t.one_hot_counts.before && fuser-run --entry one_hot_counts %t.preseg.mlir > %t.one_hot_counts.after && diff %t.one_hot_counts.before %t.one_hot_counts.after
// RUN: grep -c 'fuser.scatter.*reduce add' %t.preseg.mlir | FileCheck %s --check-prefix=ONEHOT
// ONEHOT: 2
// RUN: fuser-run --entry cast_above_squeeze %S/Inputs/preseg-rules.mlir > %t.cast_above_squeeze.before && fuser-run --entry cast_above_squeeze %t.preseg.mlir > %t.cast_above_squeeze.after && diff %t.cast_above_squeeze.before %t.cast_above_squeeze.after
// RUN: fuser-run --entry casts_meet %S/Inputs/preseg-rules.mlir > %t.casts_meet.before && fuser-run --entry casts_meet %t.preseg.mlir > %t.casts_meet.after && diff %t.casts_meet.before %t.casts_meet.after
// RUN: fuser-run --entry unary_above_broadcast %S/Inputs/preseg-rules.mlir > %t.unary_above_broadcast.before && fuser-run --entry unary_above_broadcast %t.preseg.mlir > %t.unary_above_broadcast.after && diff %t.unary_above_broadcast.before %t.unary_above_broadcast.after
// RUN: fuser-run --entry slice_and_view %S/Inputs/preseg-rules.mlir > %t.slice_and_view.before && fuser-run --entry slice_and_view %t.preseg.mlir > %t.slice_and_view.after && diff %t.slice_and_view.before %t.slice_and_view.after
// RUN: fuser-run --entry meta_multi_use %S/Inputs/preseg-rules.mlir > %t.meta_multi_use.before && fuser-run --entry meta_multi_use %t.preseg.mlir > %t.meta_multi_use.after && diff %t.meta_multi_use.before %t.meta_multi_use.after
// RUN: fuser-run --entry no_cross_reduction %S/Inputs/preseg-rules.mlir > %t.no_cross_reduction.before && fuser-run --entry no_cross_reduction %t.preseg.mlir > %t.no_cross_reduction.after && diff %t.no_cross_reduction.before %t.no_cross_reduction.after
// RUN: fuser-run --entry no_cross_segment_set %S/Inputs/preseg-rules.mlir > %t.no_cross_segment_set.before && fuser-run --entry no_cross_segment_set %t.preseg.mlir > %t.no_cross_segment_set.after && diff %t.no_cross_segment_set.before %t.no_cross_segment_set.after
// RUN: fuser-run --entry binary_stays %S/Inputs/preseg-rules.mlir > %t.binary_stays.before && fuser-run --entry binary_stays %t.preseg.mlir > %t.binary_stays.after && diff %t.binary_stays.before %t.binary_stays.after
// RUN: fuser-run --entry broadcast_squeeze %S/Inputs/preseg-rules.mlir > %t.broadcast_squeeze.before && fuser-run --entry broadcast_squeeze %t.preseg.mlir > %t.broadcast_squeeze.after && diff %t.broadcast_squeeze.before %t.broadcast_squeeze.after
// RUN: fuser-run --entry squeeze_broadcast %S/Inputs/preseg-rules.mlir > %t.squeeze_broadcast.before && fuser-run --entry squeeze_broadcast %t.preseg.mlir > %t.squeeze_broadcast.after && diff %t.squeeze_broadcast.before %t.squeeze_broadcast.after
// RUN: fuser-run --entry partial_overlap %S/Inputs/preseg-rules.mlir > %t.partial_overlap.before && fuser-run --entry partial_overlap %t.preseg.mlir > %t.partial_overlap.after && diff %t.partial_overlap.before %t.partial_overlap.after
// RUN: fuser-run --entry absorbed_by_view %S/Inputs/preseg-rules.mlir > %t.absorbed_by_view.before && fuser-run --entry absorbed_by_view %t.preseg.mlir > %t.absorbed_by_view.after && diff %t.absorbed_by_view.before %t.absorbed_by_view.after
// RUN: fuser-run --entry view_roundtrip %S/Inputs/preseg-rules.mlir > %t.view_roundtrip.before && fuser-run --entry view_roundtrip %t.preseg.mlir > %t.view_roundtrip.after && diff %t.view_roundtrip.before %t.view_roundtrip.after
// RUN: fuser-run --entry view_is_unit_reshape %S/Inputs/preseg-rules.mlir > %t.view_is_unit_reshape.before && fuser-run --entry view_is_unit_reshape %t.preseg.mlir > %t.view_is_unit_reshape.after && diff %t.view_is_unit_reshape.before %t.view_is_unit_reshape.after
// RUN: fuser-run --entry real_view %S/Inputs/preseg-rules.mlir > %t.real_view.before && fuser-run --entry real_view %t.preseg.mlir > %t.real_view.after && diff %t.real_view.before %t.real_view.after
// RUN: fuser-run --entry compose_multi_use %S/Inputs/preseg-rules.mlir > %t.compose_multi_use.before && fuser-run --entry compose_multi_use %t.preseg.mlir > %t.compose_multi_use.after && diff %t.compose_multi_use.before %t.compose_multi_use.after
// RUN: fuser-run --entry broadcast_below_permute %S/Inputs/preseg-rules.mlir > %t.broadcast_below_permute.before && fuser-run --entry broadcast_below_permute %t.preseg.mlir > %t.broadcast_below_permute.after && diff %t.broadcast_below_permute.before %t.broadcast_below_permute.after
// RUN: fuser-run --entry squeeze_below_permute %S/Inputs/preseg-rules.mlir > %t.squeeze_below_permute.before && fuser-run --entry squeeze_below_permute %t.preseg.mlir > %t.squeeze_below_permute.after && diff %t.squeeze_below_permute.before %t.squeeze_below_permute.after
// RUN: fuser-run --entry broadcast_multi_use %S/Inputs/preseg-rules.mlir > %t.broadcast_multi_use.before && fuser-run --entry broadcast_multi_use %t.preseg.mlir > %t.broadcast_multi_use.after && diff %t.broadcast_multi_use.before %t.broadcast_multi_use.after
// RUN: fuser-run --entry permute_pairs %S/Inputs/preseg-rules.mlir > %t.permute_pairs.before && fuser-run --entry permute_pairs %t.preseg.mlir > %t.permute_pairs.after && diff %t.permute_pairs.before %t.permute_pairs.after
// RUN: fuser-run --entry expands %S/Inputs/preseg-rules.mlir > %t.expands.before && fuser-run --entry expands %t.preseg.mlir > %t.expands.after && diff %t.expands.before %t.expands.after
// RUN: fuser-run --entry set_disappears %S/Inputs/preseg-rules.mlir > %t.set_disappears.before && fuser-run --entry set_disappears %t.preseg.mlir > %t.set_disappears.after && diff %t.set_disappears.before %t.set_disappears.after
// RUN: fuser-run --entry set_output %S/Inputs/preseg-rules.mlir > %t.set_output.before && fuser-run --entry set_output %t.preseg.mlir > %t.set_output.after && diff %t.set_output.before %t.set_output.after
// RUN: fuser-run --entry slice_above_cast %S/Inputs/preseg-rules.mlir > %t.slice_above_cast.before && fuser-run --entry slice_above_cast %t.preseg.mlir > %t.slice_above_cast.after && diff %t.slice_above_cast.before %t.slice_above_cast.after
// RUN: fuser-run --entry slice_multi_use_cast %S/Inputs/preseg-rules.mlir > %t.slice_multi_use_cast.before && fuser-run --entry slice_multi_use_cast %t.preseg.mlir > %t.slice_multi_use_cast.after && diff %t.slice_multi_use_cast.before %t.slice_multi_use_cast.after
// RUN: fuser-run --entry deep_chain %S/Inputs/preseg-rules.mlir > %t.deep_chain.before && fuser-run --entry deep_chain %t.preseg.mlir > %t.deep_chain.after && diff %t.deep_chain.before %t.deep_chain.after
// RUN: fuser-run --entry deep_slices %S/Inputs/preseg-rules.mlir > %t.deep_slices.before && fuser-run --entry deep_slices %t.preseg.mlir > %t.deep_slices.after && diff %t.deep_slices.before %t.deep_slices.after
// RUN: fuser-run --entry order_independent %S/Inputs/preseg-rules.mlir > %t.order_independent.before && fuser-run --entry order_independent %t.preseg.mlir > %t.order_independent.after && diff %t.order_independent.before %t.order_independent.after
// RUN: fuser-run --entry set_output_of_view %S/Inputs/preseg-rules.mlir > %t.set_output_of_view.before && fuser-run --entry set_output_of_view %t.preseg.mlir > %t.set_output_of_view.after && diff %t.set_output_of_view.before %t.set_output_of_view.after
// RUN: fuser-run --entry set_of_computed_or_viewed %S/Inputs/preseg-rules.mlir > %t.set_of_computed_or_viewed.before && fuser-run --entry set_of_computed_or_viewed %t.preseg.mlir > %t.set_of_computed_or_viewed.after && diff %t.set_of_computed_or_viewed.before %t.set_of_computed_or_viewed.after
// RUN: fuser-run --entry set_then_cast %S/Inputs/preseg-rules.mlir > %t.set_then_cast.before && fuser-run --entry set_then_cast %t.preseg.mlir > %t.set_then_cast.after && diff %t.set_then_cast.before %t.set_then_cast.after
// RUN: fuser-run --entry permute_of_unit_dims %S/Inputs/preseg-rules.mlir > %t.permute_of_unit_dims.before && fuser-run --entry permute_of_unit_dims %t.preseg.mlir > %t.permute_of_unit_dims.after && diff %t.permute_of_unit_dims.before %t.permute_of_unit_dims.after
// RUN: fuser-run --entry permute_of_real_dims %S/Inputs/preseg-rules.mlir > %t.permute_of_real_dims.before && fuser-run --entry permute_of_real_dims %t.preseg.mlir > %t.permute_of_real_dims.after && diff %t.permute_of_real_dims.before %t.permute_of_real_dims.after

// The checksum agrees with an independent numpy computation of the chain.
// CHECK: result 0: tensor<1x4096x1024xbf16> fnv1a64=0x741d24b99dd5ba0e
