//===- HostModule.h - device bitcode compiled for the host ------*- C++ -*-===//
//
// cuModuleLoadData's image for the emulator is what
// gpu-module-to-binary{format=llvm} produces (LLVM bitcode for nvptx64,
// libdevice linked, optimized for the NVPTX target), in LLVM's bitcode
// wrapper header, whose size field says where the image ends (the cubin's
// ELF header plays that part on a GPU). Loading it:
// - every NVVM intrinsic and every inline-asm string is replaced by what it
//   means on the host: special registers, shuffles and barriers by calls
//   into the device (Device.h), arithmetic by host instructions or by
//   DeviceMath.h. The table is closed: an intrinsic, an asm string or an
//   external function it does not know is an error naming it and the
//   instruction, never a guess;
// - every load, store and memory intrinsic that does not address the
//   thread's own stack is preceded (stores: also followed) by a call that
//   checks it;
// - each kernel gets a host entry that takes cuLaunchKernel's parameter
//   array; shared-memory globals (address space 3) are kept as host globals
//   the device refills at each block;
// - the module is retargeted to the host and JIT-compiled with ORC for the
//   machine of the CPU backend (createCPUBackendTargetMachine: no
//   AVX512-BF16, no FMA contraction), with the interpreter's f16/bf16
//   conversion routines bound, so no bits depend on the host.
//
//===----------------------------------------------------------------------===//

#ifndef FUSER_LIB_EXECUTIONENGINE_SIMT_HOSTMODULE_H
#define FUSER_LIB_EXECUTIONENGINE_SIMT_HOSTMODULE_H

#include "Device.h"

#include "llvm/Support/Error.h"

#include <memory>

namespace mlir::fuser::simt {

llvm::Expected<std::unique_ptr<Module>> loadHostModule(const void *image,
                                                       Device &device);

} // namespace mlir::fuser::simt

#endif // FUSER_LIB_EXECUTIONENGINE_SIMT_HOSTMODULE_H
