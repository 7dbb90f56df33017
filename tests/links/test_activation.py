"""Activation links: PReLU, Swish, Maxout and SimplifiedDropconnect."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.links as L
from chainer_core import initializers

from ._util import (assert_allclose, check_param_grads, check_round_trip,
                    float64, float64_config, npz_keys, rand)


class TestPReLU:

    def test_defaults(self):
        link = L.PReLU()
        assert link.W.shape == () and link.W.array == numpy.float32(0.25)
        assert npz_keys(link) == ['W']

    def test_forward(self):
        link = float64(lambda: L.PReLU(shape=(3,), init=0.5))
        link.W.array[...] = [0.1, 0.2, 0.3]
        x = rand((2, 3, 4), 0)
        expected = numpy.where(x >= 0, x, x * link.W.array[:, None])
        assert_allclose(link(x), expected)

    def test_gradients_and_round_trip(self):
        x = rand((2, 3), 1)
        link = float64(lambda: L.PReLU((3,), init=initializers.Uniform(1)))
        check_param_grads(link, (x,))
        check_round_trip(
            lambda: float64(lambda: L.PReLU((3,),
                                            init=initializers.Uniform(1))),
            (x,))


class TestSwish:

    def test_forward_and_lazy(self):
        link = L.Swish(None)
        assert link.beta.array is None
        x = rand((2, 3), 0)
        with float64_config():
            y = link(x)
        assert link.beta.shape == (3,)
        assert_allclose(y, x / (1 + numpy.exp(-x)))

    def test_gradients_and_round_trip(self):
        x = rand((2, 3, 2), 1)
        link = float64(lambda: L.Swish((3, 2), beta_init=0.5))
        check_param_grads(link, (x,))
        check_round_trip(lambda: float64(lambda: L.Swish((3,), 2.0)), (x,))
        assert npz_keys(link) == ['beta']


class TestMaxout:

    def test_forward(self):
        link = float64(lambda: L.Maxout(3, 2, 4))
        assert link.linear.W.shape == (8, 3) and link.linear.b.shape == (8,)
        x = rand((5, 3), 0)
        z = x.dot(link.linear.W.array.T) + link.linear.b.array
        assert_allclose(link(x), z.reshape(5, 2, 4).max(axis=2))

    def test_initial_values(self):
        W = numpy.arange(24, dtype=numpy.float32).reshape(2, 4, 3)
        b = numpy.arange(8, dtype=numpy.float32).reshape(2, 4)
        link = L.Maxout(3, 2, 4, initialW=W, initial_bias=b)
        numpy.testing.assert_array_equal(link.linear.W.array,
                                         W.reshape(8, 3))
        numpy.testing.assert_array_equal(link.linear.b.array, numpy.arange(8))
        assert (L.Maxout(3, 2, 4, initial_bias=1).linear.b.array == 1).all()
        assert L.Maxout(3, 2, 4, initial_bias=None).linear.b is None
        with pytest.raises(ValueError):
            L.Maxout(3, 2, 4, initial_bias='x')

    def test_gradients_and_round_trip(self):
        x = rand((2, 3), 1)
        check_param_grads(float64(lambda: L.Maxout(3, 2, 2)), (x,))
        check_round_trip(lambda: float64(lambda: L.Maxout(3, 2, 2)), (x,))
        assert npz_keys(L.Maxout(3, 2, 2)) == ['linear/W', 'linear/b']


class TestSimplifiedDropconnect:

    def test_not_training_is_linear(self):
        link = float64(lambda: L.SimplifiedDropconnect(3, 2))
        x = rand((4, 3), 0)
        y = link(x, train=False)
        assert_allclose(y, x.dot(link.W.array.T) + link.b.array)

    def test_mask(self):
        link = float64(lambda: L.SimplifiedDropconnect(3, 2, ratio=0.25))
        x = rand((4, 3), 1)
        mask = numpy.random.RandomState(0).rand(4, 2, 3) > 0.25
        y = link(x, mask=mask.astype(numpy.float64))
        expected = numpy.einsum('nij,nj->ni', link.W.array * mask, x) / \
            0.75 + link.b.array
        assert_allclose(y, expected)

    def test_short_form_and_lazy(self):
        link = L.SimplifiedDropconnect(4)
        assert link.in_size is None and link.W.array is None
        link(numpy.ones((2, 3, 2), numpy.float32))
        assert link.W.shape == (4, 6) and link.ratio == 0.5

    def test_drops_weights_in_training(self):
        link = L.SimplifiedDropconnect(200, 1, ratio=0.5, nobias=True,
                                       initialW=initializers.One())
        numpy.random.seed(0)
        y = link(numpy.ones((50, 200), numpy.float32)).array
        # Each output sums about half of the weights, scaled by 2.
        assert abs(y.mean() - 200) < 10 and y.std() > 5

    def test_gradients_and_round_trip(self):
        x = rand((2, 3), 2)
        mask = numpy.ones((2, 2, 3))
        mask[0, 1, 2] = 0
        link = float64(lambda: L.SimplifiedDropconnect(3, 2))
        check_param_grads(with_fixed_mask(link, mask), (x,))
        check_round_trip(lambda: float64(
            lambda: L.SimplifiedDropconnect(3, 2)), (x,),
            call=lambda link: link(x, train=False))
        assert npz_keys(link) == ['W', 'b']


def with_fixed_mask(link, mask):
    """``link`` called with a fixed mask (for the numerical gradients)."""

    class Fixed(chainer.Chain):
        def __init__(self):
            super().__init__()
            with self.init_scope():
                self.inner = link

        def forward(self, x):
            return self.inner(x, mask=mask)

    return Fixed()
