"""Device parametrisation of tests: :class:`BackendConfig` and
:func:`inject_backend_tests` over the devices that plugin discovery finds.

A backend config is a dict: ``{'device': '@numpy'}`` or any device
specifier, or Chainer's keys (``use_cuda`` with ``cuda_device``,
``use_ideep``, ``use_chainerx`` with ``chainerx_device``), plus
configuration values applied while a test runs (``use_cudnn``...). A test
whose device is not available here is skipped, naming the reason.
"""
import contextlib
import functools
import unittest

import numpy

import chainer_core
from backend_api._host import get_device, host, unavailable_reason
from chainer_core.configuration import config, using_config
from chainer_core.testing import parameterized

_DEVICE_KEYS = ('device', 'use_cuda', 'cuda_device', 'use_ideep',
                'use_chainerx', 'chainerx_device')


def discovered_devices():
    """Specifiers of every device of every available backend, in the
    backends' priority order (always including ``'@numpy'``)."""
    specs = []
    for backend in host.ordered_backends():
        if not backend.is_available():
            continue
        for i in range(backend.device_count()):
            specs.append(backend.get_device(i).name)
    if '@numpy' not in specs:
        specs.append('@numpy')
    return specs


def unavailable_devices():
    """``(backend name, reason)`` of each discovered backend that cannot be
    used here."""
    return [(b.name, unavailable_reason(b)) for b in host.ordered_backends()
            if not b.is_available()]


def all_devices_params():
    """One backend config per discovered device: ``[{'device': spec}]``."""
    return [{'device': spec} for spec in discovered_devices()]


class BackendConfig:
    """The device and configuration a test runs with.

    Args:
        params (dict): see the module documentation.
    """

    def __init__(self, params):
        if not isinstance(params, dict):
            raise TypeError('BackendConfig: params must be a dict, got {}'
                            .format(type(params).__name__))
        self._params = dict(params)
        self._device = None

    @property
    def spec(self):
        """The device specifier."""
        p = self._params
        if 'device' in p:
            return p['device']
        if p.get('use_chainerx'):
            return p.get('chainerx_device', 'native:0')
        if p.get('use_cuda'):
            return '@cupy:{}'.format(p.get('cuda_device', 0))
        if p.get('use_ideep', 'never') != 'never':
            return '@intel64'
        return '@numpy'

    @property
    def device(self):
        """The device (raises if it is not available here)."""
        if self._device is None:
            self._device = get_device(self.spec)
        return self._device

    @property
    def xp(self):
        return self.device.xp

    @property
    def config_values(self):
        """The configuration entries this config sets while a test runs."""
        return {k: v for k, v in self._params.items()
                if k not in _DEVICE_KEYS}

    def is_available(self):
        try:
            self.device
        except Exception:
            return False
        return True

    def skip_reason(self):
        """Why the device cannot be used here (None when it can)."""
        try:
            self.device
        except Exception as e:
            return 'device {} is not available: {}'.format(self.spec, e)
        return None

    def get_array(self, np_array):
        """``np_array`` (or a tuple/list of arrays) on the device."""
        if isinstance(np_array, (tuple, list)):
            return type(np_array)(self.get_array(a) for a in np_array)
        return self.device.send(np_array)

    @contextlib.contextmanager
    def _scope(self):
        with contextlib.ExitStack() as stack:
            stack.enter_context(chainer_core.using_device(self.device))
            for key, value in self.config_values.items():
                if hasattr(config, key):
                    stack.enter_context(using_config(key, value))
            yield self

    def __enter__(self):
        self._cm = self._scope()
        return self._cm.__enter__()

    def __exit__(self, *exc):
        return self._cm.__exit__(*exc)

    def __repr__(self):
        return 'BackendConfig({})'.format(self._params)


def _skip_if_unavailable(method, backend_config):
    @functools.wraps(method)
    def wrapper(self, *args, **kwargs):
        reason = backend_config.skip_reason()
        if reason is not None:
            raise unittest.SkipTest(reason)
        return method(self, *args, **kwargs)
    return wrapper


def inject_backend_tests(method_names, params=None):
    """Class decorator: one subclass per backend config, with the
    attribute ``backend_config`` (a :class:`BackendConfig`); the listed
    test methods (all ``test*`` methods when ``method_names`` is None)
    skip when the device is not available here.

    Args:
        method_names (list of str or None): the methods that need the
            device.
        params (list of dict): the backend configs (None: every
            discovered device, :func:`all_devices_params`).
    """
    if params is None:
        params = all_devices_params()
    if isinstance(params, dict):
        params = [params]

    def make_classes(base):
        names = method_names
        if names is None:
            names = [n for n in dir(base) if n.startswith('test') and
                     callable(getattr(base, n))]
        classes = []
        for i, p in enumerate(params):
            backend_config = BackendConfig(p)
            members = {'backend_config': backend_config}
            for name in names:
                members[name] = _skip_if_unavailable(getattr(base, name),
                                                     backend_config)
            classes.append(type('{}_{}'.format(
                base.__name__, _spec_name(i, backend_config.spec)),
                (base,), members))
        return classes

    def decorator(target):
        return parameterized.expand(target, make_classes)

    return decorator


def _spec_name(index, spec):
    return 'backend_{}_{}'.format(index, ''.join(
        c if c.isalnum() else '_' for c in spec).strip('_'))


def get_array(np_array, device):
    """``np_array`` on ``device`` (a specifier or device)."""
    return get_device(device).send(numpy.asarray(np_array))
