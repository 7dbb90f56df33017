"""Tests of the recurrent links (shared helpers here)."""
import numpy

import chainer_core as chainer


def sigmoid(v):
    return 1 / (1 + numpy.exp(-v))


def arr(v):
    """The array of a Variable (arrays pass through), as float64."""
    if isinstance(v, chainer.Variable):
        v = v.array
    return numpy.asarray(v, dtype=numpy.float64)


def close(actual, expected, atol=1e-12, rtol=1e-10):
    numpy.testing.assert_allclose(arr(actual), arr(expected), atol=atol,
                                  rtol=rtol)


def uniform(rng, *shape, dtype=numpy.float64):
    return rng.uniform(-1, 1, shape).astype(dtype)


def randomize(link, seed=0):
    """Fill every parameter of ``link`` with uniform values, so that no
    test depends on the initializers (nor hides a zero bias)."""
    rng = numpy.random.RandomState(seed)
    for p in link.params():
        p.array[...] = rng.uniform(-0.8, 0.8, p.shape)
    return link


def roundtrip(tmp_path, link, fresh):
    """Save ``link`` with save_npz, load into ``fresh``; returns the keys
    of the file."""
    from chainer_core import serializers
    path = str(tmp_path / 'link.npz')
    serializers.save_npz(path, link)
    serializers.load_npz(path, fresh)
    with numpy.load(path) as f:
        return sorted(f.files)
