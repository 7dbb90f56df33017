"""Chainer's backend-related names: what they return with the backends
installed here, and a clear error for what needs a missing one."""
import numpy
import pytest

import chainer_core as chainer
from chainer_core._runtime.host import host
from chainer_core import backend
from chainer_core.backends import cuda, intel64


def _installed(name):
    host.ensure_loaded()
    entry = host.backends.get(name)
    return entry is not None and entry[0].is_available()


native = pytest.mark.skipif(not _installed('native'),
                            reason='chainer-native is not installed')


class TestArrayTypes:

    def test_numpy_first_and_each_backend_once(self):
        types = chainer.get_array_types()
        assert types[0] is numpy.ndarray
        assert len(set(types)) == len(types)
        for name in host.backends:
            if _installed(name):
                device = host.backends[name][0].get_device(0)
                assert type(device.send(numpy.zeros(1))) in types

    def test_cpu_types_are_numpy_arrays(self):
        cpu = chainer.get_cpu_array_types()
        assert numpy.ndarray in cpu
        assert all(issubclass(t, numpy.ndarray) for t in cpu)


@native
class TestChainerxNames:

    def test_native_device_is_a_chainerx_device(self):
        assert isinstance(chainer.get_device('native:0'),
                          backend.ChainerxDevice)
        assert not isinstance(chainer.get_device('@numpy'),
                              backend.ChainerxDevice)

    def test_to_chx_and_back(self):
        a = numpy.arange(3.0)
        b = backend.to_chx([a, None])
        assert backend.get_device_from_array(b[0]).name == 'native:0'
        assert b[1] is None
        c = backend.from_chx(b[0])
        assert type(c) is numpy.ndarray
        numpy.testing.assert_array_equal(c, a)

    def test_from_chx_leaves_other_arrays(self):
        a = numpy.arange(3.0)
        assert backend.from_chx(a) is a
        with pytest.raises(TypeError, match='from_chx'):
            backend.from_chx(3)

    def test_link_to_chx_and_from_chx(self):
        link = chainer.links.Linear(2, 3).to_chx()
        assert link.device.name == 'native:0'
        assert type(link.from_chx().W.array) is numpy.ndarray


class TestGetDeviceFromArray:

    def test_first_non_none_array(self):
        assert backend.get_device_from_array().name == '@numpy'
        assert backend.get_device_from_array(None, numpy.zeros(1)).name == \
            '@numpy'


@pytest.mark.skipif(cuda.available, reason='CuPy is installed')
class TestCudaWithoutCupy:

    def test_decorators_leave_functions_usable(self):
        @cuda.memoize()
        def double(x):
            return 2 * x

        @cuda.fuse
        def inc(x):
            return x + 1

        @cuda.fuse(kernel_name='inc2')
        def inc2(x):
            return x + 2

        assert double(3) == 6
        numpy.testing.assert_array_equal(inc(numpy.ones(2)), [2, 2])
        numpy.testing.assert_array_equal(inc2(numpy.ones(2)), [3, 3])
        cuda.clear_memo()

    @pytest.mark.parametrize('call', [
        lambda: cuda.elementwise('T x', 'T y', 'y = x', 'copy'),
        lambda: cuda.reduce('T x', 'T y', 'x', 'a + b', 'y = a', '0', 's'),
        lambda: cuda.raw('', 'k'),
        lambda: cuda.Device(0),
        lambda: cuda.Stream(),
        lambda: cuda.get_device_from_id(0),
    ])
    def test_gpu_only_calls_say_cuda_is_missing(self, call):
        with pytest.raises(RuntimeError, match='CUDA is not available'):
            call()

    def test_cpu_answers(self):
        assert cuda.get_device() is cuda.DummyDevice
        assert cuda.get_device(numpy.zeros(1)) is cuda.DummyDevice
        assert not cuda.should_use_cudnn_tensor_core(numpy.float16)
        assert not chainer.should_use_cudnn('>=auto')

    def test_workspace_size(self):
        old = cuda.get_max_workspace_size()
        try:
            cuda.set_max_workspace_size(1024)
            assert cuda.get_max_workspace_size() == 1024
            with pytest.raises(ValueError):
                cuda.set_max_workspace_size(-1)
        finally:
            cuda.set_max_workspace_size(old)


class TestIntel64:

    def test_inputs_all_ready(self):
        ready = intel64.inputs_all_ready((numpy.zeros((2, 3)), None))
        assert ready == intel64.is_ideep_available()
        assert not intel64.inputs_all_ready((numpy.zeros(3),))

    def test_mdarray(self):
        if intel64.is_ideep_available():
            device = chainer.get_device('@intel64')
            assert isinstance(device.send(numpy.zeros(1)), intel64.mdarray)
        else:
            assert not isinstance(numpy.zeros(1), intel64.mdarray)


def test_fallback_and_compute_mode():
    assert repr(chainer.Fallback) == 'Fallback'
    assert chainer.get_compute_mode() is None
    assert issubclass(chainer.warnings.PerformanceWarning, RuntimeWarning)


def test_to_cpu_gives_plain_numpy_arrays_from_every_device():
    for device in chainer.backend.available_devices():
        a = device.send(numpy.arange(3.0))
        out = cuda.to_cpu(a)
        assert type(out) is numpy.ndarray, device
        numpy.testing.assert_array_equal(out, [0, 1, 2])
