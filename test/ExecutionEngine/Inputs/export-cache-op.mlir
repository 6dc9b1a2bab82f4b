// A fusion whose `set` carries a cache_op: preseg erases the set and keeps
// the cache_op on the argument (#fuser<cache_op streaming>), which the
// lowered module still holds.
func.func @streamed(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %s = fuser.set %x cache_op = streaming : tensor<4x8xf32>
  %n = fuser.neg %s : tensor<4x8xf32>
  return %n : tensor<4x8xf32>
}
