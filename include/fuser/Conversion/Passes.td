//===- Passes.td - fuser conversion passes -----------------*- tablegen -*-===//

#ifndef FUSER_CONVERSION_PASSES_TD
#define FUSER_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertFuserToSCF : Pass<"convert-fuser-to-scf", "ModuleOp"> {
  let summary = "Scheduled segments to scf.parallel kernels on memrefs";
  let description = [{
    Turns every segmented fusion into a host function on memrefs in
    destination-passing style (docs/Lowering.md): tensor arguments become
    identity-layout memrefs, each result becomes an output memref argument.
    Every kernel segment becomes one `scf.parallel` nest over blocks and
    threads (mapped with `#gpu.loop_dim_map`) that follows the segment's
    `schedule`: each thread computes `vector` consecutive elements of each
    output by index arithmetic through the segment's meta ops, accumulating
    reductions in the compute type; threads that split a reduction combine
    with `scf.reduce`. Intermediates between kernels are allocated in the
    host function; alias segments become copies of strided views. A
    library segment (one `fuser.matmul` or `fuser.linear`) becomes one call
    `__fuser_matmul(descriptor, lhs, rhs, bias, out)` of the aligned
    addresses of a constant i64 descriptor (the batched gemm's extents and
    each buffer's offset and strides, `fuser/Conversion/LibraryCall.h`) and
    of the buffers, the operands read through strided views of the
    segment's inputs (a transpose is a stride, not a copy); the CPU backend
    resolves it to a BLAS gemm. A `fuser.grouped_mm` segment becomes one
    call `__fuser_grouped_mm(descriptor, mat1, mat2, offsets, out)`, its
    descriptor the grouped dim, the offsets' layout and the whole gemm the
    groups narrow (a gemm per non-empty group when it runs). Unsegmented
    fusions, segments without a schedule and ops the lowering
    does not support are located errors.

    Gathers read the source at a data-dependent index. With
    `check-indices` (the CPU backend), a kernel reads there clamped in
    bounds and reports an index out of range by calling
    `__fuser_index_out_of_range(check, index, extent, dim, element)`, where
    `check` numbers the module's `fuser.index_checks` array of the gathers'
    locations; the caller of the kernels turns the call into a located
    error. Without it (GPU kernels, as nvFuser's) the index is used as read:
    an index out of range reads out of bounds, which the SIMT emulator
    reports and a GPU does not.
  }];
  let options = [
    Option<"checkIndices", "check-indices", "bool", /*default=*/"false",
           "Report gather indices out of range through "
           "__fuser_index_out_of_range (reads stay in bounds)">
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::complex::ComplexDialect",
    "::mlir::gpu::GPUDialect", "::mlir::math::MathDialect",
    "::mlir::memref::MemRefDialect", "::mlir::scf::SCFDialect",
    "::mlir::vector::VectorDialect"
  ];
}

//===----------------------------------------------------------------------===//
// GPU path (--fuser-lower-to-nvvm, lib/Conversion/FuserToGPU)
//===----------------------------------------------------------------------===//

def FuserCheckNVVMLowering : Pass<"fuser-check-nvvm-lowering", "ModuleOp"> {
  let summary = "Checks the input and the options of --fuser-lower-to-nvvm";
  let description = [{
    The first pass of `--fuser-lower-to-nvvm` and
    `--fuser-kernel-loops-to-nvvm`, so that bad input and bad options are
    clear errors before anything runs (LLVM aborts on some of them):
    - `chip` must be a processor of LLVM's NVPTX backend and one that the
      toolkit's `ptxas --gpu-name` accepts;
    - `features` is a comma-separated list of `+`/`-` NVPTX features; a
      `+ptxNN` below the lowest PTX version the chip needs is an error
      (empty picks that lowest version);
    - `format` is `isa`, `bin` or `fatbin`; `opt-level` is 0 to 3;
    - `toolkit` must hold `bin/ptxas` (and `bin/fatbinary` for `fatbin`);
    - fusions must be segmented: a fuser op outside a `fuser.segment` is a
      located error asking for `--fuser-segment` first. With
      `kernel-loops`, any fuser op left is an error (the input must be the
      output of `convert-fuser-to-scf`).
  }];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"sm_90\"",
           "Target GPU (sm_XY)">,
    Option<"features", "features", "std::string", /*default=*/"\"\"",
           "NVPTX features, e.g. +ptx80">,
    Option<"format", "format", "std::string", /*default=*/"\"bin\"",
           "isa, bin, fatbin or llvm (the offload bitcode the SIMT emulator runs)">,
    Option<"optLevel", "opt-level", "unsigned", /*default=*/"3",
           "Optimization level (0-3)">,
    Option<"toolkit", "toolkit", "std::string",
           /*default=*/"\"/usr/local/cuda\"", "CUDA toolkit root">,
    Option<"kernelLoops", "kernel-loops", "bool", /*default=*/"false",
           "The input is kernel loops (no fuser ops may be left)">
  ];
}

def FuserGPUHostMemory : Pass<"fuser-gpu-host-memory", "::mlir::ModuleOp"> {
  let summary = "Host buffers and copies of a host function to the gpu dialect";
  let description = [{
    In a host function (docs/Lowering.md), outside the kernel nests
    (`scf.parallel`): `memref.alloc`/`memref.dealloc` of intermediates
    become `gpu.alloc`/`gpu.dealloc`; a `memref.copy` between identity-layout
    memrefs becomes a `gpu.memcpy`; a copy from or to a strided view (an
    alias segment's view of an input that is not contiguous) becomes a copy
    kernel, an `scf.parallel` nest mapped to blocks and threads that
    `convert-parallel-loops-to-gpu` then turns into a launch. Run before
    `convert-parallel-loops-to-gpu`.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::gpu::GPUDialect",
    "::mlir::memref::MemRefDialect", "::mlir::scf::SCFDialect"
  ];
}

def FuserGPUSinkScalars : Pass<"fuser-gpu-sink-scalars",
                               "::mlir::func::FuncOp"> {
  let summary = "Computes a launch's scalar operands inside the kernel";
  let description = [{
    On each `gpu.launch` of a host function: the scalar arithmetic that
    computes values the kernel reads (side-effect free ops without regions
    on integer, index and float scalars, such as the Philox offset
    `rng_offset + k` of a fusion's k-th random op) is cloned into the
    launch, back to values that are no such computation (arguments,
    loads), so that the kernel takes the function's own scalars and the
    host function keeps only what the CUDA backend's launch plan runs
    (buffers, copies, launches). `gpu-launch-sink-index-computations` sinks
    only ops whose operands the launch already reads or can sink, which
    keeps `offset + 1` of an argument on the host. Run after
    `convert-parallel-loops-to-gpu`, before outlining.
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect"];
}

def FuserGPUPrepareKernels : Pass<"fuser-gpu-prepare-kernels",
                                  "::mlir::gpu::GPUModuleOp"> {
  let summary = "Readies outlined kernels for convert-gpu-to-nvvm";
  let description = [{
    On each kernel `gpu.func` after outlining:
    - a memref argument that the kernel only reads (loads, through views)
      gets `llvm.noalias` and `llvm.readonly`, so that with the bare-pointer
      calling convention its loads become non-coherent `ld.global.nc`
      (host functions are called with outputs that do not overlap inputs);
    - a `gpu.all_reduce` that every thread of the block reaches (in the
      kernel's entry block, or in `scf.for` loops with constant bounds)
      is marked `uniform`, which `convert-gpu-to-nvvm` requires; one under
      thread-dependent control flow is an error;
    - `gpu.subgroup_reduce` is expanded to 32-bit `gpu.shuffle` butterflies
      (`convert-gpu-to-nvvm` leaves float ones illegal);
    - `math.sqrt` becomes `llvm.intr.sqrt` (`sqrt.rn`): libdevice's square
      root, which `convert-gpu-to-nvvm` would call, is approximate.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::gpu::GPUDialect",
    "::mlir::LLVM::LLVMDialect", "::mlir::vector::VectorDialect"
  ];
}

//===----------------------------------------------------------------------===//
// CPU backend: block loops on a thread pool (lib/Conversion/BlockLoopsToCPU)
//===----------------------------------------------------------------------===//

def FuserCPUOutlineBlockLoops : Pass<"fuser-cpu-outline-block-loops",
                                     "::mlir::ModuleOp"> {
  let summary = "Outlines each kernel's block loop so that a thread pool "
                "runs its blocks";
  let description = [{
    On host functions in the shared-lowering form (the output of
    `convert-fuser-to-scf`), for the CPU backend: each kernel nest, an
    outermost `scf.parallel` whose first dim is mapped to `block_x`, with
    constant bounds, at least two blocks and no reductions, is replaced by
    a call `@<f>_blocks_<k>_run(blocks, captures...)`, a declaration whose
    `fuser.block_body` attribute names the outlined body
    `@<f>_blocks_<k>(begin, end, captures...)`: an `scf.for` over blocks
    `[begin, end)` of the loop's body (the remaining dims of the nest stay
    an `scf.parallel` inside). The captures are the values the nest reads
    from above (constants are cloned instead); a nest that captures a
    memref the bare-pointer convention cannot pass (a non-static stride
    or offset) stays where it is. Shared memory (a `memref.global` in the
    workgroup address space) becomes a `memref.alloc` of the outlined
    body, once per call: each thread running blocks has its own, as each
    GPU block has. `fuser-cpu-dispatch-block-loops` gives the declaration
    its body after the lowering to the LLVM dialect (docs/Lowering.md,
    "Blocks on every core").
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::func::FuncDialect",
    "::mlir::memref::MemRefDialect", "::mlir::scf::SCFDialect"
  ];
}

def FuserCPUDispatchBlockLoops : Pass<"fuser-cpu-dispatch-block-loops",
                                      "::mlir::ModuleOp"> {
  let summary = "Defines the block-loop calls of "
                "fuser-cpu-outline-block-loops in the LLVM dialect";
  let description = [{
    After the module is in the LLVM dialect (bare-pointer calling
    convention): each declaration with a `fuser.block_body` attribute gets
    a body that stores its captures into a stack struct and calls
    `__fuser_run_blocks(thunk, context, blocks)`, where the thunk
    `void(ptr context, i64 begin, i64 end)` loads them back and calls the
    outlined body on blocks `[begin, end)`. The runtime (the CPU backend)
    runs the ranges on its threads and returns when every block is done.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

#endif // FUSER_CONVERSION_PASSES_TD

//===----------------------------------------------------------------------===//
// CPU backend: math as the interpreter computes it (lib/Conversion/ExpandMath)
//===----------------------------------------------------------------------===//

def FuserExpandMath : Pass<"fuser-expand-math", "::mlir::ModuleOp"> {
  let summary = "f32 exp, log, tanh and erf as the interpreter's own "
                "algorithms, at any vector width";
  let description = [{
    Rewrites `math.exp`, `math.log`, `math.tanh` and `math.erf` on f32
    scalars and vectors into the arith/math sequence of PortableMath.h
    (`arith.addf`, `math.fma`, `math.roundeven`, `arith.bitcast`, ...),
    the algorithm the reference interpreter evaluates one float at a time.
    Every operation of it is elementwise, exact or correctly rounded and
    independent of the rounding mode, so a vectorized kernel gives the
    interpreter's bits where a libm call per element would have been the
    only way to; each function is within 1 ulp of the correctly rounded
    result (docs/Interpreter.md). Other element types and other math ops
    are left alone, and nothing is folded. The CPU backend runs it first
    when it lowers kernels to LLVM.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::math::MathDialect"
  ];
}
