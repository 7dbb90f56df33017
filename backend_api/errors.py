"""Exceptions raised by the plugin machinery."""


class PluginError(RuntimeError):
    """A plugin could not be loaded, validated or initialised."""


class BackendConflictError(PluginError):
    """Two distributions register one backend name."""


class APIVersionError(PluginError):
    """A plugin targets a ``backend_api`` version this core cannot serve."""


class DeviceSpecError(ValueError):
    """A device specifier names no known device."""


class DeviceUnavailableError(DeviceSpecError, RuntimeError):
    """A well-formed specifier names a device that no installed plugin
    provides (a GPU id without the CUDA plugin). A RuntimeError too, as
    Chainer raises one when CUDA is missing."""


class KernelNotFoundError(NotImplementedError):
    """An op has neither a kernel nor a usable reference kernel on a device."""


class DeviceMismatchError(ValueError):
    """The inputs of one op live on different devices."""
