"""chainer_core.backends.cuda: its behaviour without CuPy (and with it, what
a machine without a GPU can check)."""
import os
import subprocess
import sys
import textwrap

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


FAKE_CUPY = {
    'cupy/__init__.py': '''
import functools
from cupy import cuda  # NOQA


class ndarray:
    def __init__(self, data, device_id=0):
        self.data = data
        self.device = cuda.Device(device_id)
        self.shape = (len(data),)

    def get(self, stream=None):
        import numpy
        return numpy.asarray(self.data)


def memoize(for_each_device=False):
    def decorator(f):
        return functools.lru_cache()(f)
    return decorator


def clear_memo():
    pass


def fuse(*args, **kwargs):
    return lambda f: f


class ElementwiseKernel:
    def __init__(self, *args, **kwargs):
        self.args = args


class ReductionKernel(ElementwiseKernel):
    pass


class RawKernel(ElementwiseKernel):
    pass
''',
    'cupy/cuda/__init__.py': '''
class Device:
    def __init__(self, device=0):
        self.id = device


class Event:
    pass


class Stream:
    pass
''',
    'cupy/cuda/cudnn.py': '''
def getVersion():
    return 8000
''',
}


def test_with_cupy_importable(tmp_path):
    """The CuPy branch, with a stand-in CuPy on the path (no GPU needed):
    the wrappers exist, arrays are recognised, and a transfer still needs a
    GPU backend plugin."""
    for name, text in FAKE_CUPY.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
    code = textwrap.dedent('''
        import numpy
        import chainer_core as chainer
        from chainer_core.backends import cuda
        import cupy
        assert cuda.available and cuda.cupy is cupy
        assert cuda.cudnn_enabled and cuda._cudnn_version == 8000
        assert cuda.ndarray is cupy.ndarray
        k = cuda.elementwise('T x', 'T y', 'y = x', 'copy')
        assert isinstance(k, cupy.ElementwiseKernel)
        assert cuda.elementwise('T x', 'T y', 'y = x', 'copy') is k
        assert isinstance(cuda.reduce('T x', 'T y', 'x', 'a + b', 'y = a',
                                      '0', 'sum'), cupy.ReductionKernel)
        assert isinstance(cuda.raw('code', 'name'), cupy.RawKernel)
        a = cupy.ndarray([1.0, 2.0], device_id=1)
        assert cuda.get_device_from_array(numpy.zeros(1), a).id == 1
        assert cuda.get_device_from_id(2).id == 2
        numpy.testing.assert_array_equal(cuda.to_cpu([a])[0], [1.0, 2.0])
        with chainer.using_config('use_cudnn', 'never'):
            assert not cuda.should_use_cudnn('>=auto')
        assert cuda.should_use_cudnn('>=auto')
        assert not cuda.should_use_cudnn('>=auto', lowest_version=9000)
        try:
            cuda.to_gpu(numpy.zeros(1))
        except RuntimeError as e:
            assert "no installed backend provides '@cupy:0'" in str(e), e
        else:
            raise AssertionError('to_gpu without a GPU backend')
    ''')
    path = os.pathsep.join(
        p for p in (str(tmp_path), os.environ.get('PYTHONPATH')) if p)
    env = dict(os.environ, PYTHONPATH=path, CHAINER_PLUGINS_AUTOLOAD='0')
    env.pop('CHAINER_DEVICE', None)
    env.pop('CHAINER_BACKENDS', None)
    proc = subprocess.run([sys.executable, '-c', code], env=env,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
