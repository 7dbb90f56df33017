"""Type aliases for annotations (Chainer's ``chainer.types``)."""
import numbers
import typing

Shape = typing.Tuple[int, ...]
ShapeSpec = typing.Union[int, typing.Sequence[int]]
DTypeSpec = typing.Any
Xp = typing.Any
NdArray = typing.Any
ScalarValue = typing.Union['numpy.generic', bytes, str, memoryview,
                           numbers.Number]
DeviceSpec = typing.Union['backend.Device', str, int]
CudaDeviceSpec = typing.Union[int, 'numpy.integer']


class AbstractInitializer(typing.Protocol):
    """What an initializer is: a callable filling an array in place, with
    the ``dtype`` it makes (None: the default dtype)."""

    dtype: typing.Any

    def __call__(self, array):
        ...


InitializerSpec = typing.Union[AbstractInitializer, ScalarValue,
                               'numpy.ndarray']
