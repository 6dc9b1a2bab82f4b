//===- FuserAttrs.td - fuser enum attributes ---------------*- tablegen -*-===//

#ifndef FUSER_DIALECT_FUSER_IR_FUSERATTRS_TD
#define FUSER_DIALECT_FUSER_IR_FUSERATTRS_TD

include "fuser/Dialect/Fuser/IR/FuserBase.td"
include "mlir/IR/EnumAttr.td"

def Fuser_ReductionKind : I32EnumAttr<"ReductionKind", "reduction combiner", [
    I32EnumAttrCase<"Add", 0, "add">,
    I32EnumAttrCase<"Mul", 1, "mul">,
    I32EnumAttrCase<"Max", 2, "max">,
    I32EnumAttrCase<"Min", 3, "min">]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::fuser";
}
def Fuser_ReductionKindAttr
    : EnumAttr<Fuser_Dialect, Fuser_ReductionKind, "reduction_kind">;

// nvFuser's CacheOp: the load cache hint a `set` carries.
def Fuser_CacheOp : I32EnumAttr<"CacheOp", "load cache hint", [
    I32EnumAttrCase<"Unspecified", 0, "unspecified">,
    I32EnumAttrCase<"AllLevels", 1, "all_levels">,
    I32EnumAttrCase<"Streaming", 2, "streaming">,
    I32EnumAttrCase<"Global", 3, "global">]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::fuser";
}
def Fuser_CacheOpAttr : EnumAttr<Fuser_Dialect, Fuser_CacheOp, "cache_op">;

def Fuser_SegmentKind : I32EnumAttr<"SegmentKind", "kind of a segment", [
    I32EnumAttrCase<"Pointwise", 0, "pointwise">,
    I32EnumAttrCase<"Reduction", 1, "reduction">,
    I32EnumAttrCase<"Alias", 2, "alias">]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::fuser";
}
def Fuser_SegmentKindAttr
    : EnumAttr<Fuser_Dialect, Fuser_SegmentKind, "segment_kind">;

#endif // FUSER_DIALECT_FUSER_IR_FUSERATTRS_TD
