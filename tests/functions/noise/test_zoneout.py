"""zoneout: each element keeps h with probability ratio, else takes x;
identity on x outside training mode; gradients follow the choice."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads, typed
from . import assert_fraction

dtype_param = pytest.mark.parametrize('dtype', DTYPES)


@dtype_param
class TestZoneout:

    @pytest.mark.parametrize('ratio', [0.2, 0.5, 0.9])
    def test_fraction_of_h(self, dtype, ratio):
        numpy.random.seed(0)
        h = numpy.zeros((100, 100), dtype)
        x = numpy.ones((100, 100), dtype)
        y = F.zoneout(h, x, ratio)
        assert y.shape == x.shape and y.dtype == dtype
        assert set(numpy.unique(y.array).tolist()) <= {0.0, 1.0}
        assert_fraction(int((y.array == 0).sum()), y.size, ratio)

    def test_default_ratio_is_half(self, dtype):
        numpy.random.seed(1)
        y = F.zoneout(numpy.zeros(10000, dtype), numpy.ones(10000, dtype))
        assert_fraction(int((y.array == 0).sum()), 10000, 0.5)

    def test_identity_on_x_outside_training_mode(self, dtype):
        x = chainer.Variable(typed([1, 2], dtype))
        with chainer.using_config('train', False):
            assert F.zoneout(typed([5, 6], dtype), x) is x

    def test_gradients_follow_the_choice(self, dtype):
        numpy.random.seed(2)
        h = chainer.Variable(numpy.zeros(50, dtype))
        x = chainer.Variable(numpy.ones(50, dtype))
        y = F.zoneout(h, x)
        gy = numpy.arange(50).astype(dtype)
        gh, gx = grads(y, (h, x), gy)
        took_x = y.array == 1
        assert_close(gx, numpy.where(took_x, gy, 0), dtype)
        assert_close(gh, numpy.where(took_x, 0, gy), dtype)

    def test_seed_reproduces_the_choice(self, dtype):
        h, x = numpy.zeros(64, dtype), numpy.ones(64, dtype)
        numpy.random.seed(3)
        y1 = F.zoneout(h, x).array
        numpy.random.seed(3)
        y2 = F.zoneout(h, x).array
        numpy.testing.assert_array_equal(y1, y2)

    def test_double_backprop_is_linear(self, dtype):
        numpy.random.seed(4)
        h = chainer.Variable(numpy.zeros(8, dtype))
        x = chainer.Variable(numpy.ones(8, dtype))
        y = F.zoneout(h, x)
        gy = chainer.Variable(numpy.ones(8, dtype))
        gh, gx = chainer.grad([y], [h, x], [gy], enable_double_backprop=True)
        ggy, = chainer.grad([gx], [gy], [numpy.ones(8, dtype)])
        assert_close(ggy, (y.array == 1).astype('f8'), dtype)
