"""zeta: the Hurwitz zeta function against direct summation and known
values, its poles and NaNs, and the gradient -x zeta(x + 1, q) in q."""
import math

import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, grads, typed


def _zeta(s, q):
    """sum_k (q + k)^-s: 20000 terms directly, the tail by
    Euler-Maclaurin."""
    k = numpy.arange(20000)
    head = ((q + k) ** -s).sum()
    w = q + 20000.0
    return head + w ** (1 - s) / (s - 1) + w ** -s / 2 + s * w ** (
        -s - 1) / 12


_S = [2.0, 3.0, 1.5, 4.0, 2.5]
_Q = [1.0, 0.5, 2.0, 3.5, 0.25]


@pytest.mark.parametrize('dtype', DTYPES)
class TestZeta:

    def test_forward(self, dtype):
        y = F.zeta(typed(_S, dtype), typed(_Q, dtype))
        assert y.dtype == dtype
        expected = [_zeta(s, q) for s, q in zip(_S, _Q)]
        tol = {numpy.float16: 3e-3, numpy.float32: 1e-5}.get(dtype, 1e-11)
        numpy.testing.assert_allclose(y.array.astype(float), expected,
                                      rtol=tol)

    def test_gradient_in_q(self, dtype):
        q = chainer.Variable(typed(_Q, dtype))
        gq, = grads(F.zeta(typed(_S, dtype), q), (q,))
        expected = [-s * _zeta(s + 1, v) for s, v in zip(_S, _Q)]
        numpy.testing.assert_allclose(
            gq.astype(float), expected,
            rtol=1e-2 if dtype == numpy.float16 else 1e-5)

    def test_broadcast(self, dtype):
        q = chainer.Variable(typed([[1.0], [2.0]], dtype))
        y = F.zeta(typed([2.0, 3.0], dtype), q)
        assert y.shape == (2, 2)
        gq, = grads(y, (q,))
        assert gq.shape == (2, 1)


def test_known_values():
    s = numpy.array([2.0, 4.0, 2.0])
    q = numpy.array([1.0, 1.0, 0.5])
    numpy.testing.assert_allclose(
        F.zeta(s, q).array,
        [math.pi ** 2 / 6, math.pi ** 4 / 90, math.pi ** 2 / 2],
        rtol=1e-14)


def test_scalar_exponent_and_negative_q():
    # zeta(2, q) for q = -1.5 adds the terms (-1.5)^-2 and (-0.5)^-2 to
    # zeta(2, 0.5).
    y = F.zeta(2.0, numpy.array([-1.5])).array
    numpy.testing.assert_allclose(
        y, [math.pi ** 2 / 2 + 1 / 2.25 + 4], rtol=1e-13)


def test_poles_and_nan():
    with numpy.errstate(invalid='ignore', divide='ignore'):
        y = F.zeta(numpy.array([1.0, 0.5, 2.0, 2.5]),
                   numpy.array([1.0, 1.0, -1.0, -0.5])).array
    assert y[0] == numpy.inf and y[2] == numpy.inf
    assert numpy.isnan(y[1]) and numpy.isnan(y[3])
