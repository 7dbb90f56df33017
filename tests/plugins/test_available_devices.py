"""chainer_core.backend.available_devices and unavailable_backends, and
the test table built on them, with plugins that are available, unavailable
or broken."""
import pytest

import chainer_core
from chainer_core.testing import backend as testing_backend


def _backends(sandbox):
    sandbox.add_backend('tplug', priority=100)
    sandbox.add_backend('tnone', priority=50, extra='''
        Backend.is_available = lambda self: False
        Backend.unavailable_reason = lambda self: 'no tnone card found'
        ''')
    sandbox.add_backend('tzero', priority=30, extra='''
        Backend.device_count = lambda self: 0
        ''')
    sandbox.add_backend('tcrash', priority=20, extra='''
        def get_device(self, index=0):
            raise RuntimeError('tcrash driver crashed')
        Backend.get_device = get_device
        ''')


def test_one_device_per_available_backend_in_selection_order(sandbox):
    _backends(sandbox)
    devices = chainer_core.backend.available_devices()
    assert [d.name for d in devices] == ['tplug:0', '@numpy']
    assert devices[0] is chainer_core.get_device()
    assert chainer_core.backend.unavailable_backends() == {
        'tnone': 'no tnone card found',
        'tzero': 'the backend reports no device',
        'tcrash': 'RuntimeError: tcrash driver crashed',
    }


def test_chainer_backends_orders_and_filters(sandbox, monkeypatch):
    _backends(sandbox)
    monkeypatch.setenv('CHAINER_BACKENDS', 'numpy,tplug,tnone')
    assert [d.name for d in chainer_core.backend.available_devices()] == \
        ['@numpy', 'tplug:0']
    assert list(chainer_core.backend.unavailable_backends()) == ['tnone']


def test_test_table(sandbox, monkeypatch):
    _backends(sandbox)
    assert testing_backend.discovered_devices() == ['tplug:0', '@numpy']
    params = testing_backend.device_params()
    assert [p.id for p in params] == ['tplug:0', '@numpy', 'tnone', 'tzero',
                                      'tcrash']
    assert params[0].values[0] is chainer_core.get_device('tplug:0')
    skip, = params[2].marks
    assert skip.name == 'skip'
    assert skip.kwargs['reason'] == "backend 'tnone': no tnone card found"

    monkeypatch.setenv('CHAINER_TEST_DEVICES', '@tplug, @numpy,tplug:0')
    assert testing_backend.discovered_devices() == ['tplug:0', '@numpy']
    assert testing_backend.unavailable_devices() == []
    assert [p.id for p in testing_backend.device_params()] == \
        ['tplug:0', '@numpy']
    assert testing_backend.all_devices_params() == [
        {'device': 'tplug:0'}, {'device': '@numpy'}]


@pytest.mark.parametrize('spec,message', [
    ('tnone:0', 'no tnone card found'),
    ('nodevice:0', 'unknown device specifier'),
])
def test_test_devices_naming_an_unusable_device(sandbox, monkeypatch, spec,
                                                message):
    _backends(sandbox)
    monkeypatch.setenv('CHAINER_TEST_DEVICES', spec)
    with pytest.raises(ValueError, match='CHAINER_TEST_DEVICES') as info:
        testing_backend.discovered_devices()
    assert message in str(info.value)
