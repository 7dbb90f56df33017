"""The face of chainer-core for backend and add-on authors.

A plugin is a distribution with an entry point in ``chainer_core.backends``
(hardware backends) or ``chainer_core.addons``. The object the entry point
names declares ``api_version`` and implements hooks from
:mod:`backend_api.hookspecs` marked with :data:`hookimpl`. See
``docs/plugins.md``.
"""
from backend_api._markers import API_VERSION, hookimpl, hookspec  # NOQA
from backend_api.device import DeviceBase, current_device  # NOQA
from backend_api.errors import (  # NOQA
    APIVersionError, BackendConflictError, DeviceMismatchError,
    DeviceSpecError, DeviceUnavailableError, KernelNotFoundError, PluginError)
from backend_api.protocols import Backend, Device, Graph  # NOQA
