"""Discovery, dispatch and failure handling of backend plugins (in process)."""
import re
import sys
import warnings

import numpy
import pytest

import backend_api
import chainer_core
import chainer_core.functions as F
from chainer_core._runtime import host as _host, kernels
from chainer_core import _numpy_backend
from chainer_core.configuration import global_config


def _plugin_warnings(caught):
    return [w for w in caught if issubclass(w.category, _host.PluginWarning)]


def _auto_select():
    """The default device, and the plugin warnings choosing it produced."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always')
        device = chainer_core.get_device()
    return device, _plugin_warnings(caught)


def _explicit(how, monkeypatch):
    """Ask for backend 'tplug' the way ``how`` names."""
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', _host.PluginWarning)
        if how == 'spec':
            return chainer_core.get_device('tplug:0')
        if how == 'bare-spec':
            return chainer_core.get_device('tplug')
        monkeypatch.setenv(how, {
            'CHAINER_DEVICE': 'tplug:0',
            'CHAINER_BACKENDS': 'tplug,numpy'}[how])
        return chainer_core.get_device()


def _forget_discovery():
    """Start discovery over, as a new process would, with the same plugins."""
    _host.host.reset()
    _host.host.add_builtin('numpy', _numpy_backend, global_config.add_key)


EXPLICIT = ['spec', 'bare-spec', 'CHAINER_DEVICE', 'CHAINER_BACKENDS']


def test_device_found_by_spec(sandbox):
    sandbox.add_backend('tplug')
    device = chainer_core.get_device('tplug:0')
    assert device.name == 'tplug:0'
    assert device.backend.name == 'tplug'
    assert type(device).__module__ == 'tplug_plugin'
    assert chainer_core.get_device('@tplug') is device


def test_higher_priority_plugin_is_the_default(sandbox):
    sandbox.add_backend('tplug', priority=100)
    device, caught = _auto_select()
    assert device.name == 'tplug:0'
    assert caught == []


def test_relu_dispatches_to_the_plugin_kernel(sandbox):
    sandbox.add_backend('tplug')
    device = chainer_core.get_device('tplug:0')
    plugin = sys.modules['tplug_plugin']
    x = device.send(numpy.array([-1.0, 0.5, 2.0], dtype=numpy.float32))
    assert type(x) is plugin.Array

    y = F.relu(x)
    assert plugin.kernel_calls == ['relu']
    assert type(y.array) is plugin.Array
    numpy.testing.assert_array_equal(y.array, [0.0, 0.5, 2.0])

    F.relu(numpy.array([-1.0], dtype=numpy.float32))
    assert plugin.kernel_calls == ['relu'], 'a NumPy array ran its kernel'


def test_other_ops_run_the_reference_kernel_on_the_device_xp(sandbox):
    sandbox.add_backend('tplug')
    device = chainer_core.get_device('tplug:0')
    plugin = sys.modules['tplug_plugin']
    x = chainer_core.Variable(
        device.send(numpy.array([-1.0, 2.0], dtype=numpy.float32)))
    y = F.exp(x) * 2
    assert type(y.array) is plugin.Array
    numpy.testing.assert_allclose(y.array, 2 * numpy.exp([-1.0, 2.0]),
                                  rtol=1e-6)

    z = F.relu(x)
    z.grad = device.send(numpy.ones(2, dtype=numpy.float32))
    z.backward()
    assert type(x.grad) is plugin.Array
    numpy.testing.assert_array_equal(x.grad, [0.0, 1.0])
    assert chainer_core.get_array_module(x) is numpy


@pytest.mark.parametrize('how', EXPLICIT)
def test_plugin_failing_at_import(sandbox, how, monkeypatch):
    sandbox.add_backend(
        'tplug', dist='broken-tplug',
        extra="raise RuntimeError('tplug runtime library missing')")

    device, caught = _auto_select()
    assert device.name == '@numpy'
    assert len(caught) == 1, [str(w.message) for w in caught]
    message = str(caught[0].message)
    assert 'broken-tplug' in message
    assert 'CHAINER_DEVICE=@numpy' in message
    assert 'tplug runtime library missing' in message

    _forget_discovery()
    with pytest.raises(backend_api.PluginError) as info:
        _explicit(how, monkeypatch)
    assert type(info.value.__cause__) is RuntimeError
    assert str(info.value.__cause__) == 'tplug runtime library missing'


@pytest.mark.parametrize('how', EXPLICIT)
def test_register_backends_raising(sandbox, how, monkeypatch):
    sandbox.add_backend('tplug', extra='''
        @hookimpl
        def chainer_core_register_backends(registry):
            raise OSError('no tplug driver')
        ''')
    device, caught = _auto_select()
    assert device.name == '@numpy'
    assert len(caught) == 1
    message = str(caught[0].message)
    assert 'chainer_core_register_backends' in message
    assert 'tplug-dist' in message and 'no tplug driver' in message

    _forget_discovery()
    with pytest.raises(backend_api.PluginError) as info:
        _explicit(how, monkeypatch)
    assert type(info.value.__cause__) is OSError


def test_is_available_raising_during_auto_selection(sandbox):
    sandbox.add_backend('tplug', extra='''
        def is_available(self):
            raise RuntimeError('tplug driver crashed')
        Backend.is_available = is_available
        ''')
    device, caught = _auto_select()
    assert device.name == '@numpy'
    assert len(caught) == 1
    message = str(caught[0].message)
    assert 'tplug-dist' in message and 'tplug driver crashed' in message
    assert 'CHAINER_DEVICE=@numpy' in message

    with pytest.raises(backend_api.PluginError) as info:
        chainer_core.get_device('tplug:0')
    assert str(info.value.__cause__) == 'tplug driver crashed'

    _forget_discovery()
    with pytest.raises(backend_api.PluginError) as info:
        chainer_core.get_device('tplug:0')
    assert str(info.value.__cause__) == 'tplug driver crashed'


def test_unavailable_backend_is_skipped_silently(sandbox):
    sandbox.add_backend('tplug', extra='''
        Backend.is_available = lambda self: False
        Backend.unavailable_reason = lambda self: 'no tplug card found'
        ''')
    device, caught = _auto_select()
    assert device.name == '@numpy'
    assert caught == []
    with pytest.raises(backend_api.DeviceSpecError,
                       match='no tplug card found'):
        chainer_core.get_device('tplug:0')


def test_backend_missing_methods(sandbox):
    sandbox.add_backend('tplug', extra='''
        del Backend.device_from_array
        del Backend.device_count
        ''')
    device, caught = _auto_select()
    assert device.name == '@numpy'
    assert len(caught) == 1
    message = str(caught[0].message)
    for part in ("'tplug'", 'tplug-dist', 'chainer_core_register_backends',
                 'device_count', 'device_from_array'):
        assert part in message

    with pytest.raises(backend_api.PluginError, match='device_from_array'):
        chainer_core.get_device('tplug:0')


def test_unknown_kernel_name(sandbox):
    sandbox.add_backend('tplug', extra='''
        @hookimpl
        def chainer_core_register_kernels(registry):
            registry.register_kernel('relu_but_faster', NAME, relu)
        ''')
    device, caught = _auto_select()
    assert device.name == '@numpy'
    assert len(caught) == 1
    message = str(caught[0].message)
    assert "unknown kernel name 'relu_but_faster'" in message
    assert 'tplug-dist' in message and 'python -m chainer_core kernels' \
        in message
    with pytest.raises(backend_api.PluginError, match='relu_but_faster'):
        chainer_core.get_device('tplug:0')


@pytest.mark.parametrize('version, expected', [
    (None, ['None', 'backend_api 2.0', 'api_version']),
    ((3, 0), ['backend_api 3.0', 'provides 2.0', 'upgrade chainer-core']),
    ((2, 7), ['backend_api 2.7', 'provides 2.0', 'upgrade chainer-core']),
    ((1, 1), ['backend_api 1.1', 'provides 2.0', 'upgrade the plugin',
              'NotImplemented']),
])
def test_api_version_refused(sandbox, version, expected):
    extra = 'del api_version\n' if version is None else ''
    sandbox.add_backend('tplug', api_version=version or (2, 0), extra=extra)
    device, caught = _auto_select()
    assert device.name == '@numpy'
    assert len(caught) == 1
    message = str(caught[0].message)
    assert '\n' not in message
    assert 'APIVersionError' in message
    for part in expected + ['tplug-dist']:
        assert part in message
    with pytest.raises(backend_api.PluginError) as info:
        chainer_core.get_device('tplug:0')
    assert type(info.value.__cause__) is backend_api.APIVersionError


def test_two_distributions_registering_one_backend(sandbox):
    sandbox.add_backend('tplug', dist='tplug-one', module='tplug_one')
    sandbox.add_backend('tplug', dist='tplug-two', module='tplug_two')
    device, caught = _auto_select()
    assert device.name == '@numpy'
    assert len(caught) == 1
    assert 'tplug-one' in str(caught[0].message)
    assert 'tplug-two' in str(caught[0].message)

    with pytest.raises(backend_api.BackendConflictError) as info:
        chainer_core.get_device('tplug:0')
    assert 'tplug-one' in str(info.value) and 'tplug-two' in str(info.value)
    assert re.search('CHAINER_PLUGINS_DISABLE=tplug-(one|two)',
                     str(info.value))


def test_a_plugin_cannot_take_the_numpy_backend(sandbox):
    sandbox.add_backend('numpy', dist='numpy-impostor',
                        module='numpy_impostor')
    device, caught = _auto_select()
    assert device.name == '@numpy'
    assert type(device).__module__ == 'chainer_core._numpy_backend'
    assert len(caught) == 1
    message = str(caught[0].message)
    assert 'numpy-impostor' in message and 'chainer-core' in message
    assert chainer_core.get_device('@numpy') is device


def test_plain_ndarray_from_a_reference_kernel_keeps_the_device(sandbox):
    sandbox.add_backend('tplug')
    device = chainer_core.get_device('tplug:0')
    plugin = sys.modules['tplug_plugin']
    x = device.send(numpy.arange(6, dtype=numpy.float32).reshape(2, 3))
    for y in (F.broadcast_to(x, (4, 2, 3)), F.sum(x), F.sum(x, axis=0),
              F.reshape(x, (3, 2))):
        assert type(y.array) is plugin.Array


def test_disabling_one_of_two_conflicting_distributions(sandbox, disable):
    sandbox.add_backend('tplug', dist='tplug-one', module='tplug_one')
    sandbox.add_backend('tplug', dist='tplug-two', module='tplug_two')
    disable('tplug-two')
    device, caught = _auto_select()
    assert caught == []
    assert device.name == 'tplug:0'
    assert type(device).__module__ == 'tplug_one'


def test_equal_priorities_break_by_name_with_a_warning(sandbox):
    sandbox.add_backend('tplugb', priority=100)
    sandbox.add_backend('tpluga', priority=100)
    device, caught = _auto_select()
    assert device.name == 'tpluga:0'
    assert len(caught) == 1
    message = str(caught[0].message)
    assert "'tpluga'" in message and "'tplugb'" in message
    assert 'CHAINER_BACKENDS' in message


def test_misspelled_hook_is_refused(sandbox):
    sandbox.add_backend('tplug', extra='''
        @hookimpl
        def chainer_core_register_backend(registry):
            registry.register_backend(BACKEND)
        ''')
    device, caught = _auto_select()
    assert device.name == '@numpy'
    assert len(caught) == 1
    message = str(caught[0].message)
    assert "unknown hook 'chainer_core_register_backend'" in message
    assert 'chainer_core_register_backends' in message.split(
        'unknown hook')[1]
    assert 'tplug-dist' in message
    with pytest.raises(backend_api.PluginError, match='unknown hook'):
        chainer_core.get_device('tplug:0')


ADDON = '''\
from backend_api import hookimpl

api_version = (2, 0)


@hookimpl
def chainer_core_addon_info():
    return {'name': 'Tplug tools', 'version': '3.1',
            'summary': 'extra things for tests'}


@hookimpl
def chainer_core_configure(config):
    config.add_key('tplug_answer', 42, 'an add-on setting')
'''


def test_addon_adds_a_configuration_key(sandbox):
    sandbox.add('tplug-tools', {'tplug_tools': ADDON},
                addons={'tplug_tools': 'tplug_tools'}, version='3.1')
    assert 'tplug_tools' not in sys.modules
    assert chainer_core.config.tplug_answer == 42
    with chainer_core.using_config('tplug_answer', 7):
        assert chainer_core.config.tplug_answer == 7
    assert chainer_core.config.tplug_answer == 42

    record, = [r for r in _host.host.records if r.name == 'tplug_tools']
    assert record.group == 'chainer_core.addons'
    assert record.addon_info['summary'] == 'extra things for tests'
    assert record.error is None


def test_addon_with_bad_info_is_reported(sandbox):
    sandbox.add('tplug-tools', {'tplug_tools': ADDON.replace(
        "'summary': 'extra things for tests'", "'about': 'no summary'")},
        addons={'tplug_tools': 'tplug_tools'})
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always')
        _host.host.ensure_loaded()
    caught = _plugin_warnings(caught)
    assert len(caught) == 1
    message = str(caught[0].message)
    assert 'tplug-tools' in message and 'summary' in message
    assert 'CHAINER_PLUGINS_DISABLE=tplug_tools' in message


def test_arrays_of_two_backends_in_one_op(sandbox):
    sandbox.add_backend('tplug')
    sandbox.add_backend('tother')
    a = chainer_core.get_device('tother:0').send(
        numpy.ones(3, dtype=numpy.float32))
    b = chainer_core.get_device('tplug:0').send(
        numpy.ones(3, dtype=numpy.float32))
    with pytest.raises(backend_api.DeviceMismatchError) as info:
        F.add(a, b)
    assert 'tother:0' in str(info.value) and 'tplug:0' in str(info.value)


def test_numpy_arrays_join_a_host_subclass_backend(sandbox):
    # As Chainer mixes NumPy and iDeep arrays: the NumPy operand becomes a
    # view of the backend's array type.
    sandbox.add_backend('tplug')
    device = chainer_core.get_device('tplug:0')
    a = numpy.ones(3, dtype=numpy.float32)
    b = device.send(numpy.full(3, 2, dtype=numpy.float32))
    y = F.add(a, b)
    assert chainer_core.backend.get_device_from_array(y.array) == device
    numpy.testing.assert_array_equal(y.array, [3, 3, 3])


@pytest.mark.parametrize('spec', ['nosuchdev:0', '@nosuchdev', 'numpy:7'])
def test_unknown_device_spec(sandbox, spec):
    sandbox.add_backend('tplug')
    with pytest.raises(backend_api.DeviceSpecError) as info:
        chainer_core.get_device(spec)
    assert repr(spec) in str(info.value)
    assert 'tplug' in str(info.value)


def test_plugin_kernel_for_a_backend_of_another_plugin(sandbox):
    # In the backends group: a device lookup loads backends, not add-ons.
    sandbox.add_backend('tplug')
    sandbox.add('tplug-extra', {'tplug_extra': '''\
from backend_api import hookimpl

api_version = (2, 0)
calls = []


def exp(x):
    import numpy
    calls.append('exp')
    return numpy.exp(x)


@hookimpl
def chainer_core_register_kernels(registry):
    registry.register_kernel('exp', 'tplug', exp)
'''}, backends={'tplug_extra': 'tplug_extra'})
    device = chainer_core.get_device('tplug:0')
    F.exp(device.send(numpy.zeros(2, dtype=numpy.float32)))
    assert sys.modules['tplug_extra'].calls == ['exp']
    spec = kernels.get_spec('exp')
    assert spec.implementations['tplug'][1] == 'tplug-extra'


def test_reset_forgets_plugin_kernels(sandbox):
    sandbox.add_backend('tplug')
    chainer_core.get_device('tplug:0')
    relu = kernels.get_spec('relu')
    assert relu.implementations['tplug'][1] == 'tplug-dist'
    _forget_discovery()
    assert 'tplug' not in relu.implementations
    assert relu.reference is not None


def test_lazy_parameters_are_created_on_the_links_device(sandbox):
    sandbox.add_backend('tplug')
    device = chainer_core.get_device('tplug:0')
    plugin = sys.modules['tplug_plugin']
    import chainer_core.links as L
    link = L.Linear(None, 3).to_device(device)
    y = link(device.send(numpy.ones((2, 4), dtype=numpy.float32)))
    assert type(link.W.array) is plugin.Array
    assert type(y.array) is plugin.Array
