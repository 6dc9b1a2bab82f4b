// RUN: fuser-opt %s | fuser-opt | FileCheck %s

// fuser.scatter round-trips: a plain write, each combiner, an index row
// shorter than self's and src longer than the index, i32 indices, bool
// and complex elements, and an empty index.
// CHECK-LABEL: func.func @scatters
// CHECK: fuser.scatter %arg0[%arg1] = %arg2 dim 0 : tensor<8x3xf32>, tensor<4x3xi64>, tensor<4x3xf32>
// CHECK: fuser.scatter %arg0[%arg1] = %arg2 dim 0 reduce add : tensor<8x3xf32>, tensor<4x3xi64>, tensor<4x3xf32>
// CHECK: fuser.scatter %arg0[%arg1] = %arg2 dim 0 reduce max : tensor<8x3xf32>, tensor<4x3xi64>, tensor<4x3xf32>
// CHECK: fuser.scatter %arg3[%arg4] = %arg5 dim 1 reduce mul : tensor<2x5xbf16>, tensor<2x2xi32>, tensor<3x4xbf16>
// CHECK: fuser.scatter %arg6[%arg7] = %arg6 dim 0 : tensor<4xi1>, tensor<2xi64>, tensor<4xi1>
// CHECK: fuser.scatter %arg8[%arg9] = %arg8 dim 0 reduce add : tensor<3xcomplex<f32>>, tensor<0xi64>, tensor<3xcomplex<f32>>
func.func @scatters(%x: tensor<8x3xf32>, %i: tensor<4x3xi64>, %s: tensor<4x3xf32>,
                    %h: tensor<2x5xbf16>, %j: tensor<2x2xi32>, %t: tensor<3x4xbf16>,
                    %b: tensor<4xi1>, %k: tensor<2xi64>,
                    %c: tensor<3xcomplex<f32>>, %e: tensor<0xi64>)
    -> (tensor<8x3xf32>, tensor<8x3xf32>, tensor<8x3xf32>, tensor<2x5xbf16>, tensor<4xi1>, tensor<3xcomplex<f32>>) {
  %0 = fuser.scatter %x[%i] = %s dim 0 : tensor<8x3xf32>, tensor<4x3xi64>, tensor<4x3xf32>
  %1 = fuser.scatter %x[%i] = %s dim 0 reduce add : tensor<8x3xf32>, tensor<4x3xi64>, tensor<4x3xf32>
  %2 = fuser.scatter %x[%i] = %s dim 0 reduce max : tensor<8x3xf32>, tensor<4x3xi64>, tensor<4x3xf32>
  %3 = fuser.scatter %h[%j] = %t dim 1 reduce mul : tensor<2x5xbf16>, tensor<2x2xi32>, tensor<3x4xbf16>
  %4 = fuser.scatter %b[%k] = %b dim 0 : tensor<4xi1>, tensor<2xi64>, tensor<4xi1>
  %5 = fuser.scatter %c[%e] = %c dim 0 reduce add : tensor<3xcomplex<f32>>, tensor<0xi64>, tensor<3xcomplex<f32>>
  return %0, %1, %2, %3, %4, %5 : tensor<8x3xf32>, tensor<8x3xf32>, tensor<8x3xf32>, tensor<2x5xbf16>, tensor<4xi1>, tensor<3xcomplex<f32>>
}
