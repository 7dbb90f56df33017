"""The native backend as chainer-core sees it: entry point, api_version,
device, zero-copy transfers, NumPy-view fallback and native kernels."""
import importlib.metadata
import subprocess
import sys

import numpy
import pytest

import chainer_core
import chainer_core.functions as F
import chainer_native as cn
from chainer_core._runtime import kernels


def test_entry_point_and_api_version():
    eps = [ep for ep in importlib.metadata.entry_points(
        group='chainer_core.backends') if ep.name == 'native']
    assert len(eps) == 1
    module = eps[0].load()
    assert module.api_version == (2, 0)
    assert module._backend.name == 'native'
    assert module._backend.priority == 200


def test_import_is_light():
    code = ('import sys, chainer_native, chainer_native._plugin; '
            'print("chainer_native._core" in sys.modules)')
    out = subprocess.run([sys.executable, '-c', code], capture_output=True,
                         text=True, check=True)
    assert out.stdout.strip() == 'False'


def test_device_specs():
    d = chainer_core.get_device('native:0')
    assert d is chainer_core.get_device('native')
    assert d.name == 'native:0' and d.xp is cn
    assert d.backend.parse_device_spec('native:1') is None
    assert d.backend.parse_device_spec('@numpy') is None


def test_device_from_array_and_send():
    d = chainer_core.get_device('native:0')
    a = numpy.arange(6, dtype=numpy.float32).reshape(2, 3)
    x = d.send(a)
    assert type(x) is cn.ndarray and d.is_array_supported(x)
    assert not d.is_array_supported(a)
    assert numpy.shares_memory(numpy.asarray(x), a)
    assert chainer_core.backend.get_device_from_array(x) == d
    assert d.send(x) is x
    host = chainer_core.get_device('@numpy').send(x)
    assert isinstance(host, numpy.ndarray)
    numpy.testing.assert_array_equal(host, a)
    assert numpy.shares_memory(d.to_numpy_view(x), a)
    assert type(d.from_numpy_view(a)) is cn.ndarray


def test_native_kernels_are_registered():
    spec = kernels.get_spec('matmul')
    assert 'native' in spec.implementations
    for name in ('add', 'relu', 'linear', 'softmax_cross_entropy',
                 'convolution_2d', 'max_pooling_2d', 'sum', 'exp'):
        assert 'native' in kernels.get_spec(name).implementations


def test_ops_on_native_variables():
    d = chainer_core.get_device('native:0')
    x = chainer_core.Variable(d.send(numpy.array([[-1.0, 2.0]],
                                                 numpy.float32)))
    y = F.sum(F.relu(x) * 3 + F.exp(x))
    assert type(y.array) is cn.ndarray
    y.backward()
    assert type(x.grad) is cn.ndarray
    numpy.testing.assert_allclose(numpy.asarray(x.grad),
                                  [[numpy.exp(-1.0), 3 + numpy.exp(2.0)]],
                                  rtol=1e-6)
    # An op without a native kernel runs its reference on NumPy views.
    z = F.cumsum(x, axis=1)
    assert type(z.array) is cn.ndarray


def test_training_step_on_native():
    d = chainer_core.get_device('native:0')
    L = chainer_core.links
    model = L.Classifier(L.Linear(4, 3))
    model.to_device(d)
    opt = chainer_core.optimizers.SGD(0.1).setup(model)
    rng = numpy.random.RandomState(0)
    x = d.send(rng.normal(size=(8, 4)).astype(numpy.float32))
    t = d.send(rng.randint(0, 3, 8).astype(numpy.int32))
    losses = []
    for _ in range(20):
        loss = model(x, t)
        model.cleargrads()
        loss.backward()
        opt.update()
        losses.append(float(loss.array))
    assert losses[-1] < losses[0]


@pytest.mark.parametrize('spec', ['native:0'])
def test_info_lists_the_backend(spec):
    out = subprocess.run([sys.executable, '-m', 'chainer_core', 'info'],
                         capture_output=True, text=True, check=True)
    assert 'native' in out.stdout and spec in out.stdout
