// Returns its inputs (the i32 one through two negations, so the fusion
// computes something): fuser-run --json prints the deterministic inputs.
func.func @every_dtype(%a: tensor<7xi1>, %b: tensor<9xi32>, %c: tensor<5xi64>, %d: tensor<6xbf16>, %e: tensor<4xf64>, %f: tensor<3xf16>) -> (tensor<7xi1>, tensor<9xi32>, tensor<5xi64>, tensor<6xbf16>, tensor<4xf64>, tensor<3xf16>) {
  %n = fuser.neg %b : tensor<9xi32>
  %p = fuser.neg %n : tensor<9xi32>
  return %a, %p, %c, %d, %e, %f : tensor<7xi1>, tensor<9xi32>, tensor<5xi64>, tensor<6xbf16>, tensor<4xf64>, tensor<3xf16>
}
