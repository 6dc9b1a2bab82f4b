// RUN: fuser-opt %s --split-input-file --convert-fuser-to-scf --verify-diagnostics

func.func @unsegmented(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'fuser.neg' is outside every fuser.segment: run fuser-segment before the kernel lowering}}
  %0 = fuser.neg %arg0 : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @unscheduled(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{kernel segment has no schedule; run fuser-schedule first}}
  %0 = fuser.segment pointwise(%arg0) : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%arg1: tensor<4xf32>):
    %1 = fuser.neg %arg1 : tensor<4xf32>
    fuser.yield %1 : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

// -----

// A pinned split schedule on a kernel whose reduction result is read
// through two different views.
func.func @split_two_views(%arg0: tensor<8x8x64xf32>) -> tensor<8x8xf32> {
  // expected-error @+1 {{the schedule splits the reduction across threads, but 'fuser.add' combines reduction results through different views}}
  %0 = fuser.segment reduction(%arg0) {schedule = #fuser.schedule<inner_reduction, vector = 4, threads = 32, split = 32, blocks = 64>} : (tensor<8x8x64xf32>) -> tensor<8x8xf32> {
  ^bb0(%arg1: tensor<8x8x64xf32>):
    %1 = fuser.reduction add %arg1 [2] : tensor<8x8x64xf32> -> tensor<8x8xf32>
    %2 = fuser.permute %1 [1, 0] : tensor<8x8xf32> -> tensor<8x8xf32>
    %3 = fuser.add %1, %2 : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
    fuser.yield %3 : tensor<8x8xf32>
  }
  return %0 : tensor<8x8xf32>
}

// -----

func.func @split_blocks(%arg0: tensor<8x64xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{a split schedule needs one block per reduction output (8), got 4}}
  %0 = fuser.segment reduction(%arg0) {schedule = #fuser.schedule<inner_reduction, vector = 4, threads = 32, split = 32, blocks = 4>} : (tensor<8x64xf32>) -> tensor<8xf32> {
  ^bb0(%arg1: tensor<8x64xf32>):
    %1 = fuser.reduction add %arg1 [1] : tensor<8x64xf32> -> tensor<8xf32>
    fuser.yield %1 : tensor<8xf32>
  }
  return %0 : tensor<8xf32>
}

// -----

func.func @split_lanes(%arg0: tensor<8x60xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{the vector width 8 does not divide the innermost reduced extent 60}}
  %0 = fuser.segment reduction(%arg0) {schedule = #fuser.schedule<inner_reduction, vector = 8, threads = 32, split = 32, blocks = 8>} : (tensor<8x60xf32>) -> tensor<8xf32> {
  ^bb0(%arg1: tensor<8x60xf32>):
    %1 = fuser.reduction add %arg1 [1] : tensor<8x60xf32> -> tensor<8xf32>
    fuser.yield %1 : tensor<8xf32>
  }
  return %0 : tensor<8xf32>
}

// -----

func.func @split_not_all_threads(%arg0: tensor<8x64xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{a split inner_reduction schedule gives each block one output: split must be 1 or threads}}
  %0 = fuser.segment reduction(%arg0) {schedule = #fuser.schedule<inner_reduction, vector = 4, threads = 64, split = 32, blocks = 8>} : (tensor<8x64xf32>) -> tensor<8xf32> {
  ^bb0(%arg1: tensor<8x64xf32>):
    %1 = fuser.reduction add %arg1 [1] : tensor<8x64xf32> -> tensor<8xf32>
    fuser.yield %1 : tensor<8xf32>
  }
  return %0 : tensor<8xf32>
}
