"""Devices: get_device, using_device, get_array_module, send, the env."""
import os
import subprocess
import sys
import threading

import numpy
import pytest

import chainer_core as chainer
from backend_api import DeviceSpecError, DeviceUnavailableError
from chainer_core._runtime.host import host
from chainer_core import backend


def _cuda_installed():
    host.ensure_loaded()
    return 'cuda' in host.backends


def _only_numpy_installed():
    host.ensure_loaded()
    return set(host.backends) == {'numpy'}


@pytest.fixture
def no_device_env(monkeypatch):
    monkeypatch.delenv('CHAINER_DEVICE', raising=False)


class TestGetDevice:

    @pytest.mark.parametrize('spec', [
        '@numpy', -1, -2, '-1', ' -1', '-3', numpy.int32(-1),
        numpy.int64(-5)])
    def test_numpy_specs(self, spec):
        device = chainer.get_device(spec)
        assert device.name == '@numpy'
        assert device.xp is numpy
        assert isinstance(device, backend.CpuDevice)

    def test_device_object_is_returned_as_is(self):
        device = chainer.get_device('@numpy')
        assert chainer.get_device(device) is device

    def test_default(self, no_device_env):
        device = chainer.get_device()
        assert device is chainer.get_device(None)
        assert hasattr(device, 'xp') and hasattr(device, 'send')
        if _only_numpy_installed():
            assert device.name == '@numpy'

    @pytest.mark.parametrize('spec', ['@nowhere', 'tpu:3', '@numpy:7', ''])
    def test_unknown_spec_names_the_spec(self, spec):
        with pytest.raises(DeviceSpecError) as e:
            chainer.get_device(spec)
        assert repr(spec) in str(e.value)
        assert isinstance(e.value, ValueError)

    @pytest.mark.parametrize('spec', [
        0, '0', '1', numpy.int64(2), '@cupy:0', 'cuda:1'])
    def test_gpu_without_a_gpu_backend_names_the_plugin(self, spec):
        if _cuda_installed():
            pytest.skip('the CUDA backend is installed')
        with pytest.raises(DeviceUnavailableError, match='chainer-cuda'):
            chainer.get_device(spec)

    def test_missing_gpu_is_a_runtime_error_as_in_chainer(self):
        if _cuda_installed():
            pytest.skip('the CUDA backend is installed')
        with pytest.raises(RuntimeError):
            chainer.get_device(0)

    @pytest.mark.parametrize('call', [
        lambda link: link.to_gpu(0),
        lambda link: link.to_device(0),
        lambda link: link.to_device('@cupy:0'),
    ])
    def test_gpu_transfer_of_a_link_without_a_gpu_backend(self, call):
        if _cuda_installed():
            pytest.skip('the CUDA backend is installed')
        link = chainer.links.Linear(2, 3)
        with pytest.raises(RuntimeError, match='chainer-cuda'):
            call(link)

    @pytest.mark.parametrize('spec', [-1, '-1'])
    def test_integer_specs_move_links_to_the_cpu(self, spec):
        link = chainer.links.Linear(2, 3).to_device('@numpy')
        assert link.to_device(spec) is link
        assert type(link.W.array) is numpy.ndarray
        assert link.device.name == '@numpy'

    @pytest.mark.parametrize('spec', [1.5, object(), [0]])
    def test_uninterpretable_spec(self, spec):
        with pytest.raises(DeviceSpecError, match='cannot interpret'):
            chainer.get_device(spec)

    def test_bool_is_not_a_device(self):
        with pytest.raises(TypeError):
            chainer.get_device(True)

    def test_equality_and_hash(self):
        a = chainer.get_device('@numpy')
        b = chainer.get_device(-1)
        assert a == b
        assert hash(a) == hash(b)
        assert str(a) == '@numpy'
        assert '@numpy' in repr(a)


class TestUsingDevice:

    def test_scopes_the_default(self, no_device_env):
        device = chainer.get_device('@numpy')
        with chainer.using_device('@numpy') as d:
            assert d is device
            assert chainer.get_device() is device

    def test_nesting_restores_the_outer_device(self, no_device_env):
        outer = chainer.get_device('@numpy')
        with chainer.using_device(outer):
            with chainer.using_device(-1) as inner:
                assert chainer.get_device() is inner
            assert chainer.get_device() is outer

    def test_restored_on_exception(self, no_device_env):
        before = chainer.get_device()
        with pytest.raises(RuntimeError):
            with chainer.using_device('@numpy'):
                raise RuntimeError
        assert chainer.get_device() is before

    def test_unknown_spec(self):
        with pytest.raises(DeviceSpecError):
            with chainer.using_device('@nowhere'):
                pass

    def test_with_device(self, no_device_env):
        device = chainer.get_device('@numpy')
        with device as d:
            assert d is device
            assert chainer.get_device() is device
            with device:
                assert chainer.get_device() is device
            assert chainer.get_device() is device

    def test_other_threads_keep_their_default(self, no_device_env):
        seen = []
        default = chainer.get_device()

        def worker():
            seen.append(chainer.get_device())

        marker = _MarkerDevice()
        with chainer.using_device(marker):
            assert chainer.get_device() is marker
            t = threading.Thread(target=worker)
            t.start()
            t.join(10)
        assert seen == [default]


class _MarkerDevice(backend.Device):
    """A device object no backend owns, to tell scopes apart."""

    name = '@marker'
    xp = numpy

    def send_array(self, array):
        return numpy.asarray(array)

    def is_array_supported(self, array):
        return isinstance(array, numpy.ndarray)


class TestGetArrayModule:

    @pytest.mark.parametrize('args', [
        (numpy.zeros(2),),
        (chainer.Variable(numpy.zeros(2)),),
        (1.0,),
        (numpy.float32(1),),
        (None,),
        (),
        (numpy.zeros(1), 3, None, chainer.Variable(numpy.ones(1))),
    ])
    def test_numpy(self, args):
        assert chainer.get_array_module(*args) is numpy
        assert backend.get_array_module(*args) is numpy

    def test_variable_xp(self):
        assert chainer.Variable(numpy.zeros(1)).xp is numpy


class TestSend:

    def test_array_is_returned_as_is(self):
        a = numpy.zeros(3)
        assert chainer.get_device('@numpy').send(a) is a

    def test_nested_containers(self):
        device = chainer.get_device('@numpy')
        data = {
            'a': (numpy.float32(1.5), [numpy.ones(2), None]),
            'b': [numpy.int64(3)],
        }
        out = device.send(data)
        assert isinstance(out, dict)
        assert isinstance(out['a'], tuple)
        assert isinstance(out['a'][1], list)
        assert isinstance(out['a'][0], numpy.ndarray)
        assert out['a'][0].dtype == numpy.float32
        assert out['a'][0].shape == ()
        assert out['a'][0] == 1.5
        numpy.testing.assert_array_equal(out['a'][1][0], numpy.ones(2))
        assert out['a'][1][1] is None
        assert out['b'][0].dtype == numpy.int64

    def test_none(self):
        assert chainer.get_device('@numpy').send(None) is None

    def test_non_array(self):
        with pytest.raises(TypeError):
            chainer.get_device('@numpy').send(object())

    def test_is_array_supported(self):
        device = chainer.get_device('@numpy')
        assert device.is_array_supported(numpy.zeros(1))
        assert not device.is_array_supported([0.0])


class TestArrayDevice:

    def test_get_device_from_array(self):
        assert backend.get_device_from_array(numpy.zeros(1)).name == '@numpy'
        v = chainer.Variable(numpy.zeros(1))
        assert backend.get_device_from_array(v).name == '@numpy'

    def test_unknown_array_type(self):
        class NotAnArray:
            shape = (1,)

        with pytest.raises(TypeError, match='NotAnArray'):
            backend.get_device_from_array(NotAnArray())

    def test_is_arrays_compatible(self):
        assert backend.is_arrays_compatible(
            [numpy.zeros(1), numpy.ones(2), None])

    def test_copyto(self):
        dst = numpy.zeros(3)
        backend.copyto(dst, numpy.arange(3.0))
        numpy.testing.assert_array_equal(dst, [0.0, 1.0, 2.0])


class TestChainerDeviceEnvironment:

    @staticmethod
    def _run(code, device):
        env = dict(os.environ)
        env.pop('CHAINER_DEVICE', None)
        if device is not None:
            env['CHAINER_DEVICE'] = device
        return subprocess.run([sys.executable, '-c', code], env=env,
                              capture_output=True, text=True, timeout=120)

    def test_selects_the_default(self):
        proc = self._run('import chainer_core as c; '
                         'print(c.get_device().name)', '@numpy')
        assert proc.returncode == 0, proc.stderr
        assert proc.stdout.strip() == '@numpy'

    def test_unknown_spec_is_an_error_naming_the_variable(self):
        proc = self._run(
            'import chainer_core as c\n'
            'from backend_api import DeviceSpecError\n'
            'try:\n'
            '    c.get_device()\n'
            'except DeviceSpecError as e:\n'
            '    print("ERR", e)\n', '@bogus')
        assert proc.returncode == 0, proc.stderr
        assert proc.stdout.startswith('ERR')
        assert 'CHAINER_DEVICE' in proc.stdout
        assert '@bogus' in proc.stdout

    def test_explicit_spec_and_using_device_win(self):
        proc = self._run(
            'import chainer_core as c\n'
            'print(c.get_device("@numpy").name)\n'
            'with c.using_device("@numpy") as d:\n'
            '    print(c.get_device() is d)\n', '@bogus')
        assert proc.returncode == 0, proc.stderr
        assert proc.stdout.split() == ['@numpy', 'True']


def test_devices_survive_copy_and_pickle_after_use():
    import copy
    import pickle
    device = chainer.get_device('@numpy')
    with device:
        pass
    assert copy.copy(device) is device
    assert copy.deepcopy({'d': device})['d'] is device
    assert pickle.loads(pickle.dumps(device)) is device
