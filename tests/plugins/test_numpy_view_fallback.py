"""A host-memory backend without a NumPy-like namespace: ops it has no
kernel for run their reference kernels on NumPy views of its buffers."""
import numpy

import chainer_core
import chainer_core.functions as F

BOX_PLUGIN = '''
"""Backend 'box': arrays are Box objects holding a NumPy buffer."""
import numpy

from backend_api import DeviceBase, hookimpl

api_version = (2, 0)
views = []


class Box:
    def __init__(self, data):
        self.data = data

    shape = property(lambda self: self.data.shape)
    dtype = property(lambda self: self.data.dtype)
    ndim = property(lambda self: self.data.ndim)
    size = property(lambda self: self.data.size)


class _Namespace:
    """The little array namespace the core itself needs from a device."""

    @staticmethod
    def ones_like(a):
        return Box(numpy.ones_like(a.data))

    @staticmethod
    def zeros_like(a):
        return Box(numpy.zeros_like(a.data))


class Backend:
    name = 'box'
    priority = 10

    def is_available(self):
        return True

    def device_count(self):
        return 1

    def get_device(self, index=0):
        return DEVICE

    def parse_device_spec(self, spec):
        return DEVICE if spec in ('box', 'box:0') else None

    def device_from_array(self, array):
        return DEVICE if isinstance(array, Box) else None


class Device(DeviceBase):
    name = 'box:0'
    xp = _Namespace

    def __init__(self, backend):
        self.backend = backend

    def send_array(self, array):
        if isinstance(array, Box):
            return array
        return Box(numpy.array(array))

    def is_array_supported(self, array):
        return isinstance(array, Box)

    def to_numpy_view(self, array):
        views.append(array.data)
        return array.data

    def from_numpy_view(self, array):
        return Box(array)


BACKEND = Backend()
DEVICE = Device(BACKEND)


@hookimpl
def chainer_core_register_backends(registry):
    registry.register_backend(BACKEND)
'''


def test_reference_kernels_run_on_views_of_the_buffers(sandbox):
    sandbox.add('box-dist', {'box_plugin': BOX_PLUGIN},
                backends={'box': 'box_plugin'})
    device = chainer_core.get_device('box:0')
    plugin = __import__('box_plugin')
    data = numpy.array([[-1.0, 2.0], [3.0, -4.0]], dtype=numpy.float32)
    x = chainer_core.Variable(device.send(data))
    y = F.sum(F.relu(x) * 3)
    assert isinstance(y.array, plugin.Box)
    assert float(y.array.data) == 15.0
    # The kernels saw the device's own buffer, not a copy of it.
    assert any(v is x.array.data for v in plugin.views)
    y.backward()
    assert isinstance(x.grad, plugin.Box)
    numpy.testing.assert_array_equal(x.grad.data, [[0, 3], [3, 0]])
