"""EmpiricalNormalization: running statistics against NumPy over all the
data seen, the normalization itself, until, clipping, inverse, Variables,
serialization and devices."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F
from chainer_core import serializers

from chainer_rl import links

from array_testing import host


def test_statistics_match_all_data(device):
    rng = numpy.random.RandomState(0)
    norm = links.EmpiricalNormalization((2, 3))
    norm.to_device(device)
    seen = []
    for size in (5, 1, 17, 8):
        x = (rng.standard_normal((size, 2, 3)) * [[1.0], [3.0]]
             + 2.0).astype(numpy.float32)
        seen.append(x)
        norm.experience(device.send(x))
    data = numpy.concatenate(seen).astype(numpy.float64)
    assert norm.count == 31
    numpy.testing.assert_allclose(host(norm.mean), data.mean(0), rtol=1e-5,
                                  atol=1e-5)
    numpy.testing.assert_allclose(host(norm.std), data.std(0), rtol=1e-4)


def test_normalizes_with_statistics_before_the_batch(device):
    rng = numpy.random.RandomState(1)
    norm = links.EmpiricalNormalization(3, eps=0.5)
    norm.to_device(device)
    first = rng.standard_normal((10, 3)).astype(numpy.float32) * 4 + 1
    y = host(norm(device.send(first)))
    # Initial statistics: mean 0, variance 1.
    numpy.testing.assert_allclose(y, first / numpy.sqrt(1.5), rtol=1e-6)
    second = rng.standard_normal((4, 3)).astype(numpy.float32)
    y = host(norm(device.send(second), update=False))
    mean, var = first.mean(0), first.var(0)
    numpy.testing.assert_allclose(y, (second - mean) / numpy.sqrt(var + 0.5),
                                  rtol=1e-4, atol=1e-5)
    assert norm.count == 10
    back = host(norm.inverse(device.send(y)))
    numpy.testing.assert_allclose(back, second, rtol=1e-4, atol=1e-5)


def test_until_and_clip(device):
    norm = links.EmpiricalNormalization(1, until=3, clip_threshold=2.0)
    norm.to_device(device)
    norm.experience(device.send(numpy.full((2, 1), 10, numpy.float32)))
    norm.experience(device.send(numpy.full((2, 1), 20, numpy.float32)))
    norm.experience(device.send(numpy.full((2, 1), 90, numpy.float32)))
    # The third batch comes after 4 >= until examples: ignored.
    assert norm.count == 4
    numpy.testing.assert_allclose(host(norm.mean), [15.0], rtol=1e-6)
    y = host(norm(device.send(numpy.array([[100.0], [-100.0], [15.0]],
                                          numpy.float32))))
    numpy.testing.assert_allclose(y, [[2.0], [-2.0], [0.0]], atol=1e-6)


def test_batch_axis(device):
    rng = numpy.random.RandomState(2)
    norm = links.EmpiricalNormalization(4, batch_axis=1)
    norm.to_device(device)
    x = rng.standard_normal((4, 50)).astype(numpy.float32)
    norm.experience(device.send(x))
    numpy.testing.assert_allclose(host(norm.mean), x.mean(1), rtol=1e-5,
                                  atol=1e-6)
    with pytest.raises(ValueError, match=r"EmpiricalNormalization.forward: "
                                         r"x must have shape \(4, 'batch'\)"):
        norm(device.send(x.T))


def test_variable_input_backpropagates(device):
    norm = links.EmpiricalNormalization(2, eps=0.0)
    norm.to_device(device)
    norm.experience(device.send(numpy.array([[0.0, 0.0], [2.0, 4.0]],
                                            numpy.float32)))
    x = chainer.Variable(device.send(numpy.ones((3, 2), numpy.float32)))
    y = norm(x, update=False)
    assert isinstance(y, chainer.Variable)
    F.sum(y).backward()
    # Variances 1 and 4: gradients 1 / std.
    numpy.testing.assert_allclose(host(x.grad), [[1.0, 0.5]] * 3, rtol=1e-6)


def test_serialization_round_trip(tmp_path):
    norm = links.EmpiricalNormalization(2)
    norm.experience(numpy.array([[1.0, 2.0], [3.0, 8.0]], numpy.float32))
    path = str(tmp_path / 'norm.npz')
    serializers.save_npz(path, norm)
    loaded = links.EmpiricalNormalization(2)
    serializers.load_npz(path, loaded)
    assert loaded.count == 2
    numpy.testing.assert_allclose(loaded.mean, [2.0, 5.0])
    numpy.testing.assert_allclose(loaded.std, [1.0, 3.0])


def test_checks_arguments():
    with pytest.raises(TypeError, match='EmpiricalNormalization: shape must '
                                        'be an int or a tuple'):
        links.EmpiricalNormalization('3')
    with pytest.raises(TypeError, match='dtype must be a float type'):
        links.EmpiricalNormalization(3, dtype=numpy.int32)
    with pytest.raises(ValueError, match='batch_axis must be in'):
        links.EmpiricalNormalization(3, batch_axis=2)
    with pytest.raises(ValueError, match='clip_threshold must be positive'):
        links.EmpiricalNormalization(3, clip_threshold=0)
