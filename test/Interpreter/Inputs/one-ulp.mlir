// The fusion of errors.mlir's @scale with a factor one ulp above 1.0.
func.func @scale() -> tensor<3xf32> {
  %c = arith.constant dense<[1.0, 2.0, -4.0]> : tensor<3xf32>
  %k = arith.constant 1.00000012 : f32
  %r = fuser.mul %c, %k : tensor<3xf32>, f32 -> tensor<3xf32>
  return %r : tensor<3xf32>
}
