// One case per verifier rule of fuser.segment and fuser.yield.
// RUN: fuser-opt %s -split-input-file -verify-diagnostics

func.func @yield_types(%x: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %r = fuser.segment pointwise (%x) : (tensor<8x4xf32>) -> tensor<8x4xf32> {
  ^bb0(%a: tensor<8x4xf32>):
    %s = fuser.reduction add %a [1] : tensor<8x4xf32> -> tensor<8xf32>
    // expected-error @+1 {{'fuser.yield' op yields 'tensor<8xf32>' but the segment returns 'tensor<8x4xf32>'}}
    fuser.yield %s : tensor<8xf32>
  }
  return %r : tensor<8x4xf32>
}

// -----

func.func @yield_count(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = fuser.segment pointwise (%x) : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%a: tensor<4xf32>):
    // expected-error @+1 {{'fuser.yield' op yields 'tensor<4xf32>', 'tensor<4xf32>' but the segment returns 'tensor<4xf32>'}}
    fuser.yield %a, %a : tensor<4xf32>, tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

func.func @block_arguments(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'fuser.segment' op body arguments 'tensor<4xbf16>' do not match the inputs 'tensor<4xf32>'}}
  %r = fuser.segment pointwise (%x) : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%a: tensor<4xbf16>):
    %b = fuser.cast %a : tensor<4xbf16> to tensor<4xf32>
    fuser.yield %b : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

func.func @block_argument_count(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'fuser.segment' op body arguments 'tensor<4xf32>', 'tensor<4xf32>' do not match the inputs 'tensor<4xf32>'}}
  %r = fuser.segment pointwise (%x) : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%a: tensor<4xf32>, %b: tensor<4xf32>):
    fuser.yield %a : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

func.func @no_yield(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'fuser.segment' op body must end with fuser.yield}}
  %r = fuser.segment pointwise (%x) : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%a: tensor<4xf32>):
    %b = fuser.neg %a : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

func.func @empty_body(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'fuser.segment' op expects a non-empty block}}
  %r = fuser.segment pointwise (%x) : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%a: tensor<4xf32>):
  }
  return %r : tensor<4xf32>
}

// -----

func.func @two_blocks(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'fuser.segment' op expects region #0 to have 0 or 1 blocks}}
  %r = fuser.segment pointwise (%x) : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%a: tensor<4xf32>):
    fuser.yield %a : tensor<4xf32>
  ^bb1:
    fuser.yield %x : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

// A segment is isolated from above: it reads its inputs through block arguments.
func.func @isolated(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-note @+1 {{required by region isolation constraints}}
  %r = fuser.segment pointwise () : () -> tensor<4xf32> {
    // expected-error @+1 {{'fuser.neg' op using value defined outside the region}}
    %b = fuser.neg %x : tensor<4xf32>
    fuser.yield %b : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

func.func @yield_outside_segment(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'fuser.yield' op expects parent op 'fuser.segment'}}
  fuser.yield %x : tensor<4xf32>
}

// -----

func.func @unknown_segment_kind(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{custom op 'fuser.segment' unknown segment_kind 'persistent'; expected one of: pointwise, reduction, alias}}
  %r = fuser.segment persistent (%x) : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%a: tensor<4xf32>):
    fuser.yield %a : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

func.func @library_with_schedule(%a: tensor<3x4xf32>, %b: tensor<4x5xf32>) -> tensor<3x5xf32> {
  // expected-error @+1 {{'fuser.segment' op a library segment is one library call and takes no schedule}}
  %0 = fuser.segment library (%a, %b) {schedule = #fuser.schedule<pointwise, vector = 1, threads = 128, split = 1, blocks = 1>} : (tensor<3x4xf32>, tensor<4x5xf32>) -> tensor<3x5xf32> {
  ^bb0(%x: tensor<3x4xf32>, %y: tensor<4x5xf32>):
    %m = fuser.matmul %x, %y : tensor<3x4xf32>, tensor<4x5xf32> -> tensor<3x5xf32>
    fuser.yield %m : tensor<3x5xf32>
  }
  return %0 : tensor<3x5xf32>
}

// -----

func.func @library_with_arithmetic(%a: tensor<3x4xf32>, %b: tensor<4x5xf32>) -> tensor<3x5xf32> {
  // expected-error @+1 {{'fuser.segment' op a library segment yields results of one library op, computed from meta ops of its inputs}}
  %0 = fuser.segment library (%a, %b) : (tensor<3x4xf32>, tensor<4x5xf32>) -> tensor<3x5xf32> {
  ^bb0(%x: tensor<3x4xf32>, %y: tensor<4x5xf32>):
    %n = fuser.neg %x : tensor<3x4xf32>
    %m = fuser.matmul %n, %y : tensor<3x4xf32>, tensor<4x5xf32> -> tensor<3x5xf32>
    fuser.yield %m : tensor<3x5xf32>
  }
  return %0 : tensor<3x5xf32>
}

// -----

func.func @library_without_call(%a: tensor<3x4xf32>) -> tensor<4x3xf32> {
  // expected-error @+1 {{'fuser.segment' op a library segment yields results of one library op, computed from meta ops of its inputs}}
  %0 = fuser.segment library (%a) : (tensor<3x4xf32>) -> tensor<4x3xf32> {
  ^bb0(%x: tensor<3x4xf32>):
    %t = fuser.permute %x [1, 0] : tensor<3x4xf32> -> tensor<4x3xf32>
    fuser.yield %t : tensor<4x3xf32>
  }
  return %0 : tensor<4x3xf32>
}
