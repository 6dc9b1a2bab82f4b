// A fusion next to a host function written in func and arith only (what the
// C API's registration can parse): the pipelines leave the host function as
// it is, and the report covers the fusion only.
func.func @host(%x: i64) -> i64 {
  %c1 = arith.constant 1 : i64
  %c1_dup = arith.constant 1 : i64
  %dead = arith.muli %x, %c1 : i64
  %y = arith.addi %x, %c1_dup : i64
  return %y : i64
}

func.func @neg_exp(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = fuser.neg %x : tensor<4x8xf32>
  %1 = fuser.exp %0 : tensor<4x8xf32>
  return %1 : tensor<4x8xf32>
}
