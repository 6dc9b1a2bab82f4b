//===- Attention.h - the shape of a flash attention op ----------*- C++ -*-===//
//
// fuser.sdpfa_fwd and fuser.sdpfa_bwd as one statement: a batch of
// independent heads (the product of the N... and H dims), each an L x S
// score matrix over E-wide queries and keys and Ev-wide values, with the
// scale, the causal mask and dropout applied in f32 (the forward's bias and
// mask are operands, read where they lie). The interpreter, the flop count,
// the decomposition and the library call read this; type inference
// (FuserOps.cpp) checks the shapes it summarizes.
//
//===----------------------------------------------------------------------===//

#ifndef FUSER_DIALECT_FUSER_IR_ATTENTION_H
#define FUSER_DIALECT_FUSER_IR_ATTENTION_H

#include "mlir/IR/Operation.h"

#include <cstdint>

namespace mlir::fuser {

struct Attention {
  /// The heads: the product of the dims before the last two.
  int64_t batch = 1;
  /// Queries, keys, the query/key width and the value width.
  int64_t l = 0, s = 0, e = 0, ev = 0;
  /// The scale of the scores as they are computed: the op's, or
  /// 1 / sqrt(E), rounded to f32.
  float scale = 1;
  bool causal = false;
  /// dropout_p: a score is kept where its uniform draw is at least
  /// `dropoutThreshold` (dropout_p as f32), and scaled by `keepScale`
  /// (1 / (1 - dropout_p) as f32; 0 for dropout_p 1, where none is kept).
  double dropoutP = 0;
  float dropoutThreshold = 0, keepScale = 1;

  bool hasDropout() const { return dropoutP != 0; }

  /// Whether key `col` is hidden from query `row`: torch's upper-left
  /// causal mask, the same for L != S.
  bool isMasked(int64_t row, int64_t col) const {
    return causal && col > row;
  }
};

/// The attention of a fuser.sdpfa_fwd or fuser.sdpfa_bwd; `op` must be one.
Attention getAttention(Operation *op);

} // namespace mlir::fuser

#endif // FUSER_DIALECT_FUSER_IR_ATTENTION_H
