"""The backend, its one device and its array type."""
import numpy

from backend_api import DeviceBase

from chainer_example_backend import BACKEND_NAME

DEVICE_NAME = BACKEND_NAME + ':0'


class ExampleArray(numpy.ndarray):
    """An array on ``example:0``.

    The data is host memory in NumPy's layout; the type is what tells the
    core which device an array is on (the NumPy backend claims plain
    ``numpy.ndarray`` only).
    """


class ExampleBackend:
    """The ``example`` backend: always available, one device."""

    name = BACKEND_NAME
    # Above @numpy (0), below the project's own backends (150 and up).
    priority = 10

    def is_available(self):
        return True

    def unavailable_reason(self):
        return ''

    def device_count(self):
        return 1

    def get_device(self, index=0):
        if index != 0:
            raise IndexError('{} has one device; got index {}'.format(
                BACKEND_NAME, index))
        return DEVICE

    def parse_device_spec(self, spec):
        # Every backend is asked about every string: None when not ours.
        if spec in (BACKEND_NAME, '@' + BACKEND_NAME, DEVICE_NAME):
            return DEVICE
        return None

    def device_from_array(self, array):
        return DEVICE if type(array) is ExampleArray else None


class ExampleDevice(DeviceBase):
    """``example:0``. ``DeviceBase`` builds ``send`` (from any device, for
    nested tuples, lists and dicts), ``with device:``, equality and
    pickling on the four methods below."""

    name = DEVICE_NAME
    xp = numpy

    def __init__(self, backend):
        self.backend = backend

    def is_array_supported(self, array):
        return type(array) is ExampleArray

    def from_host(self, ndarray):
        # A copy: the device owns its memory, as a real accelerator would.
        return numpy.array(ndarray).view(ExampleArray)

    def to_host(self, array):
        return array.view(numpy.ndarray)

    # The core runs the NumPy reference of an op without a kernel here on
    # views of the same memory, and turns its results back into device
    # arrays, so no op copies data through @numpy.
    to_numpy_view = to_host

    def from_numpy_view(self, ndarray):
        return ndarray.view(ExampleArray)


BACKEND = ExampleBackend()
DEVICE = ExampleDevice(BACKEND)
