// --fuser-lower-to-nvvm lowers segmented fusions; it does not segment.
// RUN: fuser-opt %s --split-input-file --fuser-lower-to-nvvm --verify-diagnostics
// The GPU half alone takes host functions on memrefs, not fusions.
// RUN: not fuser-opt %s --fuser-kernel-loops-to-nvvm 2>&1 | FileCheck %s --check-prefix=LOOPS
// LOOPS: error: 'fuser.reduction' in the input of --fuser-kernel-loops-to-nvvm, which takes host functions on memrefs (convert-fuser-to-scf); use --fuser-lower-to-nvvm for fusions

func.func @unsegmented(%a: tensor<8x4xf32>) -> tensor<8xf32> {
  // expected-error @below {{fusion @unsegmented is not segmented ('fuser.reduction' outside a fuser.segment): run --fuser-segment before --fuser-lower-to-nvvm}}
  %s = fuser.reduction add %a [1] : tensor<8x4xf32> -> tensor<8xf32>
  return %s : tensor<8xf32>
}
