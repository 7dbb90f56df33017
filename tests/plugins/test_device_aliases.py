"""Device spellings claimed by plugins (``chainer_core_device_aliases``) and
the Device contract's host transfer (``to_host``/``from_host``)."""
import warnings

import numpy
import pytest

import backend_api
import chainer_core
import chainer_core.functions as F

ALIASES = '''
@hookimpl
def chainer_core_device_aliases(registry):
    registry.register_alias(int, NAME + ':{}')
    registry.register_alias('acc:{}', NAME + ':{}')
    registry.register_alias('the-accelerator', NAME + ':0')
'''


def test_integers_and_spellings_reach_the_claiming_plugin(sandbox):
    sandbox.add_backend('tplug', extra=ALIASES)
    device = chainer_core.get_device('tplug:0')
    assert chainer_core.get_device(0) is device
    assert chainer_core.get_device('0') is device
    assert chainer_core.get_device(numpy.int64(0)) is device
    assert chainer_core.get_device('acc:0') is device
    assert chainer_core.get_device('the-accelerator') is device
    assert chainer_core.get_device(-1).name == '@numpy'


def test_link_to_gpu_follows_the_integer_alias(sandbox):
    sandbox.add_backend('tplug', extra=ALIASES)
    link = chainer_core.links.Linear(2, 3)
    link.to_gpu()
    assert link.W.device.name == 'tplug:0'


def test_an_unclaimed_integer_names_the_gpu_plugin(sandbox):
    sandbox.add_backend('tplug')
    with pytest.raises(backend_api.DeviceUnavailableError) as info:
        chainer_core.get_device(1)
    message = str(info.value)
    assert "'@cupy:1'" in message and 'chainer-cuda' in message
    assert "'@numpy'" in message


@pytest.mark.parametrize('call', [
    "registry.register_alias(int, 'tplug:0')",
    "registry.register_alias('acc:{}', 'tplug:0')",
    "registry.register_alias('', 'tplug:0')",
    "registry.register_alias('acc', 3)",
])
def test_a_malformed_alias_refuses_the_plugin(sandbox, call):
    sandbox.add_backend('tplug', extra='''
@hookimpl
def chainer_core_device_aliases(registry):
    {}
'''.format(call))
    with pytest.raises(backend_api.PluginError) as info:
        chainer_core.get_device('tplug:0')
    message = str(info.value)
    assert 'chainer_core_device_aliases' in message
    assert 'register_alias' in message


def test_two_plugins_claiming_integers_is_an_error(sandbox):
    sandbox.add_backend('tplug', extra=ALIASES)
    sandbox.add_backend('other', extra='''
@hookimpl
def chainer_core_device_aliases(registry):
    registry.register_alias(int, NAME + ':{}')
''')
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always')
        chainer_core.get_device()
    messages = ' '.join(str(w.message) for w in caught)
    assert 'claimed by both' in messages
    assert 'tplug-dist' in messages and 'other-dist' in messages


HOST_ONLY = '''
class HostOnlyDevice(DeviceBase):
    """Implements from_host only: send comes from the contract."""
    xp = numpy

    def __init__(self, backend):
        self.backend = backend
        self.name = NAME + ':0'

    def from_host(self, ndarray):
        return numpy.array(ndarray).view(Array)

    def is_array_supported(self, array):
        return type(array) is Array


DEVICE = HostOnlyDevice(BACKEND)
'''


def test_send_through_to_host_and_from_host(sandbox):
    sandbox.add_backend('tplug', extra=HOST_ONLY)
    device = chainer_core.get_device('tplug:0')
    x = numpy.arange(6, dtype=numpy.float32).reshape(2, 3)
    y = device.send(x)
    assert device.is_array_supported(y)
    numpy.testing.assert_array_equal(y, x)
    assert device.send(y) is y
    back = chainer_core.get_device('@numpy').send(y)
    assert type(back) is numpy.ndarray
    numpy.testing.assert_array_equal(back, x)
    assert device.send({'a': [x, (x,)]})['a'][1][0].__class__ is y.__class__
    out = F.relu(chainer_core.Variable(y) - 2)
    assert device.is_array_supported(out.array)


def test_device_to_host_is_a_view_for_host_memory():
    device = chainer_core.get_device('@numpy')
    x = numpy.ones(3)
    assert backend_api.DeviceBase.to_host(device, x) is x
    sub = x.view(type('Sub', (numpy.ndarray,), {}))
    view = backend_api.DeviceBase.to_host(device, sub)
    assert type(view) is numpy.ndarray and view.base is not None
    view[0] = 5
    assert x[0] == 5


def test_with_device_makes_it_the_default(sandbox):
    sandbox.add_backend('tplug')
    device = chainer_core.get_device('tplug:0')
    with device:
        assert chainer_core.get_device() is device
        with chainer_core.get_device('@numpy'):
            assert chainer_core.get_device().name == '@numpy'
        assert chainer_core.get_device() is device
    assert backend_api.current_device.get() is None


def test_a_device_pickles_by_name(sandbox):
    import pickle
    sandbox.add_backend('tplug')
    device = chainer_core.get_device('tplug:0')
    assert pickle.loads(pickle.dumps(device)) is device
