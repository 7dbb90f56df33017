"""Device parametrisation of tests: :class:`BackendConfig` and
:func:`inject_backend_tests` over the devices that plugin discovery finds.

A backend config is a dict: ``{'device': '@numpy'}`` or any device
specifier, or Chainer's keys (``use_cuda`` with ``cuda_device``,
``use_ideep``, ``use_chainerx`` with ``chainerx_device``), plus
configuration values applied while a test runs (``use_cudnn``...). A test
whose device is not available here is skipped, naming the reason.

The devices tests run on by default form one table, shared by
:func:`inject_backend_tests`, the ``chainer_device`` pytest fixture and the
conformance kit (``chainer_core.testing.conformance``): one device per
available backend (:func:`chainer_core.backend.available_devices`), or the
devices listed in the environment variable ``CHAINER_TEST_DEVICES``
(``CHAINER_TEST_DEVICES=native:0,@numpy``).
"""
import contextlib
import functools
import inspect
import os
import unittest

import numpy

import chainer_core
from chainer_core.backend import (
    available_devices, get_device, unavailable_backends)
from chainer_core.configuration import config, using_config
from chainer_core.testing import parameterized

_DEVICE_KEYS = ('device', 'use_cuda', 'cuda_device', 'use_ideep',
                'use_chainerx', 'chainerx_device')

TEST_DEVICES_VARIABLE = 'CHAINER_TEST_DEVICES'


def _requested_devices():
    """The specifiers ``CHAINER_TEST_DEVICES`` lists, or None."""
    value = os.environ.get(TEST_DEVICES_VARIABLE, '')
    specs = [s.strip() for s in value.split(',') if s.strip()]
    return specs or None


def discovered_devices():
    """Specifiers of the devices tests run on: those listed in
    ``CHAINER_TEST_DEVICES`` (each must be usable here: a device asked for
    by name that cannot be had is an error, not a skip), otherwise one
    device per available backend, in the order automatic device selection
    tries them."""
    requested = _requested_devices()
    if requested is None:
        return [device.name for device in available_devices()]
    specs = []
    for spec in requested:
        try:
            name = get_device(spec).name
        except Exception as e:
            raise ValueError('{}={!r} names {!r}, which cannot be used '
                             'here: {}'.format(
                                 TEST_DEVICES_VARIABLE,
                                 os.environ[TEST_DEVICES_VARIABLE], spec,
                                 e)) from e
        if name not in specs:
            specs.append(name)
    return specs


def unavailable_devices():
    """``(backend name, reason)`` of each discovered backend that cannot be
    used here; none when ``CHAINER_TEST_DEVICES`` chooses the devices."""
    if _requested_devices() is not None:
        return []
    return list(unavailable_backends().items())


def all_devices_params():
    """One backend config per device of :func:`discovered_devices`:
    ``[{'device': spec}]``."""
    return [{'device': spec} for spec in discovered_devices()]


def device_params():
    """The table as pytest parameters: one per device of
    :func:`discovered_devices` (the device, with its name as id), and a
    skipped one per backend of :func:`unavailable_devices`, so that the
    report says why it was not tested."""
    import pytest
    params = [pytest.param(get_device(spec), id=spec)
              for spec in discovered_devices()]
    params += [pytest.param(None, id=name, marks=pytest.mark.skip(
        reason='backend {!r}: {}'.format(name, reason)))
        for name, reason in unavailable_devices()]
    return params


# Chainer's keys and their values when absent, in the order __repr__
# shows them.
_DEFAULTS = (
    ('use_chainerx', False),
    ('chainerx_device', None),
    ('use_cuda', False),
    ('cuda_device', None),
    ('use_cudnn', 'never'),
    ('cudnn_deterministic', False),
    ('autotune', False),
    ('cudnn_fast_batch_normalization', False),
    ('use_ideep', 'never'),
)


class BackendConfig:
    """The device and configuration a test runs with.

    Chainer's keys are attributes (``use_chainerx``, ``chainerx_device``,
    ``use_cuda``, ``cuda_device``, ``use_cudnn``, ``cudnn_deterministic``,
    ``autotune``, ``cudnn_fast_batch_normalization``, ``use_ideep``), absent
    ones with their defaults. The device is ``params['device']`` when given,
    otherwise: ``chainerx_device`` with ``use_chainerx`` (``native:0`` is
    chainer-native's device), ``@cupy:<cuda_device>`` with ``use_cuda``,
    ``@intel64`` when ``use_ideep`` is not ``'never'``, else ``@numpy``.

    Used as a context manager, the config makes its device current and sets
    the configuration entries it names (Chainer's keys and any other
    configuration key, such as ``debug``).

    Args:
        params (dict): see above.
    """

    def __init__(self, params):
        if not isinstance(params, dict):
            raise TypeError('BackendConfig: params must be a dict, got {}'
                            .format(type(params).__name__))
        self._params = dict(params)
        if self._params.get('use_cuda') and \
                self._params.get('cuda_device') is None:
            self._params['cuda_device'] = 0
        if self._params.get('use_chainerx') and \
                self._params.get('chainerx_device') is None:
            raise ValueError('BackendConfig: use_chainerx needs '
                             'chainerx_device')
        for key, default in _DEFAULTS:
            setattr(self, key, self._params.get(key, default))
        self._device = None
        self._contexts = []

    @property
    def spec(self):
        """The device specifier."""
        if 'device' in self._params:
            return self._params['device']
        if self.use_chainerx:
            return self.chainerx_device
        if self.use_cuda:
            return '@cupy:{}'.format(self.cuda_device)
        if self.use_ideep != 'never':
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
        """The array module of the device."""
        return self.device.xp

    @property
    def config_values(self):
        """The configuration entries this config sets while applied."""
        values = {k: getattr(self, k) for k, _ in _DEFAULTS
                  if hasattr(config, k)}
        values.update((k, v) for k, v in self._params.items()
                      if k not in _DEVICE_KEYS and k not in values)
        return values

    def is_available(self):
        """Whether the device can be used here."""
        return self.skip_reason() is None

    def skip_reason(self):
        """Why the device cannot be used here (None when it can)."""
        try:
            self.device
        except Exception as e:
            return 'device {} is not available: {}'.format(self.spec, e)
        return None

    def get_pytest_marks(self):
        """The pytest marks of tests on this config, so that ``pytest -m``
        selects them: ``gpu`` on a CUDA device (and ``cudnn`` when cuDNN
        is used), ``chainerx`` on a ``native`` device, ``ideep`` on
        ``@intel64``."""
        import pytest
        spec = str(self.spec)
        names = []
        if self.use_chainerx or spec.startswith('native'):
            names.append('chainerx')
        if self.use_cuda or spec.startswith(('cuda', '@cupy')):
            names.append('gpu')
            if self.use_cudnn != 'never':
                names.append('cudnn')
        if spec == '@intel64':
            names.append('ideep')
        return [getattr(pytest.mark, n) for n in names]

    def get_array(self, np_array):
        """``np_array`` (or a tuple/list of arrays) on the device."""
        if isinstance(np_array, (tuple, list)):
            return type(np_array)(self.get_array(a) for a in np_array)
        return self.device.send(np_array)

    def __enter__(self):
        stack = contextlib.ExitStack()
        try:
            stack.enter_context(chainer_core.using_device(self.device))
            for key, value in self.config_values.items():
                if hasattr(config, key):
                    stack.enter_context(using_config(key, value))
        except BaseException:
            stack.close()
            raise
        self._contexts.append(stack)
        return self

    def __exit__(self, *exc):
        self._contexts.pop().close()

    def __repr__(self):
        items = ['{}={!r}'.format(k, getattr(self, k)) for k, _ in _DEFAULTS]
        items += ['{}={!r}'.format(k, v) for k, v in self._params.items()
                  if k not in dict(_DEFAULTS)]
        return '<BackendConfig {}>'.format(' '.join(items))


def _inject(method, backend_config):
    """``method`` on ``backend_config``: skipped when the device is not
    available, given the config as its ``backend_config`` argument when it
    takes one, and as the ``backend_config`` attribute of the test."""
    signature = inspect.signature(method)
    takes_config = 'backend_config' in signature.parameters

    @functools.wraps(method)
    def wrapper(self, *args, **kwargs):
        reason = backend_config.skip_reason()
        if reason is not None:
            raise unittest.SkipTest(reason)
        self.backend_config = backend_config
        if takes_config:
            kwargs['backend_config'] = backend_config
        return method(self, *args, **kwargs)

    # pytest reads the signature to find fixtures: backend_config is not
    # one.
    wrapper.__signature__ = signature.replace(parameters=[
        p for p in signature.parameters.values()
        if p.name != 'backend_config'])
    for mark in backend_config.get_pytest_marks():
        wrapper = mark(wrapper)
    return wrapper


def inject_backend_tests(method_names, params=None):
    """Class decorator: one subclass per backend config, added to the
    class's module (the decorated name is bound to an object that is not a
    class, as :func:`~chainer_core.testing.parameterize` does; the two
    stack).

    Each listed test method runs with the config: as its
    ``backend_config`` argument when it takes one (Chainer's
    ``def test_x(self, backend_config)``), and as the attribute
    ``self.backend_config``. It is skipped, naming the reason, where the
    config's device is not available here, and carries the config's pytest
    marks (:meth:`BackendConfig.get_pytest_marks`). Applying the config
    (``with backend_config:``) is up to the test.

    Args:
        method_names (list of str or None): the methods to inject (None:
            every ``test*`` method).
        params (dict or list of dicts): the backend configs (None: one per
            device of the test table, :func:`all_devices_params`).
    """
    if params is None:
        params = all_devices_params()
    if isinstance(params, dict):
        params = [params]
    params = list(params)
    for p in params:
        if not isinstance(p, dict):
            raise TypeError('inject_backend_tests: each backend config must '
                            'be a dict, got {}'.format(type(p).__name__))

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
                members[name] = _inject(getattr(base, name), backend_config)
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
