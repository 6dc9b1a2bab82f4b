"""fuser_mlir: nvFuser's FusionDefinition API producing fuser IR.

    from fuser_mlir import FusionDefinition, DataType

See docs/Python.md; `python -m fuser_mlir.nvfuser_compat SCRIPT.py` runs an
unmodified nvFuser repro script.
"""

from ._cache import FusionCache
from ._errors import (FusionError, FusionMemoryError, FusionTypeError, FusionValueError,
                      UnsupportedOpError)
from ._fuser_mlir import fnv1a64
from ._fusion import FusionDefinition, Segment
from ._generator import get_rng_state, initial_seed, manual_seed, set_rng_state
from ._states import DataType, Scalar, Tensor, Vector

__all__ = ["DataType", "FusionCache", "FusionDefinition", "FusionError", "FusionMemoryError",
           "FusionTypeError", "FusionValueError", "Scalar", "Segment", "Tensor",
           "UnsupportedOpError", "Vector", "fnv1a64", "get_rng_state", "initial_seed",
           "manual_seed", "set_rng_state"]
