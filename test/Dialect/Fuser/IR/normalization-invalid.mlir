// RUN: fuser-opt %s --split-input-file --verify-diagnostics
// The verifier's rules for normalization segments and schedules.

// A normalization schedule either shares each row among all threads of a
// block (split = threads) or tiles the columns of an outer normalization,
// one element per thread at a time (vector = 1).
// expected-error @+1 {{a normalization schedule shares each row among all threads of its block (split = threads) or covers threads / split columns of an outer normalization one element per thread at a time (vector = 1), got vector = 8, threads = 256, split = 8}}
func.func private @tiled_vector() attributes {s = #fuser.schedule<normalization, vector = 8, threads = 256, split = 8, blocks = 1>}

// -----

// Accepted: an outer normalization's tiles of 32 columns in 8 thread groups.
func.func private @tiled() attributes {s = #fuser.schedule<normalization, vector = 1, threads = 256, split = 8, blocks = 4>}

// -----

// Accepted: one thread per row (the schedule without splits).
func.func private @sequential() attributes {s = #fuser.schedule<normalization, vector = 1, threads = 1, split = 1, blocks = 8>}

// -----

func.func @no_reduction(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{a normalization segment holds at least one reduction}}
  %0 = fuser.segment normalization(%arg0) : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%arg1: tensor<4xf32>):
    %1 = fuser.neg %arg1 : tensor<4xf32>
    fuser.yield %1 : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

// -----

func.func @wrong_schedule(%arg0: tensor<2x4xf32>) -> tensor<2x4xf32> {
  // expected-error @+1 {{a normalization segment, and only one, takes a normalization schedule}}
  %0 = fuser.segment normalization(%arg0) {schedule = #fuser.schedule<inner_reduction, vector = 1, threads = 32, split = 32, blocks = 2>} : (tensor<2x4xf32>) -> tensor<2x4xf32> {
  ^bb0(%arg1: tensor<2x4xf32>):
    %1 = fuser.reduction add %arg1 [1] keepdim : tensor<2x4xf32> -> tensor<2x1xf32>
    %2 = fuser.sub %arg1, %1 : tensor<2x4xf32>, tensor<2x1xf32> -> tensor<2x4xf32>
    fuser.yield %2 : tensor<2x4xf32>
  }
  return %0 : tensor<2x4xf32>
}

// -----

func.func @schedule_on_pointwise(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{a normalization segment, and only one, takes a normalization schedule}}
  %0 = fuser.segment pointwise(%arg0) {schedule = #fuser.schedule<normalization, vector = 1, threads = 1, split = 1, blocks = 1>} : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%arg1: tensor<4xf32>):
    %1 = fuser.neg %arg1 : tensor<4xf32>
    fuser.yield %1 : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}
