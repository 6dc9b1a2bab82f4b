//===- FuserBase.td - fuser dialect definition -------------*- tablegen -*-===//
//
// The `fuser` dialect models nvFuser's fusion IR: meta ops (data movement
// without arithmetic), casts, reductions and pointwise arithmetic on
// statically shaped tensors.
//
//===----------------------------------------------------------------------===//

#ifndef FUSER_DIALECT_FUSER_IR_FUSERBASE_TD
#define FUSER_DIALECT_FUSER_IR_FUSERBASE_TD

include "mlir/IR/OpBase.td"

def Fuser_Dialect : Dialect {
  let name = "fuser";
  let cppNamespace = "::mlir::fuser";
  let summary = "nvFuser fusion ops: meta ops, casts, reductions, pointwise";
  let description = [{
    A fusion is a `func.func` whose arguments and results are statically
    shaped ranked tensors of i1, i32, i64, f16, bf16, f32, f64,
    f8E4M3FN or f8E5M2. Scalars of the same element types (nvFuser's
    `define_scalar`) may be used as operands of pointwise ops, `pad` and
    `full`; they come from function arguments or `arith.constant`.

    The 8-bit floats (nvFuser's `Float8_e4m3fn` and `Float8_e5m2`) are
    storage types, as in nvFuser: data movement (the meta ops, `set`,
    `where`, `pad`, `cat`, `full`) and `cast` take them; arithmetic takes a
    `cast` to a wider float first.

    Binary, compare and `where` operands have equal rank; each dimension is
    either equal across the operands or 1, and size-1 dimensions broadcast
    against size-n ones, as in nvFuser. Element types must already agree:
    type promotion is the frontend's job and is spelled with `fuser.cast`.
  }];
  let useDefaultAttributePrinterParser = 1;
  // Motion and composition rules are written once over the meta and
  // elementwise op interfaces, so they are dialect-level patterns.
  let hasCanonicalizer = 1;
  // Folds of scalar constants make arith.constant ops.
  let hasConstantMaterializer = 1;
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

class Fuser_Op<string mnemonic, list<Trait> traits = []>
    : Op<Fuser_Dialect, mnemonic, traits>;

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

// nvFuser's ComplexFloat and ComplexDouble.
def Fuser_ComplexType : AnyTypeOf<[Complex<F32>, Complex<F64>]>;

// Every element type; the 8-bit floats only move and cast.
def Fuser_ElementType : AnyTypeOf<[I1, I32, I64, F16, BF16, F32, F64,
                                   Complex<F32>, Complex<F64>,
                                   F8E4M3FN, F8E5M2],
    "fuser element type (i1, i32, i64, f16, bf16, f32, f64, complex<f32>, "
    "complex<f64>, f8E4M3FN or f8E5M2)">;
// The element types arithmetic takes.
def Fuser_ArithmeticType : AnyTypeOf<[I1, I32, I64, F16, BF16, F32, F64,
                                      Complex<F32>, Complex<F64>]>;
// Those of them with an order (not complex).
def Fuser_RealType : AnyTypeOf<[I1, I32, I64, F16, BF16, F32, F64]>;
def Fuser_FloatType : AnyTypeOf<[F16, BF16, F32, F64]>;
def Fuser_NumericType : AnyTypeOf<[I32, I64, F16, BF16, F32, F64]>;
def Fuser_FloatOrComplexType : AnyTypeOf<[F16, BF16, F32, F64,
                                          Complex<F32>, Complex<F64>]>;
def Fuser_NumericOrComplexType : AnyTypeOf<[I32, I64, F16, BF16, F32, F64,
                                            Complex<F32>, Complex<F64>]>;

def Fuser_Tensor : StaticShapeTensorOf<[I1, I32, I64, F16, BF16, F32, F64,
                                        Complex<F32>, Complex<F64>,
                                        F8E4M3FN, F8E5M2]>;
def Fuser_ArithmeticTensor
    : StaticShapeTensorOf<[I1, I32, I64, F16, BF16, F32, F64, Complex<F32>,
                           Complex<F64>]>;
def Fuser_RealTensor : StaticShapeTensorOf<[I1, I32, I64, F16, BF16, F32, F64]>;
def Fuser_FloatTensor : StaticShapeTensorOf<[F16, BF16, F32, F64]>;
def Fuser_NumericTensor : StaticShapeTensorOf<[I32, I64, F16, BF16, F32, F64]>;
def Fuser_FloatOrComplexTensor
    : StaticShapeTensorOf<[F16, BF16, F32, F64, Complex<F32>, Complex<F64>]>;
def Fuser_NumericOrComplexTensor
    : StaticShapeTensorOf<[I32, I64, F16, BF16, F32, F64, Complex<F32>,
                           Complex<F64>]>;
def Fuser_ComplexTensor : StaticShapeTensorOf<[Complex<F32>, Complex<F64>]>;
def Fuser_ComplexPartTensor : StaticShapeTensorOf<[F32, F64]>;
def Fuser_BoolTensor : StaticShapeTensorOf<[I1]>;
def Fuser_IntegralTensor : StaticShapeTensorOf<[I1, I32, I64]>;
def Fuser_IntegerTensor : StaticShapeTensorOf<[I32, I64]>;

def Fuser_Value : AnyTypeOf<[Fuser_Tensor, Fuser_ElementType],
    "statically shaped tensor or scalar of a fuser element type">;
def Fuser_ArithmeticValue : AnyTypeOf<[Fuser_ArithmeticTensor,
                                        Fuser_ArithmeticType],
    "i1, integer, float or complex (not 8-bit float) tensor with static "
    "extents (dynamic extents are not supported) or scalar">;
def Fuser_RealValue : AnyTypeOf<[Fuser_RealTensor, Fuser_RealType],
    "i1, integer or float (not complex or 8-bit float) tensor with static "
    "extents (dynamic extents are not supported) or scalar">;
def Fuser_FloatOrComplexValue
    : AnyTypeOf<[Fuser_FloatOrComplexTensor, Fuser_FloatOrComplexType],
    "floating-point or complex tensor with static extents (dynamic extents "
    "are not supported) or scalar">;
def Fuser_NumericOrComplexValue
    : AnyTypeOf<[Fuser_NumericOrComplexTensor, Fuser_NumericOrComplexType],
    "numeric (non-i1) or complex tensor with static extents (dynamic "
    "extents are not supported) or scalar">;
def Fuser_ComplexValue : AnyTypeOf<[Fuser_ComplexTensor, Fuser_ComplexType],
    "complex<f32> or complex<f64> tensor with static extents (dynamic "
    "extents are not supported) or scalar">;
def Fuser_ComplexPartValue : AnyTypeOf<[Fuser_ComplexPartTensor, F32, F64],
    "f32 or f64 tensor with static extents (dynamic extents are not "
    "supported) or scalar">;
def Fuser_FloatValue : AnyTypeOf<[Fuser_FloatTensor, Fuser_FloatType],
    "floating-point tensor with static extents (dynamic extents are not "
    "supported) or scalar">;
def Fuser_NumericValue : AnyTypeOf<[Fuser_NumericTensor, Fuser_NumericType],
    "numeric (non-i1) tensor with static extents (dynamic extents are not "
    "supported) or scalar">;
def Fuser_IntegralValue : AnyTypeOf<[Fuser_IntegralTensor, I1, I32, I64],
    "i1, i32 or i64 tensor with static extents (dynamic extents are not "
    "supported) or scalar">;
def Fuser_IntegerValue : AnyTypeOf<[Fuser_IntegerTensor, I32, I64],
    "i32 or i64 tensor with static extents (dynamic extents are not "
    "supported) or scalar">;
def Fuser_BoolValue : AnyTypeOf<[Fuser_BoolTensor, I1],
    "i1 tensor with static extents (dynamic extents are not supported) or "
    "scalar">;

#endif // FUSER_DIALECT_FUSER_IR_FUSERBASE_TD
