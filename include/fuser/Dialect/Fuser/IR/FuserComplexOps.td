//===- FuserComplexOps.td - building and splitting complex -*- tablegen -*-===//
//
// nvFuser's `complex(re, im)`, `real` and `imag`: the ops that move between
// complex<f32>/complex<f64> and their f32/f64 parts. The arithmetic ops that
// take complex operands are in FuserElementwiseOps.td (their operand
// classes in ElementwiseOps.def say which).
//
//===----------------------------------------------------------------------===//

#ifndef FUSER_DIALECT_FUSER_IR_FUSERCOMPLEXOPS_TD
#define FUSER_DIALECT_FUSER_IR_FUSERCOMPLEXOPS_TD

def Fuser_ComplexOp : Fuser_BroadcastingOp<"complex", [], [{
    Builds `re + im * i` from two f32 (or two f64) operands, exactly; the
    result is complex<f32> (complex<f64>).
}]> {
  let summary = "complex number from its real and imaginary parts";
  let arguments = (ins Fuser_ComplexPartValue:$re,
                       Fuser_ComplexPartValue:$im);
  let results = (outs Fuser_ComplexValue:$result);
  let assemblyFormat =
      "$re `,` $im attr-dict `:` type($re) `,` type($im) `->` type($result)";
}

class Fuser_ComplexPartOp<string mnemonic, string part>
    : Fuser_ElementwiseOp<mnemonic, [InferTypeOpAdaptor]> {
  let summary = "the " # part # " part of a complex number";
  let description = [{
    The }] # part # [{ part of each complex<f32> (complex<f64>) element, as
    f32 (f64), exactly. nvFuser's `real` of a real tensor is that tensor;
    the frontends emit nothing for it (`imag` of a real tensor is an error
    there, as in nvFuser).
}];
  let arguments = (ins Fuser_ComplexValue:$operand);
  let results = (outs Fuser_ComplexPartValue:$result);
  let assemblyFormat = "$operand attr-dict `:` type($operand)";
}

def Fuser_RealOp : Fuser_ComplexPartOp<"real", "real">;
def Fuser_ImagOp : Fuser_ComplexPartOp<"imag", "imaginary">;

#endif // FUSER_DIALECT_FUSER_IR_FUSERCOMPLEXOPS_TD
