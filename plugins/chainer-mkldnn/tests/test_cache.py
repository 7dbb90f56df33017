"""The primitive cache: one primitive per op, shape and parameters."""
import numpy
import pytest

import chainer_core
import chainer_core.functions as F

import chainer_mkldnn


@pytest.fixture
def fresh_cache(device):
    chainer_mkldnn.cache_clear()
    yield
    chainer_mkldnn.set_cache_capacity(1024)


def _conv(device, n, c=3, size=6):
    x = device.send(numpy.ones((n, c, size, size), numpy.float32))
    W = device.send(numpy.ones((4, c, 3, 3), numpy.float32))
    with chainer_core.using_config('use_ideep', 'always'):
        return F.convolution_2d(x, W, pad=1)


def test_reused_for_the_same_shape(device, fresh_cache):
    _conv(device, 2)
    info = chainer_mkldnn.cache_info()
    assert (info['misses'], info['hits'], info['size']) == (1, 0, 1)
    for _ in range(3):
        _conv(device, 2)
    info = chainer_mkldnn.cache_info()
    assert (info['misses'], info['hits'], info['size']) == (1, 3, 1)


def test_new_shape_or_parameters_make_new_primitives(device, fresh_cache):
    _conv(device, 2)
    _conv(device, 3)
    _conv(device, 2, c=5)
    x = device.send(numpy.ones((2, 3, 6, 6), numpy.float32))
    W = device.send(numpy.ones((4, 3, 3, 3), numpy.float32))
    with chainer_core.using_config('use_ideep', 'always'):
        F.convolution_2d(x, W, pad=1, stride=2)
    info = chainer_mkldnn.cache_info()
    assert info['misses'] == 4 and info['hits'] == 0 and info['size'] == 4


def test_least_recently_used_are_evicted(device, fresh_cache):
    chainer_mkldnn.set_cache_capacity(2)
    _conv(device, 1)
    _conv(device, 2)
    _conv(device, 1)          # hit: 1 becomes the most recent
    _conv(device, 3)          # evicts 2
    assert chainer_mkldnn.cache_info()['size'] == 2
    _conv(device, 1)
    info = chainer_mkldnn.cache_info()
    assert (info['hits'], info['misses']) == (2, 3)
    _conv(device, 2)
    assert chainer_mkldnn.cache_info()['misses'] == 4


def test_capacity_zero_disables_caching(device, fresh_cache):
    chainer_mkldnn.set_cache_capacity(0)
    y1 = _conv(device, 2)
    y2 = _conv(device, 2)
    info = chainer_mkldnn.cache_info()
    assert info['size'] == 0 and info['misses'] == 2
    numpy.testing.assert_array_equal(y1.array, y2.array)
