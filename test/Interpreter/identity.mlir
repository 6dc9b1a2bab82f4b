// The identity fusion returns its inputs, so its checksums are those of the
// deterministic inputs; Inputs/expected.py recomputes them independently from
// the PRODUCT.md formula.
// RUN: fuser-run %s > %t.seed0
// RUN: python3 %S/Inputs/expected.py 0 "tensor<2x3xf32>" "tensor<4x5xbf16>" "tensor<7xf16>" "tensor<3xf64>" "tensor<3x2xi32>" "tensor<6xi64>" "tensor<9xi1>" > %t.expected0
// RUN: diff %t.expected0 %t.seed0
// RUN: fuser-run %s --seed 12345 > %t.seed12345
// RUN: python3 %S/Inputs/expected.py 12345 "tensor<2x3xf32>" "tensor<4x5xbf16>" "tensor<7xf16>" "tensor<3xf64>" "tensor<3x2xi32>" "tensor<6xi64>" "tensor<9xi1>" > %t.expected12345
// RUN: diff %t.expected12345 %t.seed12345
// RUN: fuser-run %s --print-values | FileCheck %s

// CHECK:      result 0: tensor<2x3xf32> fnv1a64=0x799512a56e5daa96
// CHECK-NEXT:   {{\[\[}}-0.375, 5.375, -1.125], [-6.875, 3.75, 6.875]]
// CHECK:      result 4: tensor<3x2xi32>
// CHECK-NEXT:   {{\[\[}}{{-?[0-9]+}}, {{-?[0-9]+}}], [{{.*}}], [{{.*}}]]
// CHECK:      result 6: tensor<9xi1>
// CHECK-NEXT:   [{{(true|false)(, (true|false))+}}]
func.func @identity(%a: tensor<2x3xf32>, %b: tensor<4x5xbf16>, %c: tensor<7xf16>,
                    %d: tensor<3xf64>, %e: tensor<3x2xi32>, %f: tensor<6xi64>,
                    %g: tensor<9xi1>)
    -> (tensor<2x3xf32>, tensor<4x5xbf16>, tensor<7xf16>, tensor<3xf64>,
        tensor<3x2xi32>, tensor<6xi64>, tensor<9xi1>) {
  return %a, %b, %c, %d, %e, %f, %g : tensor<2x3xf32>, tensor<4x5xbf16>,
      tensor<7xf16>, tensor<3xf64>, tensor<3x2xi32>, tensor<6xi64>, tensor<9xi1>
}
