// RUN: fuser-opt %s --split-input-file --verify-diagnostics --convert-fuser-to-scf

// A tiled split (outer_reduction, 1 < split < threads) reads one element per
// thread at a time.
// expected-error @+1 {{a split outer_reduction schedule reads one element per thread at a time: vector must be 1, got 4}}
func.func private @tiled_vector() attributes {s = #fuser.schedule<outer_reduction, vector = 4, threads = 256, split = 8, blocks = 1>}

// -----

// Only an outer reduction tiles its outputs.
// expected-error @+1 {{a split inner_reduction schedule gives each block one output: split must be 1 or threads}}
func.func private @inner_tiled() attributes {s = #fuser.schedule<inner_reduction, vector = 1, threads = 256, split = 8, blocks = 1>}

// -----

// A block per 32 outputs (256 threads, 8 groups): 96 outputs need 3 blocks.
func.func @tiled_blocks(%arg0: tensor<64x96xf32>) -> tensor<96xf32> {
  // expected-error @+1 {{a tiled split schedule needs one block per 32 reduction outputs (96 outputs: 3 blocks), got 2}}
  %0 = fuser.segment reduction(%arg0) {schedule = #fuser.schedule<outer_reduction, vector = 1, threads = 256, split = 8, blocks = 2>} : (tensor<64x96xf32>) -> tensor<96xf32> {
  ^bb0(%arg1: tensor<64x96xf32>):
    %1 = fuser.reduction add %arg1 [0] : tensor<64x96xf32> -> tensor<96xf32>
    fuser.yield %1 : tensor<96xf32>
  }
  return %0 : tensor<96xf32>
}
