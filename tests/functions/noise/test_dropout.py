"""dropout: the fraction dropped, the scale of the rest, the mask
returned or given, identity outside training mode, and gradients through
the fixed mask."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads, typed
from . import assert_fraction

dtype_param = pytest.mark.parametrize('dtype', DTYPES)


@dtype_param
class TestDropout:

    @pytest.mark.parametrize('ratio', [0.1, 0.5, 0.8])
    def test_fraction_dropped_and_scale(self, dtype, ratio):
        numpy.random.seed(0)
        x = numpy.ones((200, 100), dtype)
        y = F.dropout(x, ratio)
        assert y.shape == x.shape and y.dtype == dtype
        dropped = int((y.array == 0).sum())
        assert_fraction(dropped, x.size, ratio)
        kept = y.array[y.array != 0]
        assert_close(kept, numpy.full(kept.shape, 1 / (1 - ratio)), dtype)

    def test_mean_is_preserved(self, dtype):
        numpy.random.seed(1)
        x = numpy.full((100000,), 2, dtype)
        y = F.dropout(x, 0.3).array.astype('f8')
        # Each element is 2 / 0.7 with probability 0.7: sd of the mean
        # is 2 / 0.7 * sqrt(0.21 / n).
        assert abs(y.mean() - 2) < 5 * 2 / 0.7 * numpy.sqrt(0.21 / x.size)

    def test_default_ratio_is_half(self, dtype):
        numpy.random.seed(2)
        y = F.dropout(numpy.ones(10000, dtype))
        assert_fraction(int((y.array == 0).sum()), 10000, 0.5)
        assert_close(y.array.max(), 2, dtype)

    def test_seed_reproduces_the_mask(self, dtype):
        x = numpy.arange(1, 101, dtype=dtype)
        numpy.random.seed(3)
        y1 = F.dropout(x).array
        numpy.random.seed(3)
        y2 = F.dropout(x).array
        numpy.testing.assert_array_equal(y1, y2)

    def test_return_mask(self, dtype):
        x = numpy.random.RandomState(0).uniform(-1, 1, (4, 5)).astype(dtype)
        y, mask = F.dropout(x, 0.25, return_mask=True)
        assert mask.shape == x.shape and mask.dtype == dtype
        assert set(numpy.unique(mask).tolist()) <= {0.0, float(
            dtype(1 / 0.75))}
        numpy.testing.assert_array_equal(y.array, x * mask)

    def test_given_mask_is_used(self, dtype):
        x = typed([1, 2, 3, 4], dtype)
        mask = typed([0, 2, 0, 2], dtype)
        y, used = F.dropout(x, mask=mask, return_mask=True)
        assert_close(y, [0, 4, 0, 8], dtype)
        assert used is mask

    def test_identity_outside_training_mode(self, dtype):
        x = chainer.Variable(typed([1, 2, 3], dtype))
        with chainer.using_config('train', False):
            y = F.dropout(x, 0.9)
            y2, mask = F.dropout(x.array, 0.9, return_mask=True)
        assert y is x
        numpy.testing.assert_array_equal(y2.array, x.array)
        assert mask is None

    def test_ratio_zero_keeps_everything(self, dtype):
        x = typed([1, -2, 3], dtype)
        numpy.testing.assert_array_equal(F.dropout(x, 0.0).array, x)

    def test_gradient_is_the_masked_output_gradient(self, dtype):
        x = chainer.Variable(typed([1, 2, 3, 4], dtype))
        mask = typed([2, 0, 2, 0], dtype)
        gx, = grads(F.dropout(x, mask=mask), (x,), typed([1, 2, 3, 4],
                                                         dtype))
        assert_close(gx, [2, 0, 6, 0], dtype)

    def test_double_backprop_is_linear(self, dtype):
        x = chainer.Variable(typed([1, 2, 3], dtype))
        mask = typed([2, 0, 2], dtype)
        gy = chainer.Variable(typed([1, 1, 1], dtype))
        gx, = chainer.grad([F.dropout(x, mask=mask)], [x], [gy],
                           enable_double_backprop=True)
        ggy, = chainer.grad([gx], [gy], [typed([1, 2, 3], dtype)])
        assert_close(ggy, [2, 0, 6], dtype)

    def test_train_argument_is_refused(self, dtype):
        with pytest.raises(ValueError, match='using_config'):
            F.dropout(typed([1], dtype), train=False)
