"""The values of a FusionDefinition as the user holds them: Tensor, Scalar,
Vector (nvFuser's names), and DataType.

A value is a handle, numbered in definition order as nvFuser numbers its
states (T0, S1, V2, ...: the names `repr(fd)` prints). What it is in fuser IR
depends on the build: a definition with symbolic extents is built again for
every input signature (_build.py), so handles hold no IR themselves.
"""

import enum

from ._errors import FusionNotImplementedError, FusionTypeError

__all__ = ["DataType", "Tensor", "Scalar", "Vector", "UnsupportedDTypeError"]


class DataType(enum.Enum):
    """nvFuser's DataType; the value is the dtype's numpy-style name."""
    Double = "float64"
    Float = "float32"
    Half = "float16"
    BFloat16 = "bfloat16"
    Float8_e4m3fn = "float8_e4m3fn"
    Float8_e5m2 = "float8_e5m2"
    Int = "int64"
    # nvFuser's index type (64-bit here); its repr(fd) prints it for the
    # iotas of triu. An alias of Int.
    Index = "int64"
    Int32 = "int32"
    Bool = "bool"
    ComplexFloat = "complex64"
    ComplexDouble = "complex128"
    # nvFuser has these; fuser_mlir's IR does not (UNSUPPORTED_DTYPES).
    UInt64 = "uint64"
    Float4_e2m1fn_x2 = "float4_e2m1fn_x2"
    Null = "null"

    def __repr__(self):
        return "DataType." + self.name

    __str__ = __repr__


DTYPE_NAMES = {dtype.value: dtype for dtype in DataType}


# DataTypes that exist (nvFuser's clients name them: Thunder maps torch.uint64
# and torch.float4_e2m1fn_x2 to them) but that no fusion can use: fuser IR has
# no unsigned integers nor packed fp4.
UNSUPPORTED_DTYPES = {
    "uint64": "fuser IR has signless integers only, no unsigned 64-bit type",
    "float4_e2m1fn_x2": "fuser IR has no packed 4-bit float type",
}


class UnsupportedDTypeError(FusionNotImplementedError, TypeError):
    """A DataType nvFuser has and fuser_mlir cannot use in a fusion."""


def dtype_name(dtype, what):
    if isinstance(dtype, DataType):
        if dtype.value in UNSUPPORTED_DTYPES:
            raise UnsupportedDTypeError(
                "%s is %r, which fuser_mlir does not support (%s)"
                % (what, dtype, UNSUPPORTED_DTYPES[dtype.value]))
        return dtype.value
    raise FusionTypeError("%s must be a DataType, got %r" % (what, dtype))


class State:
    __slots__ = ("fd", "index")
    prefix = "?"

    def __init__(self, fd, index):
        self.fd = fd
        self.index = index

    @property
    def name(self):
        return "%s%d" % (self.prefix, self.index)

    def is_tensor(self):
        """Whether this is a Tensor (nvFuser's Val.is_tensor)."""
        return isinstance(self, Tensor)


def _operator(name, reflected=False):
    def method(self, other):
        return getattr(self.fd.ops, name)(*((other, self) if reflected else (self, other)))
    return method


class _Arithmetic(State):
    """Python operators, as nvFuser's Tensor and Scalar have them. `/` is
    true division, as in Python and nvFuser (truediv: integers become f32
    first); fd.ops.div of integers truncates."""
    __slots__ = ()

    __add__, __radd__ = _operator("add"), _operator("add", True)
    __sub__, __rsub__ = _operator("sub"), _operator("sub", True)
    __mul__, __rmul__ = _operator("mul"), _operator("mul", True)
    __truediv__, __rtruediv__ = _operator("truediv"), _operator("truediv", True)
    __pow__, __rpow__ = _operator("pow"), _operator("pow", True)
    __eq__, __ne__ = _operator("eq"), _operator("ne")
    __lt__, __le__ = _operator("lt"), _operator("le")
    __gt__, __ge__ = _operator("gt"), _operator("ge")
    __hash__ = State.__hash__

    def __neg__(self):
        return self.fd.ops.neg(self)

    def __abs__(self):
        return self.fd.ops.abs(self)

    @property
    def dtype(self):
        return DTYPE_NAMES[self.fd._type_of(self)[1]]


class Tensor(_Arithmetic):
    """A tensor of a FusionDefinition (nvFuser's Tensor)."""
    __slots__ = ()
    prefix = "T"

    @property
    def ndim(self):
        return len(self.fd._type_of(self)[0])

    def shape(self):
        """The extents: Python ints in a definition without symbolic extents,
        else Scalars (fd.ops.size), as nvFuser's Tensor.shape()."""
        return self.fd.ops.shape(self)

    def size(self, dim):
        return self.fd.ops.size(self, dim)

    def __repr__(self):
        return "Tensor(%s, ndim=%d, dtype=%r)" % (self.name, self.ndim,
                                                  DTYPE_NAMES[self.fd._type_of(self)[1]])


class Scalar(_Arithmetic):
    """A scalar of a FusionDefinition: a constant, a scalar input, an extent
    or a computation on them."""
    __slots__ = ()
    prefix = "S"

    def __repr__(self):
        return "Scalar(%s, dtype=%r)" % (self.name, self.dtype)


class Vector(State):
    """A list of extents (nvFuser's Vector): what fd.define_vector,
    Tensor.shape() and fd.ops.shape give, taken wherever a shape is."""
    __slots__ = ("elements", "length")
    prefix = "V"

    def __init__(self, fd, index, elements, length):
        super().__init__(fd, index)
        # None for a vector input: its elements come with the inputs.
        self.elements = elements
        self.length = length

    def __len__(self):
        return self.length

    def __getitem__(self, item):
        if self.elements is None:
            raise FusionTypeError("the elements of vector input %s are known at execute "
                                  "only; use it whole" % self.name)
        return self.elements[item]

    def __iter__(self):
        return iter(self[:])

    @property
    def size(self):
        return self.length

    def __repr__(self):
        return "Vector(%s, length=%d)" % (self.name, self.length)
