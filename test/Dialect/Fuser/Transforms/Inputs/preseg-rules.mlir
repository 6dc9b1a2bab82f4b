// Every function of the preseg rule tests in one module, for execution checks.
// bf16 -> f32 -> bf16 is x: bf16 is exact in f32.
func.func @up_down(%x: tensor<4xbf16>) -> tensor<4xbf16> {
  %0 = fuser.cast %x : tensor<4xbf16> to tensor<4xf32>
  %1 = fuser.cast %0 : tensor<4xf32> to tensor<4xbf16>
  return %1 : tensor<4xbf16>
}


// bf16 -> f32 -> f16 is bf16 -> f16.
func.func @through_wider(%x: tensor<4xbf16>) -> tensor<4xf16> {
  %0 = fuser.cast %x : tensor<4xbf16> to tensor<4xf32>
  %1 = fuser.cast %0 : tensor<4xf32> to tensor<4xf16>
  return %1 : tensor<4xf16>
}


// i32 -> i64 -> i32 is x.
func.func @int_widen_narrow(%x: tensor<4xi32>) -> tensor<4xi32> {
  %0 = fuser.cast %x : tensor<4xi32> to tensor<4xi64>
  %1 = fuser.cast %0 : tensor<4xi64> to tensor<4xi32>
  return %1 : tensor<4xi32>
}


// i1 -> f32 -> i1 is x, and i1 -> i32 -> f16 is i1 -> f16.
func.func @bool_chains(%x: tensor<4xi1>) -> (tensor<4xi1>, tensor<4xf16>) {
  %0 = fuser.cast %x : tensor<4xi1> to tensor<4xf32>
  %1 = fuser.cast %0 : tensor<4xf32> to tensor<4xi1>
  %2 = fuser.cast %x : tensor<4xi1> to tensor<4xi32>
  %3 = fuser.cast %2 : tensor<4xi32> to tensor<4xf16>
  return %1, %3 : tensor<4xi1>, tensor<4xf16>
}


// bf16 -> f32 -> f64 -> f32 -> bf16 folds all the way to x.
func.func @long_chain(%x: tensor<4xbf16>) -> tensor<4xbf16> {
  %0 = fuser.cast %x : tensor<4xbf16> to tensor<4xf32>
  %1 = fuser.cast %0 : tensor<4xf32> to tensor<4xf64>
  %2 = fuser.cast %1 : tensor<4xf64> to tensor<4xf32>
  %3 = fuser.cast %2 : tensor<4xf32> to tensor<4xbf16>
  return %3 : tensor<4xbf16>
}


// f32 -> bf16 -> f64 -> f32: only the exact tail folds, to f32 -> bf16 -> f32.
func.func @partial_chain(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = fuser.cast %x : tensor<4xf32> to tensor<4xbf16>
  %1 = fuser.cast %0 : tensor<4xbf16> to tensor<4xf64>
  %2 = fuser.cast %1 : tensor<4xf64> to tensor<4xf32>
  return %2 : tensor<4xf32>
}


// Scalars fold like tensors.
func.func @scalar(%x: bf16) -> tensor<4xbf16> {
  %0 = fuser.cast %x : bf16 to f32
  %1 = fuser.cast %0 : f32 to bf16
  %2 = fuser.full %1 : bf16 -> tensor<4xbf16>
  return %2 : tensor<4xbf16>
}


// The inner cast keeps its other use; the chain still folds, adding no cast.
func.func @inner_multi_use(%x: tensor<4xbf16>) -> (tensor<4xf32>, tensor<4xf16>) {
  %0 = fuser.cast %x : tensor<4xbf16> to tensor<4xf32>
  %1 = fuser.cast %0 : tensor<4xf32> to tensor<4xf16>
  return %0, %1 : tensor<4xf32>, tensor<4xf16>
}


// Lossy chains stay: f32 -> bf16 -> f32 rounds.
func.func @lossy_narrow_widen(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = fuser.cast %x : tensor<4xf32> to tensor<4xbf16>
  %1 = fuser.cast %0 : tensor<4xbf16> to tensor<4xf32>
  return %1 : tensor<4xf32>
}


// f16 <-> bf16 stays both ways: neither holds the other.
func.func @half_bfloat(%x: tensor<4xf16>, %y: tensor<4xbf16>) -> (tensor<4xf16>, tensor<4xbf16>) {
  %0 = fuser.cast %x : tensor<4xf16> to tensor<4xbf16>
  %1 = fuser.cast %0 : tensor<4xbf16> to tensor<4xf16>
  %2 = fuser.cast %y : tensor<4xbf16> to tensor<4xf16>
  %3 = fuser.cast %2 : tensor<4xf16> to tensor<4xbf16>
  return %1, %3 : tensor<4xf16>, tensor<4xbf16>
}


// f64 -> f32 -> f16 stays: double rounding can differ from one rounding.
func.func @double_rounding(%x: tensor<4xf64>) -> tensor<4xf16> {
  %0 = fuser.cast %x : tensor<4xf64> to tensor<4xf32>
  %1 = fuser.cast %0 : tensor<4xf32> to tensor<4xf16>
  return %1 : tensor<4xf16>
}


// float -> int -> float stays (truncation); i64 -> f64 -> i64 stays (i64 is
// not exact in f64).
func.func @int_float(%x: tensor<4xf32>, %y: tensor<4xi64>) -> (tensor<4xf32>, tensor<4xi64>) {
  %0 = fuser.cast %x : tensor<4xf32> to tensor<4xi32>
  %1 = fuser.cast %0 : tensor<4xi32> to tensor<4xf32>
  %2 = fuser.cast %y : tensor<4xi64> to tensor<4xf64>
  %3 = fuser.cast %2 : tensor<4xf64> to tensor<4xi64>
  return %1, %3 : tensor<4xf32>, tensor<4xi64>
}
// cast(squeeze(x)) -> squeeze(cast(x)): the cast rises above the meta op.
func.func @cast_above_squeeze(%x: tensor<1x4xbf16>) -> tensor<4xf32> {
  %0 = fuser.squeeze %x [0] : tensor<1x4xbf16> -> tensor<4xbf16>
  %1 = fuser.cast %0 : tensor<4xbf16> to tensor<4xf32>
  return %1 : tensor<4xf32>
}


// Casts separated by meta ops meet and fold:
// cast(permute(expand(cast(x)))) -> permute(expand(x)) for bf16 -> f32 -> bf16.
func.func @casts_meet(%x: tensor<1x3xbf16>) -> tensor<3x2xbf16> {
  %0 = fuser.cast %x : tensor<1x3xbf16> to tensor<1x3xf32>
  %1 = fuser.expand %0 : tensor<1x3xf32> -> tensor<2x3xf32>
  %2 = fuser.permute %1 [1, 0] : tensor<2x3xf32> -> tensor<3x2xf32>
  %3 = fuser.cast %2 : tensor<3x2xf32> to tensor<3x2xbf16>
  return %3 : tensor<3x2xbf16>
}


// exp(broadcast(x)) -> broadcast(exp(x)): any elementwise unary op moves.
func.func @unary_above_broadcast(%x: tensor<4xf32>) -> tensor<1x4xf32> {
  %0 = fuser.broadcast %x [0] : tensor<4xf32> -> tensor<1x4xf32>
  %1 = fuser.exp %0 : tensor<1x4xf32>
  return %1 : tensor<1x4xf32>
}


// cast(slice(x)) -> slice(cast(x)); cast(view(x)) -> view(cast(x)).
func.func @slice_and_view(%x: tensor<4x6xf16>) -> tensor<8xf32> {
  %0 = fuser.slice %x starts [0, 2] limits [4, 6] strides [2, 1] : tensor<4x6xf16> -> tensor<2x4xf16>
  %1 = fuser.view %0 : tensor<2x4xf16> -> tensor<8xf16>
  %2 = fuser.cast %1 : tensor<8xf16> to tensor<8xf32>
  return %2 : tensor<8xf32>
}


// Bail-out: the meta op has another use; moving the cast would duplicate it.
func.func @meta_multi_use(%x: tensor<1x4xbf16>) -> (tensor<4xf32>, tensor<4xbf16>) {
  %0 = fuser.squeeze %x [0] : tensor<1x4xbf16> -> tensor<4xbf16>
  %1 = fuser.cast %0 : tensor<4xbf16> to tensor<4xf32>
  return %1, %0 : tensor<4xf32>, tensor<4xbf16>
}


// Bail-out: a cast never crosses a reduction, so bf16 -> f32 (sum) -> bf16
// -> f32 keeps all three casts.
func.func @no_cross_reduction(%x: tensor<4x8xbf16>) -> tensor<4xf32> {
  %0 = fuser.cast %x : tensor<4x8xbf16> to tensor<4x8xf32>
  %1 = fuser.reduction add %0 [1] : tensor<4x8xf32> -> tensor<4xf32>
  %2 = fuser.cast %1 : tensor<4xf32> to tensor<4xbf16>
  %3 = fuser.cast %2 : tensor<4xbf16> to tensor<4xf32>
  return %3 : tensor<4xf32>
}


// Bail-out: segment_set is a segment boundary; nothing moves across it.
func.func @no_cross_segment_set(%x: tensor<4xbf16>) -> tensor<4xbf16> {
  %0 = fuser.cast %x : tensor<4xbf16> to tensor<4xf32>
  %1 = fuser.segment_set %0 : tensor<4xf32>
  %2 = fuser.cast %1 : tensor<4xf32> to tensor<4xbf16>
  return %2 : tensor<4xbf16>
}


// Bail-out: binary ops do not move (they would need both operands moved).
func.func @binary_stays(%x: tensor<1x4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %0 = fuser.squeeze %x [0] : tensor<1x4xf32> -> tensor<4xf32>
  %1 = fuser.add %0, %y : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  return %1 : tensor<4xf32>
}
// squeeze(broadcast(x)) of the same dims -> x.
func.func @broadcast_squeeze(%x: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %0 = fuser.broadcast %x [0, 2] : tensor<8x4xf32> -> tensor<1x8x1x4xf32>
  %1 = fuser.squeeze %0 [0, 2] : tensor<1x8x1x4xf32> -> tensor<8x4xf32>
  return %1 : tensor<8x4xf32>
}


// broadcast(squeeze(x)) of the same size-1 dims -> x.
func.func @squeeze_broadcast(%x: tensor<1x8x1xf32>) -> tensor<1x8x1xf32> {
  %0 = fuser.squeeze %x [0, 2] : tensor<1x8x1xf32> -> tensor<8xf32>
  %1 = fuser.broadcast %0 [0, 2] : tensor<8xf32> -> tensor<1x8x1xf32>
  return %1 : tensor<1x8x1xf32>
}


// Partial overlap: broadcast [2, 3] then squeeze [3] -> broadcast [2].
func.func @partial_overlap(%x: tensor<8x4xf32>) -> tensor<8x4x1xf32> {
  %0 = fuser.broadcast %x [2, 3] : tensor<8x4xf32> -> tensor<8x4x1x1xf32>
  %1 = fuser.squeeze %0 [3] : tensor<8x4x1x1xf32> -> tensor<8x4x1xf32>
  return %1 : tensor<8x4x1xf32>
}


// Unit-dim squeezes and broadcasts next to a view are absorbed into it:
// view(broadcast(squeeze(view(x)))) -> view(x).
func.func @absorbed_by_view(%x: tensor<1x32x16xf32>) -> tensor<4x1x128xf32> {
  %0 = fuser.view %x : tensor<1x32x16xf32> -> tensor<1x8x4x16xf32>
  %1 = fuser.squeeze %0 [0] : tensor<1x8x4x16xf32> -> tensor<8x4x16xf32>
  %2 = fuser.broadcast %1 [3] : tensor<8x4x16xf32> -> tensor<8x4x16x1xf32>
  %3 = fuser.view %2 : tensor<8x4x16x1xf32> -> tensor<4x1x128xf32>
  return %3 : tensor<4x1x128xf32>
}


// view(view(x)) back to the source shape -> x.
func.func @view_roundtrip(%x: tensor<6x4xf32>) -> tensor<6x4xf32> {
  %0 = fuser.view %x : tensor<6x4xf32> -> tensor<24xf32>
  %1 = fuser.view %0 : tensor<24xf32> -> tensor<6x4xf32>
  return %1 : tensor<6x4xf32>
}


// A view that only inserts or drops size-1 dims is a broadcast or squeeze.
func.func @view_is_unit_reshape(%x: tensor<8x4xf32>, %y: tensor<8x1x4xf32>) -> (tensor<8x1x4xf32>, tensor<8x4xf32>) {
  %0 = fuser.view %x : tensor<8x4xf32> -> tensor<8x1x4xf32>
  %1 = fuser.view %y : tensor<8x1x4xf32> -> tensor<8x4xf32>
  return %0, %1 : tensor<8x1x4xf32>, tensor<8x4xf32>
}


// Bail-out: a view that moves a size-1 dim across others stays a view.
func.func @real_view(%x: tensor<1x8xf32>) -> tensor<8x1xf32> {
  %0 = fuser.view %x : tensor<1x8xf32> -> tensor<8x1xf32>
  return %0 : tensor<8x1xf32>
}


// A reshape whose source is also used elsewhere still composes: both uses
// read the same source, no op is added.
func.func @compose_multi_use(%x: tensor<8x4xf32>) -> (tensor<1x8x4xf32>, tensor<32xf32>) {
  %0 = fuser.broadcast %x [0] : tensor<8x4xf32> -> tensor<1x8x4xf32>
  %1 = fuser.view %0 : tensor<1x8x4xf32> -> tensor<32xf32>
  return %0, %1 : tensor<1x8x4xf32>, tensor<32xf32>
}


// permute(broadcast(x)) -> broadcast(permute(x)): the broadcast sinks toward
// the consumers, here to be absorbed by the view.
func.func @broadcast_below_permute(%x: tensor<8x16x4xf32>) -> tensor<16x32xf32> {
  %0 = fuser.broadcast %x [0] : tensor<8x16x4xf32> -> tensor<1x8x16x4xf32>
  %1 = fuser.permute %0 [0, 2, 1, 3] : tensor<1x8x16x4xf32> -> tensor<1x16x8x4xf32>
  %2 = fuser.view %1 : tensor<1x16x8x4xf32> -> tensor<16x32xf32>
  return %2 : tensor<16x32xf32>
}


// permute(squeeze(x)) -> squeeze(permute(x)): the unit dims keep their place.
func.func @squeeze_below_permute(%x: tensor<2x1x3x4xf32>) -> tensor<4x2x3xf32> {
  %0 = fuser.squeeze %x [1] : tensor<2x1x3x4xf32> -> tensor<2x3x4xf32>
  %1 = fuser.permute %0 [2, 0, 1] : tensor<2x3x4xf32> -> tensor<4x2x3xf32>
  return %1 : tensor<4x2x3xf32>
}


// Bail-out: the broadcast has another use; moving it would duplicate it.
func.func @broadcast_multi_use(%x: tensor<2x3xf32>) -> (tensor<3x1x2xf32>, tensor<1x2x3xf32>) {
  %0 = fuser.broadcast %x [0] : tensor<2x3xf32> -> tensor<1x2x3xf32>
  %1 = fuser.permute %0 [2, 0, 1] : tensor<1x2x3xf32> -> tensor<3x1x2xf32>
  return %1, %0 : tensor<3x1x2xf32>, tensor<1x2x3xf32>
}


// permute(permute(x)) composes; back to identity -> x.
func.func @permute_pairs(%x: tensor<2x3x4xf32>) -> (tensor<4x2x3xf32>, tensor<2x3x4xf32>) {
  %0 = fuser.permute %x [1, 2, 0] : tensor<2x3x4xf32> -> tensor<3x4x2xf32>
  %1 = fuser.permute %0 [1, 2, 0] : tensor<3x4x2xf32> -> tensor<4x2x3xf32>
  %2 = fuser.permute %1 [1, 2, 0] : tensor<4x2x3xf32> -> tensor<2x3x4xf32>
  return %1, %2 : tensor<4x2x3xf32>, tensor<2x3x4xf32>
}


// expand(expand(x)) -> expand(x); an expand that expands nothing -> x.
func.func @expands(%x: tensor<1x1x4xf32>) -> (tensor<2x3x4xf32>, tensor<1x1x4xf32>) {
  %0 = fuser.expand %x : tensor<1x1x4xf32> -> tensor<2x1x4xf32>
  %1 = fuser.expand %0 : tensor<2x1x4xf32> -> tensor<2x3x4xf32>
  %2 = fuser.expand %x : tensor<1x1x4xf32> -> tensor<1x1x4xf32>
  return %1, %2 : tensor<2x3x4xf32>, tensor<1x1x4xf32>
}


// set(x) -> x, and the meta ops around it meet.
func.func @set_disappears(%x: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %0 = fuser.broadcast %x [0] : tensor<8x4xf32> -> tensor<1x8x4xf32>
  %1 = fuser.set %0 cache_op = streaming : tensor<1x8x4xf32>
  %2 = fuser.squeeze %1 [0] : tensor<1x8x4xf32> -> tensor<8x4xf32>
  return %2 : tensor<8x4xf32>
}


// A set that is a fusion output goes too (a set is never an observable
// copy); the output then aliases the input.
func.func @set_output(%x: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %0 = fuser.set %x : tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

func.func @slice_above_cast(%x: tensor<8xbf16>) -> (tensor<2xf32>, tensor<2xbf16>) {
  %0 = fuser.cast %x : tensor<8xbf16> to tensor<8xf32>
  %1 = fuser.slice %0 starts [2] limits [4] strides [1] : tensor<8xf32> -> tensor<2xf32>
  %2 = fuser.cast %1 : tensor<2xf32> to tensor<2xbf16>
  return %1, %2 : tensor<2xf32>, tensor<2xbf16>
}

func.func @slice_multi_use_cast(%x: tensor<8xbf16>) -> (tensor<2xf32>, tensor<8xf32>) {
  %0 = fuser.cast %x : tensor<8xbf16> to tensor<8xf32>
  %1 = fuser.slice %0 starts [2] limits [4] strides [1] : tensor<8xf32> -> tensor<2xf32>
  return %1, %0 : tensor<2xf32>, tensor<8xf32>
}

func.func @deep_chain(%x: tensor<4x4xbf16>) -> tensor<12x4xbf16> {
  %0 = fuser.cast %x : tensor<4x4xbf16> to tensor<4x4xf32>
  %1 = fuser.permute %0 [1, 0] : tensor<4x4xf32> -> tensor<4x4xf32>
  %2 = fuser.expand %1 : tensor<4x4xf32> -> tensor<4x4xf32>
  %3 = fuser.permute %2 [1, 0] : tensor<4x4xf32> -> tensor<4x4xf32>
  %4 = fuser.view %3 : tensor<4x4xf32> -> tensor<16xf32>
  %5 = fuser.broadcast %4 [0] : tensor<16xf32> -> tensor<1x16xf32>
  %6 = fuser.permute %5 [1, 0] : tensor<1x16xf32> -> tensor<16x1xf32>
  %7 = fuser.expand %6 : tensor<16x1xf32> -> tensor<16x3xf32>
  %8 = fuser.permute %7 [1, 0] : tensor<16x3xf32> -> tensor<3x16xf32>
  %9 = fuser.expand %8 : tensor<3x16xf32> -> tensor<3x16xf32>
  %10 = fuser.permute %9 [1, 0] : tensor<3x16xf32> -> tensor<16x3xf32>
  %11 = fuser.view %10 : tensor<16x3xf32> -> tensor<4x12xf32>
  %12 = fuser.permute %11 [1, 0] : tensor<4x12xf32> -> tensor<12x4xf32>
  %13 = fuser.cast %12 : tensor<12x4xf32> to tensor<12x4xbf16>
  return %13 : tensor<12x4xbf16>
}

func.func @deep_slices(%x: tensor<16xbf16>) -> tensor<5xbf16> {
  %0 = fuser.cast %x : tensor<16xbf16> to tensor<16xf32>
  %1 = fuser.slice %0 starts [0] limits [15] strides [1] : tensor<16xf32> -> tensor<15xf32>
  %2 = fuser.slice %1 starts [0] limits [14] strides [1] : tensor<15xf32> -> tensor<14xf32>
  %3 = fuser.slice %2 starts [0] limits [13] strides [1] : tensor<14xf32> -> tensor<13xf32>
  %4 = fuser.slice %3 starts [0] limits [12] strides [1] : tensor<13xf32> -> tensor<12xf32>
  %5 = fuser.slice %4 starts [0] limits [11] strides [1] : tensor<12xf32> -> tensor<11xf32>
  %6 = fuser.slice %5 starts [0] limits [10] strides [1] : tensor<11xf32> -> tensor<10xf32>
  %7 = fuser.slice %6 starts [0] limits [9] strides [1] : tensor<10xf32> -> tensor<9xf32>
  %8 = fuser.slice %7 starts [0] limits [8] strides [1] : tensor<9xf32> -> tensor<8xf32>
  %9 = fuser.slice %8 starts [0] limits [7] strides [1] : tensor<8xf32> -> tensor<7xf32>
  %10 = fuser.slice %9 starts [0] limits [6] strides [1] : tensor<7xf32> -> tensor<6xf32>
  %11 = fuser.slice %10 starts [0] limits [5] strides [1] : tensor<6xf32> -> tensor<5xf32>
  %12 = fuser.cast %11 : tensor<5xf32> to tensor<5xbf16>
  return %12 : tensor<5xbf16>
}

func.func @order_independent(%x: tensor<2x4xbf16>) -> (tensor<8xf32>, tensor<8xf64>) {
  %0 = fuser.view %x : tensor<2x4xbf16> -> tensor<8xbf16>
  %1 = fuser.cast %0 : tensor<8xbf16> to tensor<8xf32>
  %2 = fuser.cast %1 : tensor<8xf32> to tensor<8xf64>
  return %1, %2 : tensor<8xf32>, tensor<8xf64>
}

func.func @set_output_of_view(%x: tensor<8x4xf32>) -> tensor<4x8xf32> {
  %0 = fuser.permute %x [1, 0] : tensor<8x4xf32> -> tensor<4x8xf32>
  %1 = fuser.set %0 : tensor<4x8xf32>
  return %1 : tensor<4x8xf32>
}

func.func @set_of_computed_or_viewed(%x: tensor<8x4xf32>) -> (tensor<8x4xf32>, tensor<4x8xf32>) {
  %0 = fuser.neg %x : tensor<8x4xf32>
  %1 = fuser.set %0 : tensor<8x4xf32>
  %2 = fuser.set %x : tensor<8x4xf32>
  %3 = fuser.permute %2 [1, 0] : tensor<8x4xf32> -> tensor<4x8xf32>
  return %1, %3 : tensor<8x4xf32>, tensor<4x8xf32>
}

func.func @set_then_cast(%x: tensor<8xbf16>) -> tensor<8xf32> {
  %0 = fuser.set %x : tensor<8xbf16>
  %1 = fuser.cast %0 : tensor<8xbf16> to tensor<8xf32>
  return %1 : tensor<8xf32>
}

func.func @permute_of_unit_dims(%x: tensor<1x16x1xf32>) -> tensor<16x1x1xf32> {
  %0 = fuser.permute %x [1, 0, 2] : tensor<1x16x1xf32> -> tensor<16x1x1xf32>
  return %0 : tensor<16x1x1xf32>
}

func.func @permute_of_real_dims(%x: tensor<2x1x3xf32>) -> tensor<3x1x2xf32> {
  %0 = fuser.permute %x [2, 1, 0] : tensor<2x1x3xf32> -> tensor<3x1x2xf32>
  return %0 : tensor<3x1x2xf32>
}

// SumOfOneHotToScatterAdd: tokens per expert, as MoE routing counts them
// (indices in range through a remainder; rows 5.. of the sum get none).
func.func @one_hot_counts(%ids: tensor<9x1xi64>, %w: tensor<9x1xi32>) -> (tensor<7xi64>, tensor<7x1xi32>) {
  %seven = arith.constant 7 : i64
  %i = fuser.remainder %ids, %seven : tensor<9x1xi64>, i64 -> tensor<9x1xi64>
  %zero = arith.constant 0 : i64
  %one = arith.constant 1 : i64
  %z = fuser.full %zero : i64 -> tensor<9x7xi64>
  %ones = fuser.full %one : i64 -> tensor<9x1xi64>
  %hot = fuser.scatter %z[%i] = %ones dim 1 : tensor<9x7xi64>, tensor<9x1xi64>, tensor<9x1xi64>
  %c = fuser.reduction add %hot [0] : tensor<9x7xi64> -> tensor<7xi64>
  %zero32 = arith.constant 0 : i32
  %z32 = fuser.full %zero32 : i32 -> tensor<7x9xi32>
  %t = fuser.permute %i [1, 0] : tensor<9x1xi64> -> tensor<1x9xi64>
  %tw = fuser.permute %w [1, 0] : tensor<9x1xi32> -> tensor<1x9xi32>
  %hot32 = fuser.scatter %z32[%t] = %tw dim 0 : tensor<7x9xi32>, tensor<1x9xi64>, tensor<1x9xi32>
  %d = fuser.reduction add %hot32 [1] keepdim : tensor<7x9xi32> -> tensor<7x1xi32>
  return %c, %d : tensor<7xi64>, tensor<7x1xi32>
}
