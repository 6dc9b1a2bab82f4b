//===- FuserElementwiseOps.td - fuser pointwise ops --------*- tablegen -*-===//
//
// The unary, binary, ternary and compare ops of ElementwiseOps.def (the one
// list of them, with each op's operand and result classes) and `where`. Each
// description states the op's numeric semantics, edge cases included, as the
// reference interpreter implements them (docs/Interpreter.md); every backend
// gives the interpreter's bits except where an op says it comes from the
// math library. Scalar constant operands fold to the interpreter's result
// (ConstantFolding.cpp), except for the math-library ops.
//
//===----------------------------------------------------------------------===//

#ifndef FUSER_DIALECT_FUSER_IR_FUSERELEMENTWISEOPS_TD
#define FUSER_DIALECT_FUSER_IR_FUSERELEMENTWISEOPS_TD

//===----------------------------------------------------------------------===//
// Pointwise ops
//===----------------------------------------------------------------------===//

class Fuser_ElementwiseOp<string mnemonic, list<Trait> traits = []>
    : Fuser_Op<mnemonic, !listconcat([Pure,
          Fuser_ElementwiseOpInterface], traits)>;

// Numeric semantics shared by the arithmetic ops, as the reference
// interpreter implements them (docs/Interpreter.md). The op list with its
// per-op flags is ElementwiseOps.def.
defvar Fuser_HalfPrecisionDoc = [{
    f16 and bf16 are computed in f32 and the result is rounded to nearest
    even after every op.
}];
defvar Fuser_MathLibraryDoc = [{
    The value comes from the math library in the compute type (f32 or f64)
    and is not correctly rounded: results of correct backends may differ by
    a few ulp (`fuser-run --check-against` allows 4). The CPU backend calls
    the functions the interpreter calls (0 ulp apart); the GPU computes with
    libdevice, whose bounds are NVIDIA's (CUDA C++ Programming Guide,
    "Mathematical Functions"), not measured here (no GPU).
}];

defvar Fuser_ComplexMathDoc = [{
    Complex operands: computed from the real parts with the math library's
    real functions, as upstream MLIR's `convert-complex-to-standard` expands
    `complex` ops (the interpreter follows that expansion step for step, so
    backends agree with it within a few ulp per part; `fuser-run
    --check-against` allows 4). Edge cases (infinities, NaN, signed zeros)
    are that expansion's, not C99 Annex G's, and so is the accuracy against
    the exact result, measured by `bench/ulp_bounds.py --complex` (table in
    docs/Interpreter.md): normwise within 2 ulp for exp, sqrt and rsqrt, 8
    for tanh, 23 for tan, 15 for pow, but up to about 280 for log near
    |z| = 1 and for sin, 45 for cos, where the formulas cancel.
}];

defvar Fuser_ComplexFunctionDoc = [{
    Complex operands: nvFuser's runtime definition (its `complex_number.cu`,
    from libc++'s `<complex>`): libc++'s results for infinite and NaN parts,
    then its formula (asinh z = log(z + sqrt(z^2 + 1)), acosh and acos from
    log(z + sqrt(z^2 - 1)), atanh z = log((1 + z) / (1 - z)) / 2,
    asin z = -i asinh(iz), atan z = -i atanh(iz), sinh and cosh from the real
    parts' sinh, cosh, sin and cos, log10 and log2 as log z over log 10 or
    log 2, sigmoid z = 1 / (1 + e^-z)), computed with this dialect's complex
    log, sqrt, exp and division (upstream's expansions, see `fuser.log`), so
    the accuracy is theirs compounded. Measured normwise by
    `bench/ulp_bounds.py --complex` (4000 inputs, c64 / c128 max ulps; table
    in docs/Interpreter.md): sinh 1.9 / 1.9, cosh 1.9 / 1.7, sigmoid 17 / 50,
    log10 491 / 140, log2 408 / 116, acos and acosh 165 / 223, atan 599 /
    361, atanh 628 / 390, asin 819 / 751, asinh 1003 / 1290: the inverses'
    `log(z + sqrt(z^2 +- 1))` cancels for small |z| and negative real parts.
    The backends agree with the interpreter within 4 ulp per part (the CPU
    backend bit for bit on the deterministic inputs).
}];

class Fuser_UnaryOp<string mnemonic, Type operandType, string doc,
                    string semantics = "">
    : Fuser_ElementwiseOp<mnemonic, [SameOperandsAndResultType]> {
  let summary = doc;
  let description = !strconcat([{
    Applies the operation to each element of a tensor, or to a scalar.
}], Fuser_HalfPrecisionDoc, semantics);
  let arguments = (ins operandType:$operand);
  let results = (outs operandType:$result);
  let assemblyFormat = "$operand attr-dict `:` type($result)";
  let hasFolder = 1;
}

def Fuser_NegOp : Fuser_UnaryOp<"neg", Fuser_NumericOrComplexValue, "-x", [{
    Integers wrap: `neg(MIN)` is MIN. Floats flip the sign: `neg(+0.0)` is
    `-0.0`. Complex: both parts flip.
}]>;
def Fuser_AbsOp : Fuser_ElementwiseOp<"abs", [InferTypeOpAdaptor]> {
  let summary = "|x|";
  let description = [{
    Applies the operation to each element of a tensor, or to a scalar; the
    result has the operand's type, except that a complex operand gives its
    component type (nvFuser's `abs`).
}] # Fuser_HalfPrecisionDoc # [{
    Integers wrap: `abs(MIN)` is MIN. Floats clear the sign: `abs(-0.0)` is
    `+0.0`. Complex: `max * sqrt(1 + (min / max)^2)` over the parts'
    magnitudes, and `min` where that is NaN (so `abs(0)` is 0 and a NaN part
    gives NaN, also beside an infinite one), rounding after each step: IEEE
    operations only, the same bits on every backend, within 2 ulp of the
    exact modulus.
}];
  let arguments = (ins Fuser_NumericOrComplexValue:$operand);
  let results = (outs Fuser_NumericValue:$result);
  let assemblyFormat = "$operand attr-dict `:` type($operand)";
  let hasFolder = 1;
}
def Fuser_ExpOp : Fuser_UnaryOp<"exp", Fuser_FloatOrComplexValue, "e^x",
    Fuser_MathLibraryDoc # [{
    Measured on the host (glibc, `bench/ulp_bounds.py`, 4000 inputs over the
    domain against mpmath): at most 1 ulp in f32, 1 in f64, 0 in bf16.
}] # Fuser_ComplexMathDoc>;
def Fuser_LogOp : Fuser_UnaryOp<"log", Fuser_FloatOrComplexValue, "natural logarithm",
    Fuser_MathLibraryDoc # [{
    `log(±0)` is -inf; a negative operand gives NaN.
    Measured on the host (glibc, `bench/ulp_bounds.py`, 4000 inputs over the
    domain against mpmath): at most 0 ulp in f32, 0 in f64, 0 in bf16.
}] # Fuser_ComplexMathDoc>;
def Fuser_SqrtOp : Fuser_UnaryOp<"sqrt", Fuser_FloatOrComplexValue,
    "square root", [{
    Floats: correctly rounded (IEEE). `sqrt(-0.0)` is `-0.0`; a negative operand gives
    NaN.
}] # Fuser_ComplexMathDoc>;
def Fuser_RsqrtOp : Fuser_UnaryOp<"rsqrt", Fuser_FloatOrComplexValue,
    "1 / sqrt(x)", [{
    Computed as `1 / sqrt(x)`, rounding after each step, so it is not
    correctly rounded: results of correct backends may differ by a few ulp
    (`fuser-run --check-against` allows 4). `rsqrt(±0)` is ±inf.
    Measured on the host (glibc, `bench/ulp_bounds.py`, 4000 inputs over the
    domain against mpmath): at most 1 ulp in f32, 1 in f64, 0 in bf16.
    Complex: `|z|^(-1/2) (cos(-arg/2), sin(-arg/2))`, each real rsqrt in it
    computed as `1 / sqrt` too; `rsqrt(0)` is `(inf, nan)`, an infinite part
    gives signed zeros.
}] # Fuser_ComplexMathDoc>;
def Fuser_ReciprocalOp
    : Fuser_UnaryOp<"reciprocal", Fuser_FloatOrComplexValue, "1 / x", [{
    Correctly rounded IEEE division `1 / x`; `reciprocal(±0)` is ±inf.
    Complex: `div(1, x)`, with that op's bits.
}]>;
def Fuser_SinOp : Fuser_UnaryOp<"sin", Fuser_FloatOrComplexValue, "sine",
    Fuser_MathLibraryDoc # [{
    Measured on the host (glibc, `bench/ulp_bounds.py`, 4000 inputs over the
    domain against mpmath): at most 1 ulp in f32, 1 in f64, 0 in bf16.
}] # Fuser_ComplexMathDoc>;
def Fuser_CosOp : Fuser_UnaryOp<"cos", Fuser_FloatOrComplexValue, "cosine",
    Fuser_MathLibraryDoc # [{
    Measured on the host (glibc, `bench/ulp_bounds.py`, 4000 inputs over the
    domain against mpmath): at most 1 ulp in f32, 1 in f64, 0 in bf16.
}] # Fuser_ComplexMathDoc>;
def Fuser_TanhOp : Fuser_UnaryOp<"tanh", Fuser_FloatOrComplexValue,
    "hyperbolic tangent", Fuser_MathLibraryDoc # [{
    Measured on the host (glibc, `bench/ulp_bounds.py`, 4000 inputs over the
    domain against mpmath): at most 2 ulp in f32, 2 in f64, 0 in bf16.
}] # Fuser_ComplexMathDoc>;
def Fuser_SigmoidOp
    : Fuser_UnaryOp<"sigmoid", Fuser_FloatOrComplexValue, "1 / (1 + e^-x)",
    Fuser_MathLibraryDoc # [{
    Computed as `1 / (1 + exp(-x))`, rounding after each step.
    Measured on the host (glibc, `bench/ulp_bounds.py`, 4000 inputs over the
    domain against mpmath): at most 2 ulp in f32, 2 in f64, 0 in bf16.
}] # Fuser_ComplexFunctionDoc>;

def Fuser_AcosOp : Fuser_UnaryOp<"acos", Fuser_FloatOrComplexValue, "arc cosine",
    Fuser_MathLibraryDoc # [{
    NaN outside [-1, 1].
    Measured on the host (glibc, `bench/ulp_bounds.py`, 4000 inputs over the
    domain against mpmath): at most 1 ulp in f32, 1 in f64, 0 in bf16.
}] # Fuser_ComplexFunctionDoc>;
def Fuser_AcoshOp : Fuser_UnaryOp<"acosh", Fuser_FloatOrComplexValue,
    "inverse hyperbolic cosine", Fuser_MathLibraryDoc # [{
    NaN below 1; `acosh(+inf)` is +inf.
    Measured on the host (glibc, `bench/ulp_bounds.py`, 4000 inputs over the
    domain against mpmath): at most 1 ulp in f32, 1 in f64, 0 in bf16.
}] # Fuser_ComplexFunctionDoc>;
def Fuser_AsinOp : Fuser_UnaryOp<"asin", Fuser_FloatOrComplexValue, "arc sine",
    Fuser_MathLibraryDoc # [{
    NaN outside [-1, 1]; `asin(-0.0)` is `-0.0`.
    Measured on the host (glibc, `bench/ulp_bounds.py`, 4000 inputs over the
    domain against mpmath): at most 1 ulp in f32, 1 in f64, 0 in bf16.
}] # Fuser_ComplexFunctionDoc>;
def Fuser_AsinhOp : Fuser_UnaryOp<"asinh", Fuser_FloatOrComplexValue,
    "inverse hyperbolic sine", Fuser_MathLibraryDoc # [{
    Measured on the host (glibc, `bench/ulp_bounds.py`, 4000 inputs over the
    domain against mpmath): at most 1 ulp in f32, 1 in f64, 0 in bf16.
}] # Fuser_ComplexFunctionDoc>;
def Fuser_AtanOp : Fuser_UnaryOp<"atan", Fuser_FloatOrComplexValue, "arc tangent",
    Fuser_MathLibraryDoc # [{
    Measured on the host (glibc, `bench/ulp_bounds.py`, 4000 inputs over the
    domain against mpmath): at most 1 ulp in f32, 1 in f64, 0 in bf16.
}] # Fuser_ComplexFunctionDoc>;
def Fuser_AtanhOp : Fuser_UnaryOp<"atanh", Fuser_FloatOrComplexValue,
    "inverse hyperbolic tangent", Fuser_MathLibraryDoc # [{
    `atanh(±1)` is ±inf; NaN outside [-1, 1].
    Measured on the host (glibc, `bench/ulp_bounds.py`, 4000 inputs over the
    domain against mpmath): at most 1 ulp in f32, 1 in f64, 0 in bf16.
}] # Fuser_ComplexFunctionDoc>;
def Fuser_CoshOp : Fuser_UnaryOp<"cosh", Fuser_FloatOrComplexValue,
    "hyperbolic cosine", Fuser_MathLibraryDoc # [{
    Measured on the host (glibc, `bench/ulp_bounds.py`, 4000 inputs over the
    domain against mpmath): at most 1 ulp in f32, 1 in f64, 0 in bf16.
}] # Fuser_ComplexFunctionDoc>;
def Fuser_SinhOp : Fuser_UnaryOp<"sinh", Fuser_FloatOrComplexValue,
    "hyperbolic sine", Fuser_MathLibraryDoc # [{
    Measured on the host (glibc, `bench/ulp_bounds.py`, 4000 inputs over the
    domain against mpmath): at most 1 ulp in f32, 1 in f64, 0 in bf16.
}] # Fuser_ComplexFunctionDoc>;
def Fuser_TanOp : Fuser_UnaryOp<"tan", Fuser_FloatOrComplexValue, "tangent",
    Fuser_MathLibraryDoc # [{
    Measured on the host (glibc, `bench/ulp_bounds.py`, 4000 inputs over the
    domain against mpmath): at most 1 ulp in f32, 1 in f64, 0 in bf16.
}] # Fuser_ComplexMathDoc>;
def Fuser_ErfOp : Fuser_UnaryOp<"erf", Fuser_FloatValue, "error function",
    Fuser_MathLibraryDoc # [{
    Measured on the host (glibc, `bench/ulp_bounds.py`, 4000 inputs over the
    domain against mpmath): at most 1 ulp in f32, 1 in f64, 0 in bf16.
}]>;
def Fuser_ErfcOp : Fuser_UnaryOp<"erfc", Fuser_FloatValue,
    "complementary error function 1 - erf(x)", Fuser_MathLibraryDoc # [{
    Measured on the host (glibc, `bench/ulp_bounds.py`, 4000 inputs over the
    domain against mpmath): at most 2 ulp in f32, 2 in f64, 0 in bf16.
}]>;
def Fuser_ErfinvOp : Fuser_UnaryOp<"erfinv", Fuser_FloatValue,
    "inverse error function", [{
    `erfinv(±1)` is ±inf, NaN outside [-1, 1]. No C library has it: on the
    host (interpreter and CPU backend) it is Giles' approximation refined
    by Newton steps in f64 until they stop changing it (docs/Interpreter.md);
    on the GPU libdevice's `__nv_erfinv`/`__nv_erfinvf`. Results of correct
    backends may differ by a few ulp.
    Measured on the host (glibc, `bench/ulp_bounds.py`, 4000 inputs over the
    domain against mpmath): at most 0 ulp in f32, 1 in f64, 0 in bf16.
}]>;
def Fuser_ErfcinvOp : Fuser_UnaryOp<"erfcinv", Fuser_FloatValue,
    "inverse complementary error function", [{
    `erfcinv(0)` is +inf, `erfcinv(2)` -inf, NaN outside [0, 2]. On the host
    `erfinv(1 - x)` (exact) for x in [0.5, 1.5], else refined by Newton steps
    on `log(erfc)` in f64, so that tiny x keep their relative accuracy
    (docs/Interpreter.md); on the GPU libdevice's
    `__nv_erfcinv`/`__nv_erfcinvf`. Results of correct backends may differ by
    a few ulp.
    Measured on the host (glibc, `bench/ulp_bounds.py`, 4000 inputs over the
    domain against mpmath): at most 0 ulp in f32, 1 in f64, 0 in bf16.
}]>;
def Fuser_Exp2Op : Fuser_UnaryOp<"exp2", Fuser_FloatValue, "2^x",
    Fuser_MathLibraryDoc # [{
    Measured on the host (glibc, `bench/ulp_bounds.py`, 4000 inputs over the
    domain against mpmath): at most 0 ulp in f32, 1 in f64, 0 in bf16.
}]>;
def Fuser_Expm1Op : Fuser_UnaryOp<"expm1", Fuser_FloatValue, "e^x - 1",
    Fuser_MathLibraryDoc # [{
    Accurate near 0; `expm1(-0.0)` is `-0.0`.
    Measured on the host (glibc, `bench/ulp_bounds.py`, 4000 inputs over the
    domain against mpmath): at most 1 ulp in f32, 1 in f64, 0 in bf16.
}]>;
def Fuser_LgammaOp : Fuser_UnaryOp<"lgamma", Fuser_FloatValue,
    "log |gamma(x)|", Fuser_MathLibraryDoc # [{
    +inf at 0 and at the negative integers. On the GPU libdevice's
    `__nv_lgamma`/`__nv_lgammaf`, on the host the C library's `lgamma`.
    Measured on the host (glibc, `bench/ulp_bounds.py`, 4000 inputs over the
    domain against mpmath): at most 3 ulp in f32, 2 in f64, 0 in bf16.
}]>;
def Fuser_Log10Op : Fuser_UnaryOp<"log10", Fuser_FloatOrComplexValue,
    "base-10 logarithm", Fuser_MathLibraryDoc # [{
    Measured on the host (glibc, `bench/ulp_bounds.py`, 4000 inputs over the
    domain against mpmath): at most 1 ulp in f32, 1 in f64, 0 in bf16.
}] # Fuser_ComplexFunctionDoc>;
def Fuser_Log1pOp : Fuser_UnaryOp<"log1p", Fuser_FloatValue, "log(1 + x)",
    Fuser_MathLibraryDoc # [{
    Accurate near 0; `log1p(-1)` is -inf, NaN below -1.
    Measured on the host (glibc, `bench/ulp_bounds.py`, 4000 inputs over the
    domain against mpmath): at most 1 ulp in f32, 1 in f64, 0 in bf16.
}]>;
def Fuser_Log2Op : Fuser_UnaryOp<"log2", Fuser_FloatOrComplexValue,
    "base-2 logarithm", Fuser_MathLibraryDoc # [{
    Measured on the host (glibc, `bench/ulp_bounds.py`, 4000 inputs over the
    domain against mpmath): at most 0 ulp in f32, 1 in f64, 0 in bf16.
}] # Fuser_ComplexFunctionDoc>;
def Fuser_SiluOp : Fuser_UnaryOp<"silu", Fuser_FloatValue,
    "x * sigmoid(x)", Fuser_MathLibraryDoc # [{
    Computed as `x * (1 / (1 + exp(-x)))`, rounding after each step
    (nvFuser's runtime `silu`).
    Measured on the host (glibc, `bench/ulp_bounds.py`, 4000 inputs over the
    domain against mpmath): at most 2 ulp in f32, 2 in f64, 0 in bf16.
}]>;

defvar Fuser_IntegerIdentityDoc = [{
    On integers the identity.
}];
def Fuser_CeilOp : Fuser_UnaryOp<"ceil", Fuser_NumericValue,
    "round toward +inf", [{
    Exact. `ceil(-0.5)` is `-0.0`; NaN and ±inf are kept.
}] # Fuser_IntegerIdentityDoc>;
def Fuser_FloorOp : Fuser_UnaryOp<"floor", Fuser_NumericValue,
    "round toward -inf", [{
    Exact. `floor(-0.0)` is `-0.0`; NaN and ±inf are kept.
}] # Fuser_IntegerIdentityDoc>;
def Fuser_TruncOp : Fuser_UnaryOp<"trunc", Fuser_NumericValue,
    "round toward zero", [{
    Exact. `trunc(-0.5)` is `-0.0`; NaN and ±inf are kept.
}] # Fuser_IntegerIdentityDoc>;
def Fuser_RoundOp : Fuser_UnaryOp<"round", Fuser_NumericValue,
    "round to the nearest integer, ties to even", [{
    Exact; halfway cases go to the even neighbour (as torch.round and C's
    `nearbyint`): `round(2.5)` is 2, `round(-0.5)` is `-0.0`.
}] # Fuser_IntegerIdentityDoc>;
def Fuser_FracOp : Fuser_UnaryOp<"frac", Fuser_NumericValue,
    "x - trunc(x)", [{
    Exact (the subtraction of the truncated value loses nothing); a non-zero
    result has the operand's sign (`frac(-1.5)` is -0.5), a zero one is
    `+0.0` (`frac(-2.0)`, `frac(-0.0)`: IEEE `x - x`); ±inf and NaN give NaN.
    On integers 0.
}]>;
def Fuser_ReluOp : Fuser_UnaryOp<"relu", Fuser_NumericValue, "max(x, 0)", [{
    `x <= 0 ? 0 : x`: NaN stays NaN, `relu(-0.0)` is `+0.0`.
}]>;
def Fuser_SignOp : Fuser_UnaryOp<"sign", Fuser_NumericValue,
    "-1, 0 or 1 by the sign of x", [{
    `(0 < x) - (x < 0)` in the operand's type: 1 for positive values, -1 for
    negative ones, 0 for zeros of either sign and for NaN.
}]>;
def Fuser_BitwiseNotOp : Fuser_UnaryOp<"bitwise_not", Fuser_IntegralValue,
    "~x", [{
    Inverts every bit; on i1 the logical not.
}]>;

class Fuser_UnaryPredicateOp<string mnemonic, Type operandType, string doc,
                             string semantics>
    : Fuser_ElementwiseOp<mnemonic, [InferTypeOpAdaptor]> {
  let summary = doc # "; the result is i1";
  let description = [{
    Tests each element of a tensor, or a scalar; the result has the operand's
    shape. f16 and bf16 are tested exactly.
}] # semantics;
  let arguments = (ins operandType:$operand);
  let results = (outs Fuser_BoolValue:$result);
  let assemblyFormat = "$operand attr-dict `:` type($operand) `->` type($result)";
  let hasFolder = 1;
}

def Fuser_LogicalNotOp : Fuser_UnaryPredicateOp<"logical_not",
    Fuser_ArithmeticValue, "x == 0", [{
    True for zeros of either sign and false; NaN is true-valued, so
    `logical_not(NaN)` is false. A complex element is zero when both parts
    are.
}]>;
def Fuser_SignbitOp : Fuser_UnaryPredicateOp<"signbit",
    Fuser_RealValue, "the sign bit of x", [{
    Floats: the sign bit, so `signbit(-0.0)` is true; a NaN has no sign,
    so `signbit(NaN)` is false whatever its sign bit (the sign and payload
    of a NaN result depend on the operand order a compiler picks; the GPU's
    NaNs are positive). Integers: `x < 0`. i1: false.
}]>;
def Fuser_IsfiniteOp : Fuser_UnaryPredicateOp<"isfinite",
    Fuser_ArithmeticValue, "x is neither infinite nor NaN", [{
    True for every integer and i1; complex: both parts finite.
}]>;
def Fuser_IsinfOp : Fuser_UnaryPredicateOp<"isinf",
    Fuser_ArithmeticValue, "x is +inf or -inf", [{
    False for every integer and i1; complex: either part infinite.
}]>;
def Fuser_IsnanOp : Fuser_UnaryPredicateOp<"isnan",
    Fuser_ArithmeticValue, "x is NaN",
    [{
    False for every integer and i1; complex: either part NaN.
}]>;
def Fuser_IsneginfOp : Fuser_UnaryPredicateOp<"isneginf",
    Fuser_RealValue, "x is -inf", [{
    False for every integer and i1.
}]>;
def Fuser_IsposinfOp : Fuser_UnaryPredicateOp<"isposinf",
    Fuser_RealValue, "x is +inf", [{
    False for every integer and i1.
}]>;
def Fuser_IsrealOp : Fuser_UnaryPredicateOp<"isreal",
    Fuser_ArithmeticValue, "x has no imaginary part", [{
    True for every element of a real (non-complex) type, NaN and ±inf
    included; complex: the imaginary part is zero (of either sign).
}]>;

class Fuser_BroadcastingOp<string mnemonic, list<Trait> traits = [],
                           string semantics = "">
    : Fuser_ElementwiseOp<mnemonic, !listconcat(
          [InferTypeOpAdaptor], traits)> {
  let description = [{
    Operands are tensors of equal rank, whose dimensions are equal or 1 (size
    1 broadcasts), or scalars; all have the same element type. The result
    takes the larger size of each dimension; it is a scalar only when every
    operand is.
}] # semantics;
}

class Fuser_BinaryOp<string mnemonic, Type operandType, string doc,
                     string semantics>
    : Fuser_BroadcastingOp<mnemonic, [],
                           Fuser_HalfPrecisionDoc # semantics> {
  let summary = doc;
  let arguments = (ins operandType:$lhs, operandType:$rhs);
  let results = (outs operandType:$result);
  let assemblyFormat =
      "$lhs `,` $rhs attr-dict `:` type($lhs) `,` type($rhs) `->` type($result)";
  let hasFolder = 1;
}

defvar Fuser_WrappingDoc = [{
    Integers wrap (two's complement); floats follow IEEE.
}];
def Fuser_AddOp : Fuser_BinaryOp<"add", Fuser_NumericOrComplexValue,
    "lhs + rhs", Fuser_WrappingDoc # [{
    Complex: part by part.
}]>;
def Fuser_SubOp : Fuser_BinaryOp<"sub", Fuser_NumericOrComplexValue,
    "lhs - rhs", Fuser_WrappingDoc # [{
    Complex: part by part.
}]>;
def Fuser_MulOp : Fuser_BinaryOp<"mul", Fuser_NumericOrComplexValue,
    "lhs * rhs", Fuser_WrappingDoc # [{
    Complex: `(a*c - b*d, a*d + b*c)`, rounding after each step and without
    C99 Annex G's recovery of infinities (`(inf, 0) * (inf, 0)` has a NaN
    part), as upstream MLIR's `complex.mul` lowers; the same bits on every
    backend. nvFuser's runtime (libc++) recovers infinities there.
}]>;
def Fuser_DivOp : Fuser_BinaryOp<"div", Fuser_NumericOrComplexValue,
    "lhs / rhs (integers truncate toward zero)", [{
    Integers truncate toward zero and never trap: `x / 0` is 0 and
    `MIN / -1` is MIN (it wraps). Floats follow IEEE (`x / ±0` is ±inf, or NaN
    for `0 / 0`). Complex: Smith's algorithm (scaling by the ratio of the
    divisor's parts), with the corner cases of upstream MLIR's `complex.div`
    lowering (a zero divisor gives infinities, an infinite dividend over a
    finite divisor infinities, a finite one over an infinite divisor
    zeros), rounding after each step: the same bits on every backend. Not
    correctly rounded (a few ulp); nvFuser's runtime scales by a power of
    two instead and may differ in the last bits.
}]>;
def Fuser_MaximumOp : Fuser_BinaryOp<"maximum", Fuser_NumericValue,
    "larger of lhs and rhs (NaN if either is NaN)", [{
    NaN if either operand is NaN; `-0.0` orders below `+0.0`, so
    `maximum(-0.0, +0.0)` is `+0.0`.
}]>;
def Fuser_MinimumOp : Fuser_BinaryOp<"minimum", Fuser_NumericValue,
    "smaller of lhs and rhs (NaN if either is NaN)", [{
    NaN if either operand is NaN; `-0.0` orders below `+0.0`, so
    `minimum(-0.0, +0.0)` is `-0.0`.
}]>;
def Fuser_PowOp : Fuser_BinaryOp<"pow", Fuser_NumericOrComplexValue,
    "lhs ^ rhs", [{
    Floats: the math library's `pow` in the compute type, not correctly
    rounded (results of correct backends may differ by a few ulp;
    `fuser-run --check-against` allows 4). Integers: exact by repeated
    squaring, wrapping; a negative exponent gives the truncated real result:
    1 for base 1, 1 or -1 for base -1 (even or odd exponent), otherwise 0
    (base 0 included). Complex `(a + bi)^(c + di)`:
    `|z|^c e^(-d arg z) (cos q, sin q)` with `q = c arg z + d log|z|`, and
    upstream's cases: `0^w` is 0 for `c > 0` (1 for `w = 0`), `z^0` and `1^w`
    are 1, `inf^c` is inf for real `c > 0` and 0 for real `c < 0`.
}] # Fuser_ComplexMathDoc>;

def Fuser_Atan2Op : Fuser_BinaryOp<"atan2", Fuser_FloatValue,
    "arc tangent of lhs / rhs in the quadrant of (rhs, lhs)",
    Fuser_MathLibraryDoc # [{
    Signed zeros select the quadrant as in C: `atan2(+0.0, -0.0)` is pi,
    `atan2(-0.0, +0.0)` is `-0.0`.
}]>;

defvar Fuser_IntegerRemainderDoc = [{
    Integers never trap: `x % 0` is `x` (so that `(x / y) * y + x % y` is `x`
    with `fuser.div`'s `x / 0 == 0`) and `MIN % -1` is 0.
}];
def Fuser_FmodOp : Fuser_BinaryOp<"fmod", Fuser_NumericValue,
    "remainder of lhs / rhs truncated toward zero (sign of lhs)", [{
    C's `fmod`: exact; the result has the sign of `lhs` (`fmod(-5, 3)` is
    -2, `fmod(-0.0, 1)` is `-0.0`). Floats: `fmod(x, ±0)` and `fmod(±inf, y)`
    are NaN, `fmod(x, ±inf)` is `x`.
}] # Fuser_IntegerRemainderDoc>;
def Fuser_ModOp : Fuser_BinaryOp<"mod", Fuser_NumericValue,
    "C's % (fmod on floats)", [{
    nvFuser's `mod`: the same values as `fuser.fmod` (C's `%` on integers,
    `fmod` on floats).
}] # Fuser_IntegerRemainderDoc>;
def Fuser_RemainderOp : Fuser_BinaryOp<"remainder", Fuser_NumericValue,
    "remainder of lhs / rhs rounded toward -inf (sign of rhs)", [{
    Python's `%` (torch.remainder): `r = fmod(lhs, rhs)`, then `r + rhs`
    where `r` is non-zero and its sign differs from `rhs`'s
    (`remainder(-5, 3)` is 1). For floats the addition rounds; a zero `r`
    keeps the sign of `lhs`. Floats: `remainder(x, ±0)` and
    `remainder(±inf, y)` are NaN.
}] # Fuser_IntegerRemainderDoc>;
def Fuser_NextafterOp : Fuser_BinaryOp<"nextafter", Fuser_FloatValue,
    "the next representable value after lhs toward rhs", [{
    Exact, in the element type itself (for f16 and bf16 too, not in f32):
    `rhs` when they are equal (so `nextafter(-0.0, +0.0)` is `+0.0`), NaN
    when either is NaN, the smallest subnormal of `rhs`'s sign after a zero.
}]>;
def Fuser_GcdOp : Fuser_BinaryOp<"gcd", Fuser_IntegerValue,
    "greatest common divisor of |lhs| and |rhs|", [{
    Non-negative; `gcd(x, 0)` is `|x|` and `gcd(0, 0)` is 0. `|MIN|` wraps:
    `gcd(MIN, 0)` and `gcd(MIN, MIN)` are MIN.
}]>;
def Fuser_BitwiseAndOp : Fuser_BinaryOp<"bitwise_and", Fuser_IntegralValue,
    "lhs & rhs", [{
    On i1 the logical and.
}]>;
def Fuser_BitwiseOrOp : Fuser_BinaryOp<"bitwise_or", Fuser_IntegralValue,
    "lhs | rhs", [{
    On i1 the logical or.
}]>;
def Fuser_BitwiseXorOp : Fuser_BinaryOp<"bitwise_xor", Fuser_IntegralValue,
    "lhs ^ rhs", [{
    On i1 the logical exclusive or.
}]>;
def Fuser_BitwiseLeftShiftOp : Fuser_BinaryOp<"bitwise_left_shift",
    Fuser_IntegerValue, "lhs << rhs", [{
    Wraps (the bits shifted out are lost). A shift by a negative amount or by
    the bit width or more gives 0.
}]>;
def Fuser_BitwiseRightShiftOp : Fuser_BinaryOp<"bitwise_right_shift",
    Fuser_IntegerValue, "lhs >> rhs, arithmetic", [{
    Shifts in copies of the sign bit. A shift by a negative amount or by the
    bit width or more gives -1 for negative `lhs`, else 0.
}]>;
def Fuser_LogicalRightShiftOp : Fuser_BinaryOp<"logical_right_shift",
    Fuser_IntegerValue, "lhs >> rhs, shifting in zeros", [{
    `lhs` read as unsigned. A shift by a negative amount or by the bit width
    or more gives 0.
}]>;

class Fuser_LogicalBinaryOp<string mnemonic, string doc>
    : Fuser_BroadcastingOp<mnemonic, [], [{
    Each operand counts as true when it is not zero (NaN is true, `-0.0`
    false; a complex element when either part is not zero); any arithmetic
    element type, i1 included.
}]> {
  let summary = doc # "; the result is i1";
  let arguments = (ins Fuser_ArithmeticValue:$lhs,
                       Fuser_ArithmeticValue:$rhs);
  let results = (outs Fuser_BoolValue:$result);
  let assemblyFormat =
      "$lhs `,` $rhs attr-dict `:` type($lhs) `,` type($rhs) `->` type($result)";
  let hasFolder = 1;
}

def Fuser_LogicalAndOp : Fuser_LogicalBinaryOp<"logical_and",
    "lhs != 0 && rhs != 0">;
def Fuser_LogicalOrOp : Fuser_LogicalBinaryOp<"logical_or",
    "lhs != 0 || rhs != 0">;

class Fuser_TernaryOp<string mnemonic, string doc, string semantics>
    : Fuser_BroadcastingOp<mnemonic, [], Fuser_HalfPrecisionDoc # semantics> {
  let summary = doc;
  let hasFolder = 1;
}

def Fuser_LerpOp : Fuser_TernaryOp<"lerp",
    "start + weight * (end - start)", [{
    nvFuser's and torch's formula, rounding after each step:
    `weight < 0.5 ? start + weight * (end - start)
                  : end - (end - start) * (1 - weight)`,
    so that `lerp(a, b, 1)` is `b` exactly.
}]> {
  let arguments = (ins Fuser_FloatValue:$start, Fuser_FloatValue:$end,
                       Fuser_FloatValue:$weight);
  let results = (outs Fuser_FloatValue:$result);
  let assemblyFormat = [{
    $start `,` $end `,` $weight attr-dict
    `:` type($start) `,` type($end) `,` type($weight) `->` type($result)
  }];
}
def Fuser_ClampOp : Fuser_TernaryOp<"clamp", "min(max(x, lo), hi)", [{
    `minimum(maximum(operand, min), max)` with those ops' NaN propagation and
    signed-zero order: a NaN operand or bound gives NaN; `min > max` gives
    `max`.
}]> {
  let arguments = (ins Fuser_NumericValue:$operand, Fuser_NumericValue:$min,
                       Fuser_NumericValue:$max);
  let results = (outs Fuser_NumericValue:$result);
  let assemblyFormat = [{
    $operand `,` $min `,` $max attr-dict
    `:` type($operand) `,` type($min) `,` type($max) `->` type($result)
  }];
}
def Fuser_ThresholdOp : Fuser_TernaryOp<"threshold",
    "operand <= threshold ? value : operand", [{
    torch's `threshold`: elements at or below `threshold` become `value`; a
    NaN operand is kept (the comparison is false).
}]> {
  let arguments = (ins Fuser_NumericValue:$operand,
                       Fuser_NumericValue:$threshold,
                       Fuser_NumericValue:$value);
  let results = (outs Fuser_NumericValue:$result);
  let assemblyFormat = [{
    $operand `,` $threshold `,` $value attr-dict
    `:` type($operand) `,` type($threshold) `,` type($value) `->` type($result)
  }];
}

class Fuser_CompareOp<string mnemonic, string doc,
                      Type operandType = Fuser_RealValue>
    : Fuser_BroadcastingOp<mnemonic, [], [{
    Any real element type, i1 included (false < true); f16 and bf16 compare
    exactly. Floats compare as IEEE: NaN is unequal to everything (`ne` is
    true, every other comparison false) and `-0.0 == +0.0`. Complex
    elements (`eq` and `ne` only) are equal when both parts are.
}]> {
  let summary = doc # "; the result is i1";
  let arguments = (ins operandType:$lhs, operandType:$rhs);
  let results = (outs Fuser_BoolValue:$result);
  let assemblyFormat =
      "$lhs `,` $rhs attr-dict `:` type($lhs) `,` type($rhs) `->` type($result)";
  let hasFolder = 1;
}

def Fuser_EqOp : Fuser_CompareOp<"eq", "lhs == rhs", Fuser_ArithmeticValue>;
def Fuser_NeOp : Fuser_CompareOp<"ne", "lhs != rhs", Fuser_ArithmeticValue>;
def Fuser_LtOp : Fuser_CompareOp<"lt", "lhs < rhs">;
def Fuser_LeOp : Fuser_CompareOp<"le", "lhs <= rhs">;
def Fuser_GtOp : Fuser_CompareOp<"gt", "lhs > rhs">;
def Fuser_GeOp : Fuser_CompareOp<"ge", "lhs >= rhs">;

def Fuser_WhereOp : Fuser_BroadcastingOp<"where"> {
  let summary = "select: condition ? lhs : rhs";
  let arguments = (ins Fuser_BoolValue:$condition, Fuser_Value:$lhs,
                       Fuser_Value:$rhs);
  let results = (outs Fuser_Value:$result);
  let assemblyFormat = [{
    $condition `,` $lhs `,` $rhs attr-dict
    `:` type($condition) `,` type($lhs) `,` type($rhs) `->` type($result)
  }];
}

#endif // FUSER_DIALECT_FUSER_IR_FUSERELEMENTWISEOPS_TD
