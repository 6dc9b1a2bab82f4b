# fd.execute on the deterministic inputs of PRODUCT.md (numpy, bf16 through
# ml_dtypes) prints what `fuser-run` prints for the same fusion.
import runpy
import sys

from fuser_mlir import FusionDefinition, fnv1a64
from fuser_mlir.nvfuser_compat import make_nvfuser_module

sys.modules["nvfuser"] = make_nvfuser_module()
script = runpy.run_path(sys.argv[1])
with FusionDefinition() as fd:
    script["nvfuser_fusion_id0"](fd)
for stage, definition in (("built", fd), ("preseg", fd.preseg()), ("segmented", fd.segment())):
    (output,) = definition.execute(definition.deterministic_inputs())
    print("%s: %s %s fnv1a64=0x%016x" % (stage, output.dtype, output.shape,
                                          fnv1a64(output.tobytes())))
# The lowered kernels, JIT-compiled on the CPU backend.
(output,) = fd.execute(fd.deterministic_inputs(), backend="cpu")
print("cpu backend: fnv1a64=0x%016x" % fnv1a64(output.tobytes()))

# fd.kernels(): the PTX --fuser-lower-to-nvvm makes of the segmented fusion.
for kernel in fd.kernels():
    print("kernel %s %s entries=%s ld.global=%d st.global=%d" % (
        kernel["name"], kernel["target"], kernel["entries"],
        kernel["ptx"].count("ld.global"), kernel["ptx"].count("st.global")))
