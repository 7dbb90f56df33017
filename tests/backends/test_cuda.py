"""chainer_core.backends.cuda: its behaviour without CuPy (and with it, what
a machine without a GPU can check)."""
import numpy
import pytest

import chainer_core as chainer
from chainer_core import backend
from chainer_core.backends import cuda

try:
    import cupy  # NOQA
    _have_cupy = True
except Exception:
    _have_cupy = False

no_cupy = pytest.mark.skipif(_have_cupy, reason='CuPy is installed')


def test_module_is_reachable_like_chainer():
    assert chainer.backends.cuda is cuda
    assert chainer.cuda is cuda
    assert cuda.GpuDevice is backend.GpuDevice


@no_cupy
def test_unavailable_without_cupy():
    assert cuda.available is False
    assert cuda.cudnn_enabled is False
    assert cuda.cupy is not numpy
    assert numpy is not cuda.cupy
    assert not isinstance(numpy.zeros(1), cuda.ndarray)
    for name in ('elementwise', 'reduce', 'raw', 'memoize', 'fuse',
                 'Device'):
        assert not hasattr(cuda, name)
    with pytest.raises(RuntimeError, match='CuPy'):
        cuda.check_cuda_available()
    assert cuda.should_use_cudnn('>=auto') is False


@no_cupy
def test_to_gpu_without_a_gpu_is_a_clear_error():
    with pytest.raises(RuntimeError, match='chainer-cuda'):
        cuda.to_gpu(numpy.zeros(2))
    with pytest.raises(RuntimeError, match='GPU 1'):
        cuda.to_gpu(numpy.zeros(2), device=1)
    with pytest.raises(RuntimeError):
        cuda.get_device_from_id(0)


def test_to_cpu():
    a = numpy.arange(3.0)
    assert cuda.to_cpu(a) is a
    assert cuda.to_cpu(None) is None
    nested = cuda.to_cpu([a, (a, None)])
    assert isinstance(nested, list) and isinstance(nested[1], tuple)
    assert nested[0] is a and nested[1][1] is None
    scalar = cuda.to_cpu(numpy.float32(2.5))
    assert isinstance(scalar, numpy.ndarray) and scalar.shape == ()
    with pytest.raises(TypeError):
        cuda.to_cpu('text')


def test_dummy_device():
    d = cuda.DummyDevice
    assert int(d) == -1 and d.id == -1
    with d as entered:
        assert entered is d
    d.use()
    d.synchronize()
    assert d == cuda.DummyDeviceType()
    assert cuda.get_device_from_id(None) is d
    assert cuda.get_device_from_id(-1) is d
    assert cuda.get_device_from_array(numpy.zeros(1)) is d
    assert cuda.get_device_from_array(
        chainer.Variable(numpy.zeros(1))) is d
    assert cuda.get_device_from_array() is d


def test_get_array_module():
    assert cuda.get_array_module(numpy.zeros(1)) is numpy
    assert cuda.get_array_module(chainer.Variable(numpy.zeros(1))) is numpy
    assert cuda.get_array_module() is numpy


def test_should_use_cudnn_validates_level():
    with pytest.raises(ValueError):
        cuda.should_use_cudnn('sometimes')


@no_cupy
def test_gpu_device_resolves_through_discovery():
    with pytest.raises(Exception, match='cupy'):
        backend.GpuDevice.from_device_id(0)
    with pytest.raises(Exception, match='cupy'):
        backend.GpuDevice(0)
    with pytest.raises(ValueError):
        backend.GpuDevice.from_device_id(-1)
    assert backend.GpuDevice.from_array(numpy.zeros(1)) is None
