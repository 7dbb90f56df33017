"""copy: a new array on the destination device (never a view of the
input), and the gradient copied back."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F
from chainer_core._runtime.graphs import graph_for_array

from .. import DTYPES, assert_close, grads

dtype_param = pytest.mark.parametrize('dtype', DTYPES)


@dtype_param
class TestCopy:

    @pytest.mark.parametrize('dst', ['@numpy', -1])
    def test_copies(self, dtype, dst):
        x = numpy.arange(6).reshape(2, 3).astype(dtype)
        y = F.copy(x, dst)
        assert type(y.array) is numpy.ndarray
        assert not numpy.shares_memory(y.array, x)
        assert_close(y, x, dtype)

    def test_device_object(self, dtype):
        x = numpy.ones(3, dtype=dtype)
        assert_close(F.copy(x, chainer.get_device('@numpy')), x, dtype)

    def test_gradient(self, dtype):
        x = chainer.Variable(numpy.ones(3, dtype=dtype))
        gx, = grads(F.copy(x, '@numpy'), (x,),
                    numpy.array([1, 2, 3], dtype=dtype))
        assert_close(gx, [1, 2, 3], dtype)

    def test_unknown_device(self, dtype):
        with pytest.raises(ValueError, match='copy: dst'):
            F.copy(numpy.ones(3, dtype=dtype), '@nowhere')


def _devices():
    from tests.conformance.devices import discover
    return [d for _, devices, _ in discover() for d in devices]


_HOST = chainer.get_device('@numpy')


def _host(a):
    return numpy.asarray(_HOST.send(a))


@pytest.mark.parametrize('dst', _devices(), ids=lambda d: d.name)
@pytest.mark.parametrize('src', _devices(), ids=lambda d: d.name)
@dtype_param
class TestCopyBetweenDevices:
    """Every pair of installed devices, also those whose graphs are apart
    (@numpy's is the core's, native:0's its backend's)."""

    def test_copies(self, src, dst, dtype):
        x = src.send(numpy.arange(6).reshape(2, 3).astype(dtype))
        y = F.copy(chainer.Variable(x), dst)
        assert dst.is_array_supported(y.array)
        assert y.dtype == dtype
        assert y.device.name == dst.name
        assert_close(_host(y.array), _host(x), dtype)

    def test_gradient_goes_back(self, src, dst, dtype):
        w = chainer.Variable(src.send(numpy.arange(3).astype(dtype)))
        x = w * 2
        y = F.copy(x, dst)
        weights = dst.send(numpy.array([1, 2, 3], dtype=dtype))
        F.sum(y * weights).backward()
        assert src.is_array_supported(w.grad)
        assert_close(_host(w.grad), [2, 4, 6], dtype)

    def test_gradients_accumulate(self, src, dst, dtype):
        x = chainer.Variable(src.send(numpy.ones(2, dtype=dtype)))
        F.sum(F.copy(x, dst)).backward()
        F.sum(x * 3).backward()
        F.sum(F.copy(x, dst) * dst.send(numpy.full(2, 5, dtype))).backward()
        assert_close(_host(x.grad), [9, 9], dtype)

    def test_output_grad(self, src, dst, dtype):
        x = chainer.Variable(src.send(numpy.ones(3, dtype=dtype)))
        y = F.copy(x, dst)
        y.grad = dst.send(numpy.array([1, 2, 3], dtype=dtype))
        y.backward()
        assert_close(_host(x.grad), [1, 2, 3], dtype)

    def test_round_trip(self, src, dst, dtype):
        w = chainer.Variable(src.send(numpy.arange(3).astype(dtype)))
        h = w * 2
        there = F.copy(h, dst)
        loss = F.sum(h) + F.sum(F.copy(there * there, src))
        loss.backward()
        assert_close(_host(w.grad), 2 + 8 * numpy.arange(3), dtype)

    def test_double_backward(self, src, dst, dtype):
        x = chainer.Variable(src.send(numpy.arange(3).astype(dtype)))
        y = F.copy(x, dst)
        F.sum(y * y * y).backward(enable_double_backprop=True)
        gx = x.grad_var
        assert_close(_host(gx.array), 3 * numpy.arange(3) ** 2, dtype)
        x.cleargrad()
        F.sum(gx).backward()
        assert src.is_array_supported(x.grad)
        assert_close(_host(x.grad), 6 * numpy.arange(3), dtype)

    def test_grad_within_one_graph(self, src, dst, dtype):
        x = chainer.Variable(src.send(numpy.arange(3).astype(dtype)))
        y = F.copy(x, dst)
        if graph_for_array(y.array) is not graph_for_array(x.array):
            pytest.skip('grad does not reach through a copy between graphs')
        gx, = chainer.grad([F.sum(y * y)], [x])
        assert_close(_host(gx.array), 2 * numpy.arange(3), dtype)
        assert x.grad is None

    def test_without_backprop(self, src, dst, dtype):
        a = src.send(numpy.ones(2, dtype=dtype))
        y = F.copy(a, dst)
        assert not y.requires_grad and y.creator is None
        with chainer.no_backprop_mode():
            y = F.copy(chainer.Variable(a), dst)
        assert y.creator is None
        assert dst.is_array_supported(y.array)
