"""A base class that supplies the parts every Device shares."""
import contextvars
import numbers
import threading

# The device a ``with device:`` block or ``using_device`` made the default,
# per thread and task. Part of the contract so that a device can make itself
# current without importing the core; the core reads it in ``get_device()``.
current_device = contextvars.ContextVar('chainer_core_device', default=None)

# The device table, set by the core when it loads (this layer imports
# nothing above it): ``get_device(name)`` finds a pickled device again by
# name, as a device stands for hardware, and ``device_from_array(array)``
# tells the source of a transfer.
_table = None


def _device_by_name(name):
    if _table is None:
        raise RuntimeError(
            'a device ({!r}) cannot be restored before chainer_core is '
            'imported; import chainer_core first'.format(name))
    return _table.get_device(name)


class DeviceBase:
    """Base for Device implementations.

    Subclasses set ``backend``, ``name`` and ``xp`` and implement
    :meth:`is_array_supported` and either :meth:`from_host` (with
    :meth:`to_host` where arrays do not expose DLPack or ``__array__``) or,
    for a transfer of their own, :meth:`send_array`. :meth:`send` then walks
    nested tuples, lists and dicts, and a device works as a context manager
    that makes it the default device.
    """

    backend = None
    name = None
    xp = None

    def is_array_supported(self, array):
        raise NotImplementedError(
            '{} must implement is_array_supported'.format(type(self).__name__))

    def to_host(self, array):
        """``array`` as a NumPy array; a view of the same memory when the
        array lives in host memory and exposes it."""
        import numpy
        if isinstance(array, numpy.ndarray):
            return array.view(numpy.ndarray) \
                if type(array) is not numpy.ndarray else array
        if hasattr(array, '__dlpack__'):
            try:
                return numpy.from_dlpack(array)
            except (BufferError, RuntimeError, TypeError, ValueError):
                pass  # memory NumPy cannot see (a GPU): copy below
        get = getattr(array, 'get', None)
        if callable(get) and hasattr(array, 'shape'):
            return get()
        if isinstance(array, (numbers.Number, numpy.generic)) or hasattr(
                array, '__array__') or hasattr(array, '__array_interface__'):
            return numpy.asarray(array)
        raise TypeError('{} cannot take an object of type {}: expected an '
                        'array'.format(self.name, type(array).__name__))

    def from_host(self, ndarray):
        """An array of this device holding ``ndarray``'s values."""
        raise NotImplementedError(
            '{} must implement from_host (or send_array)'.format(
                type(self).__name__))

    def send_array(self, array):
        """One array here: as it is when this device supports it, else
        through host memory (the source device's ``to_host``)."""
        if self.is_array_supported(array):
            return array
        source = None
        if _table is not None:
            try:
                source = _table.device_from_array(array)
            except TypeError:
                pass  # not an array any backend claims: read it as NumPy
        to_host = source.to_host if isinstance(source, DeviceBase) else \
            DeviceBase.to_host.__get__(self)
        return self.from_host(to_host(array))

    def send(self, arrays):
        if arrays is None:
            return None
        if isinstance(arrays, (tuple, list)):
            return type(arrays)(self.send(a) for a in arrays)
        if isinstance(arrays, dict):
            return {k: self.send(v) for k, v in arrays.items()}
        return self.send_array(arrays)

    def use(self):
        pass

    def synchronize(self):
        pass

    def _context_stack(self):
        # Per thread: one device object is shared by every thread using it.
        local = self.__dict__.get('_ctx_local')
        if local is None:
            local = self.__dict__.setdefault('_ctx_local', threading.local())
        stack = getattr(local, 'stack', None)
        if stack is None:
            stack = local.stack = []
        return stack

    def create_context(self):
        """A context manager in which this device is the default."""
        return _DeviceScope(self)

    def __enter__(self):
        self._context_stack().append(current_device.set(self))
        self.use()
        return self

    def __exit__(self, *exc):
        current_device.reset(self._context_stack().pop())

    # A device stands for hardware: copying a link that refers to one must
    # not copy the device, and a pickled device is found again by name.
    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        return self

    def __reduce__(self):
        return _device_by_name, (self.name,)

    def __eq__(self, other):
        return isinstance(other, DeviceBase) and self.name == other.name

    def __ne__(self, other):
        return not self == other

    def __hash__(self):
        return hash(self.name)

    def __repr__(self):
        return '<{} {}>'.format(type(self).__name__, self.name)

    def __str__(self):
        return self.name



class _DeviceScope:
    def __init__(self, device):
        self._device = device

    def __enter__(self):
        return self._device.__enter__()

    def __exit__(self, *exc):
        self._device.__exit__(*exc)
