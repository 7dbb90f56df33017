"""Hook specifications a chainer-core plugin may implement.

A plugin is the module (or object) named by an entry point in the group
``chainer_core.backends`` or ``chainer_core.addons``. It implements any of
the hooks below with the ``backend_api.hookimpl`` marker and declares
``api_version = (major, minor)``, the version of ``backend_api`` it targets.
"""
from backend_api._markers import hookspec


@hookspec
def chainer_core_register_backends(registry):
    """Register the backends this plugin provides.

    Call ``registry.register_backend(backend)`` once per backend; ``backend``
    follows the :class:`backend_api.Backend` protocol. Runs once per process,
    the first time a device is looked up.
    """


@hookspec
def chainer_core_register_kernels(registry):
    """Register forward (and fused backward) kernels.

    Call ``registry.register_kernel(op_name, backend_name, fn)``. Kernel names
    and signatures are listed by ``python -m chainer_core kernels``. Runs after
    every plugin's backends are registered, so a plugin may add kernels for a
    backend another plugin provides.
    """


@hookspec
def chainer_core_device_aliases(registry):
    """Claim device spellings this plugin serves.

    Call ``registry.register_alias(alias, target)``: ``alias`` is a
    spelling (``'intel64'``), a spelling ending in ``{}`` that takes an
    index (``'cuda:{}'``), or ``int`` for the non-negative integers of
    Chainer code (``to_gpu(0)``, ``--device 0``); ``target`` is the
    specifier it means, with ``{}`` for the index (``'@cupy:{}'``).
    Negative integers always mean ``@numpy``. Runs after every plugin's
    backends are registered.
    """


@hookspec
def chainer_core_addon_info():
    """Return ``{'name': ..., 'version': ..., 'summary': ...}`` for ``info``."""


@hookspec
def chainer_core_configure(config):
    """Add configuration keys: ``config.add_key(name, default, doc='')``."""
