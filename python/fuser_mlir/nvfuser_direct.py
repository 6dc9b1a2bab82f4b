"""nvFuser's current Python API, `nvfuser_direct`, over fuser_mlir.

    from fuser_mlir.nvfuser_direct import FusionDefinition, DataType

The same FusionDefinition as the legacy `nvfuser` API (fuser_mlir's own),
printed as nvFuser's direct bindings print it (`def nvfuser_fusion(fd)`);
`python -m fuser_mlir.nvfuser_compat` puts this module in sys.modules as
`nvfuser_direct`.
"""

from . import _fusion
from ._cache import FusionCache
from ._errors import FusionError
from ._states import DataType, Scalar, Tensor, Vector

__all__ = ["DataType", "FusionCache", "FusionDefinition", "Scalar", "Tensor", "Vector",
           "version"]

__version__ = "fuser_mlir"


def version():
    return __version__


class FusionDefinition(_fusion.FusionDefinition):
    """nvfuser_direct's FusionDefinition: a context manager as the legacy
    one, printed as `def nvfuser_fusion(fd : FusionDefinition) -> None :`."""
    _function_name = "nvfuser_fusion"
    _module_name = "nvfuser_direct"
