"""fuser_mlir: nvFuser's FusionDefinition API producing fuser IR.

    from fuser_mlir import FusionDefinition, DataType

See docs/Python.md; `python -m fuser_mlir.nvfuser_compat SCRIPT.py` runs an
unmodified nvFuser repro script.
"""

from ._fusion import (DataType, FusionDefinition, Scalar, Segment, Tensor,
                      UnsupportedOpError)
from ._fuser_mlir import fnv1a64

__all__ = ["DataType", "FusionDefinition", "Scalar", "Segment", "Tensor",
           "UnsupportedOpError", "fnv1a64"]
