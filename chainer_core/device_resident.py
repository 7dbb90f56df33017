"""Objects whose arrays live on one device and move together
(Chainer's ``chainer.device_resident``)."""
import numbers

from chainer_core._runtime.host import get_device, host
from chainer_core.backends import _chainer


class DeviceResident:
    """The base of objects holding arrays on one device: links, samplers.

    Moving to a device visits the object with a
    :class:`DeviceResidentsVisitor`: a subclass holding arrays (or other
    residents) that the base does not know of extends
    :meth:`device_resident_accept`, calling the base first and then
    ``visitor.visit_array``/``visit_variable``/``visit_device_resident``
    on what it holds.
    """

    _device = None

    @property
    def device(self):
        """The device the arrays live on (``@numpy`` until moved)."""
        if self._device is not None:
            return self._device
        return host.parse_spec('@numpy')

    @property
    def xp(self):
        """The array module of :attr:`device`."""
        return self.device.xp

    def device_resident_accept(self, visitor):
        """Let ``visitor`` visit this object and what it holds."""
        visitor.visit_device_resident(self)

    def to_device(self, device):
        """Move every array to ``device`` (a device object or specifier).
        Returns self."""
        self.device_resident_accept(_ToDeviceVisitor(get_device(device)))
        return self

    def to_cpu(self):
        """Move to NumPy. Returns self."""
        return self.to_device('@numpy')

    def to_gpu(self, device=None):
        """Move to the CUDA device ``device`` (0 when omitted). Returns
        self."""
        return self.to_device(_chainer.gpu(device))

    def to_intel64(self):
        """Move to the oneDNN device ``@intel64``. Returns self."""
        return self.to_device(_chainer.INTEL64)

    def to_chx(self):
        """Move to ``native:0``, this project's counterpart of ChainerX.
        Returns self."""
        return self.to_device(_chainer.CHAINERX)

    def from_chx(self):
        """Move from ``native:0`` back to NumPy; elsewhere nothing moves.
        Returns self."""
        if _chainer.is_chainerx(self.device):
            self.to_device('@numpy')
        return self


class DeviceResidentsVisitor:
    """Visits device residents and what they hold (override each method)."""

    def visit_device_resident(self, device_resident):
        """Visit a :class:`DeviceResident` itself."""
        raise NotImplementedError

    def visit_array(self, arr):
        """Visit an array; returns the array to keep in its place."""
        raise NotImplementedError

    def visit_variable(self, param):
        """Visit a Variable (a link's parameter)."""
        raise NotImplementedError


class _ToDeviceVisitor(DeviceResidentsVisitor):

    def __init__(self, device):
        self.device = device

    def visit_device_resident(self, device_resident):
        device_resident._device = self.device

    def visit_array(self, arr):
        return self.device.send(arr)

    def visit_variable(self, param):
        param.to_device(self.device)
