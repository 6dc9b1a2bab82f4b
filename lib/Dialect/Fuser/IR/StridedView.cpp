//===- StridedView.cpp - meta ops as strided views of memory --------------===//

#include "fuser/Dialect/Fuser/IR/StridedView.h"

#include "fuser/Dialect/Fuser/IR/FuserOps.h"
#include "fuser/Dialect/Fuser/Utils/ShapeUtils.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::fuser;

StridedView StridedView::getContiguous(ArrayRef<int64_t> shape) {
  StridedView view;
  view.sizes.assign(shape.begin(), shape.end());
  view.strides = getRowMajorStrides(shape);
  return view;
}

int64_t StridedView::getLocation(ArrayRef<int64_t> index) const {
  int64_t location = offset;
  for (auto [i, stride] : llvm::zip_equal(index, strides))
    location += i * stride;
  return location;
}

StridedView StridedView::getSubview(ArrayRef<int64_t> offsets,
                                    ArrayRef<int64_t> sizes,
                                    ArrayRef<int64_t> steps) const {
  assert(offsets.size() == strides.size() && sizes.size() == strides.size() &&
         steps.size() == strides.size() && "subview of a different rank");
  StridedView result;
  result.sizes.assign(sizes.begin(), sizes.end());
  result.offset = offset;
  for (auto [start, step, stride] : llvm::zip_equal(offsets, steps, strides)) {
    result.offset += start * stride;
    result.strides.push_back(stride * step);
  }
  return result;
}

StridedView StridedView::expandTo(ArrayRef<int64_t> shape) const {
  assert(shape.size() == sizes.size() && "expand to a different rank");
  StridedView result = *this;
  for (auto [dim, size] : llvm::enumerate(shape)) {
    if (size != sizes[dim]) {
      result.sizes[dim] = size;
      result.strides[dim] = 0;
    }
  }
  return result;
}

/// Reinterprets `source` with `newShape` without moving elements, as
/// PyTorch's `view` does: each run of source dims that are contiguous with
/// each other must split or merge into whole result dims.
static std::optional<StridedView> reshape(const StridedView &source,
                                          ArrayRef<int64_t> newShape) {
  // Scalars and empty tensors fit any layout.
  if (source.sizes.empty() || llvm::is_contained(source.sizes, 0)) {
    StridedView result = StridedView::getContiguous(newShape);
    result.offset = source.offset;
    return result;
  }
  StridedView result;
  result.sizes.assign(newShape.begin(), newShape.end());
  result.strides.assign(newShape.size(), 0);
  result.offset = source.offset;

  int64_t resultDim = static_cast<int64_t>(newShape.size()) - 1;
  int64_t chunkBaseStride = source.strides.back();
  int64_t sourceNumel = 1;
  int64_t resultNumel = 1;
  for (int64_t sourceDim = static_cast<int64_t>(source.sizes.size()) - 1;
       sourceDim >= 0; --sourceDim) {
    sourceNumel *= source.sizes[sourceDim];
    bool chunkEnds = sourceDim == 0 || (source.sizes[sourceDim - 1] != 1 &&
                                        source.strides[sourceDim - 1] !=
                                            sourceNumel * chunkBaseStride);
    if (!chunkEnds)
      continue;
    while (resultDim >= 0 &&
           (resultNumel < sourceNumel || newShape[resultDim] == 1)) {
      result.strides[resultDim] = resultNumel * chunkBaseStride;
      resultNumel *= newShape[resultDim];
      --resultDim;
    }
    if (resultNumel != sourceNumel)
      return std::nullopt;
    if (sourceDim > 0) {
      chunkBaseStride = source.strides[sourceDim - 1];
      sourceNumel = 1;
      resultNumel = 1;
    }
  }
  if (resultDim != -1)
    return std::nullopt;
  return result;
}

std::optional<StridedView> mlir::fuser::applyMetaOp(Operation *op,
                                                    const StridedView &source) {
  return llvm::TypeSwitch<Operation *, std::optional<StridedView>>(op)
      .Case<SetOp, SegmentSetOp>(
          [&](auto) -> std::optional<StridedView> { return source; })
      .Case([&](ViewOp view) {
        return reshape(source, view.getResult().getType().getShape());
      })
      .Case([&](PermuteOp permute) -> std::optional<StridedView> {
        StridedView result;
        result.offset = source.offset;
        for (int64_t sourceDim : permute.getPermutation()) {
          result.sizes.push_back(source.sizes[sourceDim]);
          result.strides.push_back(source.strides[sourceDim]);
        }
        return result;
      })
      .Case([&](SqueezeOp squeeze) -> std::optional<StridedView> {
        StridedView result;
        result.offset = source.offset;
        ArrayRef<int64_t> squeezed = squeeze.getDims();
        for (auto [dim, size] : llvm::enumerate(source.sizes)) {
          if (llvm::is_contained(squeezed, static_cast<int64_t>(dim)))
            continue;
          result.sizes.push_back(size);
          result.strides.push_back(source.strides[dim]);
        }
        return result;
      })
      .Case([&](BroadcastOp broadcast) -> std::optional<StridedView> {
        StridedView result;
        result.offset = source.offset;
        ArrayRef<int64_t> inserted = broadcast.getDims();
        unsigned sourceDim = 0;
        for (int64_t dim = 0, rank = broadcast.getResult().getType().getRank();
             dim < rank; ++dim) {
          if (llvm::is_contained(inserted, dim)) {
            result.sizes.push_back(1);
            result.strides.push_back(0);
            continue;
          }
          result.sizes.push_back(source.sizes[sourceDim]);
          result.strides.push_back(source.strides[sourceDim]);
          ++sourceDim;
        }
        return result;
      })
      .Case([&](ExpandOp expand) -> std::optional<StridedView> {
        // Expanded dims repeat their single element: stride 0.
        return source.expandTo(expand.getResult().getType().getShape());
      })
      .Case([&](SliceOp slice) -> std::optional<StridedView> {
        return source.getSubview(slice.getStarts(),
                                 slice.getResult().getType().getShape(),
                                 slice.getStrides());
      })
      .Default([](Operation *) { return std::nullopt; });
}
