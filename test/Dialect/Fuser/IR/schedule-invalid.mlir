// RUN: fuser-opt %s --split-input-file --verify-diagnostics

// expected-error @+1 {{schedule parameters must be positive, got vector = 0, threads = 256, split = 1, blocks = 1}}
func.func private @zero() attributes {s = #fuser.schedule<pointwise, vector = 0, threads = 256, split = 1, blocks = 1>}

// -----

// expected-error @+1 {{a block holds at most 1024 threads, got 2048}}
func.func private @big() attributes {s = #fuser.schedule<pointwise, vector = 1, threads = 2048, split = 1, blocks = 1>}

// -----

// expected-error @+1 {{split (3) must divide the threads per block (256)}}
func.func private @split() attributes {s = #fuser.schedule<inner_reduction, vector = 1, threads = 256, split = 3, blocks = 1>}

// -----

// expected-error @+1 {{a pointwise schedule has no reduction to split}}
func.func private @pointwise_split() attributes {s = #fuser.schedule<pointwise, vector = 1, threads = 256, split = 256, blocks = 1>}

// -----

// expected-error @+1 {{accumulators must be positive, got 0}}
func.func private @no_accumulators() attributes {s = #fuser.schedule<inner_reduction, vector = 4, threads = 32, split = 32, blocks = 1, accumulators = 0>}

// -----

// Only a thread that walks a row keeps several partials: not a pointwise
// kernel, not a thread per output, not an outer reduction's tiles.
// expected-error @+1 {{accumulators (4) need a split inner_reduction or an inner normalization (split = threads > 1)}}
func.func private @pointwise_accumulators() attributes {s = #fuser.schedule<pointwise, vector = 4, threads = 256, split = 1, blocks = 1, accumulators = 4>}

// -----

// expected-error @+1 {{accumulators (2) need a split inner_reduction or an inner normalization (split = threads > 1)}}
func.func private @unsplit_accumulators() attributes {s = #fuser.schedule<inner_reduction, vector = 4, threads = 256, split = 1, blocks = 1, accumulators = 2>}

// -----

// expected-error @+1 {{accumulators (4) need a split inner_reduction or an inner normalization (split = threads > 1)}}
func.func private @outer_accumulators() attributes {s = #fuser.schedule<outer_reduction, vector = 1, threads = 256, split = 8, blocks = 1, accumulators = 4>}

// -----

func.func @alias(%arg0: tensor<4xf32>) -> tensor<2x2xf32> {
  // expected-error @+1 {{an alias segment launches nothing and takes no schedule}}
  %0 = fuser.segment alias(%arg0) {schedule = #fuser.schedule<pointwise, vector = 1, threads = 32, split = 1, blocks = 1>} : (tensor<4xf32>) -> tensor<2x2xf32> {
  ^bb0(%arg1: tensor<4xf32>):
    %1 = fuser.view %arg1 : tensor<4xf32> -> tensor<2x2xf32>
    fuser.yield %1 : tensor<2x2xf32>
  }
  return %0 : tensor<2x2xf32>
}
