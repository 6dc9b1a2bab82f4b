// The top-k rule of the kernel templates (KernelTemplates.cpp,
// getTopkSelection; SegmentGraph.cpp, keepsArgsortRows): an argsort read
// only through slices of its first k along its sorted dim (starts 0,
// strides 1, every other dim whole, 1 <= k < extent) is one kernel with
// them and with what is computed from them element by element (a gather
// of a source not computed from the argsort reads its index so), writing
// values of the slices' shape only: a selection (SelectRowKernel) for k <=
// 64, else a sort kind writing the first k ranks of each row. Fires:
// - @topk: nvFuser's topk as the frontend spells it (argsort, slice, gather);
// - @argmin: k = 1, ascending;
// - @columns: along dim 0, k = 16, a consumer of the indices;
// - @producer: the argsort's source computed (exp) and read only by it:
//   recomputed in the selection;
// - @sorted_values: no slice; the gather of the source by the whole
//   argsort joins its kernel (a sort kind's);
// - @k17: k = 17 (more than a selection kept before it kept 64);
// - @k65_of_4096: k = 65 is more than a selection keeps: rows of 4096
//   sorted by a block (BlockSortKernel), which writes the first 65 ranks;
// - @flat_ids: the indices also flattened (an MoE router's [tokens * k]
//   ids): the reshape of the top-k slice does not join the slice before
//   the merge queue runs (SegmentGraph::partition, isTopkReshape), as
//   reshapes of computed values do, so the slice joins its argsort's
//   kernel and the flat ids are a view of the [6, 2] it writes.
// Must not fire:
// - @offset, @strided, @cut_rows: a slice from 1, by 2, or cutting another
//   dim is not the argsort's first k;
// - @full_too: the argsort is also written whole;
// - @producer_written: the argsort's source is computed and also written (a
//   full-row value beside the first k): its producer is a kernel of its
//   own (@producer, where it is not written, is recomputed in the
//   selection, which reads the source at any position of the row);
// - @gather_sorted: a gather whose source is the argsort's result reads it
//   across the rows;
// - @flat_offset: a reshape of a slice that is not a top-k (from 1) joins
//   the slice first, as before the rule: the argsort's kernel writes its
//   rows, and the slice and reshape are a second kernel.
// RUN: fuser-opt %s --fuser-preseg --fuser-segment --fuser-segment-report -o /dev/null | FileCheck %s
// RUN: fuser-opt %s --fuser-preseg --fuser-segment --fuser-schedule --convert-fuser-to-scf | FileCheck %s --check-prefix=KINDS
// RUN: fuser-opt %s --fuser-preseg --fuser-segment --fuser-schedule --convert-fuser-to-scf | grep -c "memref.global.*@__fuser_select_keys" | FileCheck %s --check-prefix=COUNT

// CHECK-LABEL: fusion @topk: 1 kernel, 1 segment
// CHECK: out #0.0: tensor<6x5xi64>
// CHECK: out #0.1: tensor<6x5xf32>
// CHECK-LABEL: fusion @argmin: 1 kernel, 1 segment
// CHECK-LABEL: fusion @columns: 1 kernel, 1 segment
// CHECK-LABEL: fusion @sorted_values: 1 kernel, 1 segment
// CHECK-LABEL: fusion @k17: 1 kernel, 1 segment
// CHECK-LABEL: fusion @k65_of_4096: 1 kernel, 1 segment
// CHECK-LABEL: fusion @offset: 2 kernels, 3 segments
// CHECK: not one kernel with #2: not the rows of an argsort: it reads its argsort's result other than element by element
// CHECK-LABEL: fusion @strided: 2 kernels, 3 segments
// CHECK-LABEL: fusion @cut_rows: 2 kernels, 3 segments
// CHECK-LABEL: fusion @full_too: 2 kernels, 2 segments
// CHECK: not one kernel with #1: not the rows of an argsort: it writes a value of another shape than the first k of its argsort's rows that it selects
// CHECK-LABEL: fusion @producer: 1 kernel, 1 segment
// CHECK-LABEL: fusion @producer_written: 2 kernels, 2 segments
// CHECK-LABEL: fusion @gather_sorted: 2 kernels, 2 segments
// CHECK: not one kernel with #1: not the rows of an argsort: it reads its argsort's result other than element by element
// CHECK-LABEL: fusion @flat_ids: 1 kernel, 2 segments
// CHECK: segment #0 pointwise
// CHECK: out #0.0: tensor<6x2xi64>
// CHECK: segment #1 alias (no kernel)
// CHECK: out #1.0: tensor<12xi64>, view of in 0
// CHECK-LABEL: fusion @flat_offset: 2 kernels, 2 segments
// CHECK: out #0.0: tensor<6x40xi64>
// CHECK: out #1.0: tensor<12xi64>

// The selection's workgroup lists (a thread per 4096 elements, at most
// 32, k keys and positions each) in the kernels of @topk (3 threads of 5
// f32 for rows of 10000), @argmin (1 of 1 i32), @columns (1 of 16; bf16
// keys compare as f32), @k17 (1 of 17), @producer and @producer_written
// (1 of 5), @flat_ids (1 of 2), and no other; the block sort's pairs (4096
// f32 keys) in @k65_of_4096's.
// KINDS-DAG: memref.global "private" @__fuser_select_keys : memref<15xf32, #gpu.address_space<workgroup>>
// KINDS-DAG: memref.global "private" @__fuser_select_positions : memref<15xi32, #gpu.address_space<workgroup>>
// KINDS-DAG: memref.global "private" @__fuser_select_keys_0 : memref<1xi32, #gpu.address_space<workgroup>>
// KINDS-DAG: memref.global "private" @__fuser_select_keys_1 : memref<16xf32, #gpu.address_space<workgroup>>
// KINDS-DAG: memref.global "private" @__fuser_select_keys_2 : memref<17xf32, #gpu.address_space<workgroup>>
// KINDS-DAG: memref.global "private" @__fuser_select_keys_3 : memref<5xf32, #gpu.address_space<workgroup>>
// KINDS-DAG: memref.global "private" @__fuser_select_keys_4 : memref<5xf32, #gpu.address_space<workgroup>>
// KINDS-DAG: memref.global "private" @__fuser_select_keys_5 : memref<2xf32, #gpu.address_space<workgroup>>
// KINDS-DAG: memref.global "private" @__fuser_sort_keys : memref<4096xf32, #gpu.address_space<workgroup>>
// COUNT: 7

func.func @topk(%x: tensor<6x10000xf32>) -> (tensor<6x5xf32>, tensor<6x5xi64>) {
  %i = fuser.argsort %x [1] descending : tensor<6x10000xf32> -> tensor<6x10000xi64>
  %k = fuser.slice %i starts [0, 0] limits [6, 5] strides [1, 1] : tensor<6x10000xi64> -> tensor<6x5xi64>
  %v = fuser.gather %x[%k] dim 1 : tensor<6x10000xf32>, tensor<6x5xi64> -> tensor<6x5xf32>
  return %v, %k : tensor<6x5xf32>, tensor<6x5xi64>
}

func.func @argmin(%x: tensor<3x100xi32>) -> tensor<3x1xi64> {
  %i = fuser.argsort %x [1] : tensor<3x100xi32> -> tensor<3x100xi64>
  %k = fuser.slice %i starts [0, 0] limits [3, 1] strides [1, 1] : tensor<3x100xi64> -> tensor<3x1xi64>
  return %k : tensor<3x1xi64>
}

func.func @columns(%x: tensor<33x4xbf16>) -> tensor<16x4xi64> {
  %i = fuser.argsort %x [0] descending : tensor<33x4xbf16> -> tensor<33x4xi64>
  %k = fuser.slice %i starts [0, 0] limits [16, 4] strides [1, 1] : tensor<33x4xi64> -> tensor<16x4xi64>
  %two = arith.constant 2 : i64
  %d = fuser.mul %k, %two : tensor<16x4xi64>, i64 -> tensor<16x4xi64>
  return %d : tensor<16x4xi64>
}

func.func @sorted_values(%x: tensor<6x40xf32>) -> tensor<6x40xf32> {
  %i = fuser.argsort %x [1] : tensor<6x40xf32> -> tensor<6x40xi64>
  %v = fuser.gather %x[%i] dim 1 : tensor<6x40xf32>, tensor<6x40xi64> -> tensor<6x40xf32>
  return %v : tensor<6x40xf32>
}

func.func @k17(%x: tensor<6x40xf32>) -> (tensor<6x17xf32>, tensor<6x17xi64>) {
  %i = fuser.argsort %x [1] descending : tensor<6x40xf32> -> tensor<6x40xi64>
  %k = fuser.slice %i starts [0, 0] limits [6, 17] strides [1, 1] : tensor<6x40xi64> -> tensor<6x17xi64>
  %v = fuser.gather %x[%k] dim 1 : tensor<6x40xf32>, tensor<6x17xi64> -> tensor<6x17xf32>
  return %v, %k : tensor<6x17xf32>, tensor<6x17xi64>
}

func.func @k65_of_4096(%x: tensor<2x4096xf32>) -> (tensor<2x65xf32>, tensor<2x65xi64>) {
  %i = fuser.argsort %x [1] descending : tensor<2x4096xf32> -> tensor<2x4096xi64>
  %k = fuser.slice %i starts [0, 0] limits [2, 65] strides [1, 1] : tensor<2x4096xi64> -> tensor<2x65xi64>
  %v = fuser.gather %x[%k] dim 1 : tensor<2x4096xf32>, tensor<2x65xi64> -> tensor<2x65xf32>
  return %v, %k : tensor<2x65xf32>, tensor<2x65xi64>
}

func.func @offset(%x: tensor<6x40xf32>) -> (tensor<6x5xf32>, tensor<6x5xi64>) {
  %i = fuser.argsort %x [1] descending : tensor<6x40xf32> -> tensor<6x40xi64>
  %k = fuser.slice %i starts [0, 1] limits [6, 6] strides [1, 1] : tensor<6x40xi64> -> tensor<6x5xi64>
  %v = fuser.gather %x[%k] dim 1 : tensor<6x40xf32>, tensor<6x5xi64> -> tensor<6x5xf32>
  return %v, %k : tensor<6x5xf32>, tensor<6x5xi64>
}

func.func @strided(%x: tensor<6x40xf32>) -> (tensor<6x5xf32>, tensor<6x5xi64>) {
  %i = fuser.argsort %x [1] descending : tensor<6x40xf32> -> tensor<6x40xi64>
  %k = fuser.slice %i starts [0, 0] limits [6, 10] strides [1, 2] : tensor<6x40xi64> -> tensor<6x5xi64>
  %v = fuser.gather %x[%k] dim 1 : tensor<6x40xf32>, tensor<6x5xi64> -> tensor<6x5xf32>
  return %v, %k : tensor<6x5xf32>, tensor<6x5xi64>
}

func.func @cut_rows(%x: tensor<6x40xf32>) -> (tensor<3x5xf32>, tensor<3x5xi64>) {
  %i = fuser.argsort %x [1] descending : tensor<6x40xf32> -> tensor<6x40xi64>
  %k = fuser.slice %i starts [0, 0] limits [3, 5] strides [1, 1] : tensor<6x40xi64> -> tensor<3x5xi64>
  %v = fuser.gather %x[%k] dim 1 : tensor<6x40xf32>, tensor<3x5xi64> -> tensor<3x5xf32>
  return %v, %k : tensor<3x5xf32>, tensor<3x5xi64>
}

func.func @full_too(%x: tensor<6x40xf32>) -> (tensor<6x40xi64>, tensor<6x5xf32>) {
  %i = fuser.argsort %x [1] descending : tensor<6x40xf32> -> tensor<6x40xi64>
  %k = fuser.slice %i starts [0, 0] limits [6, 5] strides [1, 1] : tensor<6x40xi64> -> tensor<6x5xi64>
  %v = fuser.gather %x[%k] dim 1 : tensor<6x40xf32>, tensor<6x5xi64> -> tensor<6x5xf32>
  return %i, %v : tensor<6x40xi64>, tensor<6x5xf32>
}

func.func @producer(%x: tensor<6x40xf32>) -> tensor<6x5xi64> {
  %e = fuser.exp %x : tensor<6x40xf32>
  %i = fuser.argsort %e [1] descending : tensor<6x40xf32> -> tensor<6x40xi64>
  %k = fuser.slice %i starts [0, 0] limits [6, 5] strides [1, 1] : tensor<6x40xi64> -> tensor<6x5xi64>
  return %k : tensor<6x5xi64>
}

func.func @producer_written(%x: tensor<6x40xf32>) -> (tensor<6x5xi64>, tensor<6x40xf32>) {
  %e = fuser.exp %x : tensor<6x40xf32>
  %i = fuser.argsort %e [1] descending : tensor<6x40xf32> -> tensor<6x40xi64>
  %k = fuser.slice %i starts [0, 0] limits [6, 5] strides [1, 1] : tensor<6x40xi64> -> tensor<6x5xi64>
  return %k, %e : tensor<6x5xi64>, tensor<6x40xf32>
}

func.func @gather_sorted(%x: tensor<6x40xf32>, %j: tensor<6x40xi64>) -> tensor<6x40xi64> {
  %i = fuser.argsort %x [1] : tensor<6x40xf32> -> tensor<6x40xi64>
  %g = fuser.gather %i[%j] dim 1 : tensor<6x40xi64>, tensor<6x40xi64> -> tensor<6x40xi64>
  return %g : tensor<6x40xi64>
}

func.func @flat_ids(%x: tensor<6x40xf32>) -> (tensor<6x2xf32>, tensor<12xi64>) {
  %i = fuser.argsort %x [1] descending : tensor<6x40xf32> -> tensor<6x40xi64>
  %k = fuser.slice %i starts [0, 0] limits [6, 2] strides [1, 1] : tensor<6x40xi64> -> tensor<6x2xi64>
  %v = fuser.gather %x[%k] dim 1 : tensor<6x40xf32>, tensor<6x2xi64> -> tensor<6x2xf32>
  %f = fuser.view %k : tensor<6x2xi64> -> tensor<12xi64>
  return %v, %f : tensor<6x2xf32>, tensor<12xi64>
}

func.func @flat_offset(%x: tensor<6x40xf32>) -> tensor<12xi64> {
  %i = fuser.argsort %x [1] descending : tensor<6x40xf32> -> tensor<6x40xi64>
  %k = fuser.slice %i starts [0, 1] limits [6, 3] strides [1, 1] : tensor<6x40xi64> -> tensor<6x2xi64>
  %f = fuser.view %k : tensor<6x2xi64> -> tensor<12xi64>
  return %f : tensor<12xi64>
}
