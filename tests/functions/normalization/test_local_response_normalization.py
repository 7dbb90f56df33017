"""local_response_normalization: the window of channels i - n//2 ..
i + n//2, cut at the edges; Chainer's defaults n=5, k=2, alpha=1e-4,
beta=.75."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F
from chainer_core._runtime import kernels

from .. import DTYPES, assert_close, grads, typed

dtype_param = pytest.mark.parametrize('dtype', DTYPES)


@dtype_param
class TestLocalResponseNormalization:

    def test_window_at_the_edges(self, dtype):
        x = typed([[1, 2, 3, 4]], dtype)
        y = F.local_response_normalization(x, n=3, k=1, alpha=1, beta=1)
        sums = [1 + 4, 1 + 4 + 9, 4 + 9 + 16, 9 + 16]
        assert_close(y, [[v / (1 + s) for v, s in zip([1, 2, 3, 4], sums)]],
                     dtype)

    def test_even_n_spans_n_over_2_on_each_side(self, dtype):
        x = typed([[1, 2, 3, 4, 5, 6]], dtype)
        y = F.local_response_normalization(x, n=4, k=0, alpha=1, beta=0.5)
        x64 = numpy.arange(1, 7.0)
        norms = [numpy.sqrt((x64[max(0, i - 2):i + 3] ** 2).sum())
                 for i in range(6)]
        assert_close(y, [x64 / norms], dtype)

    def test_defaults(self, dtype):
        x = numpy.random.RandomState(0).uniform(-3, 3, (2, 7, 2)).astype(
            dtype)
        y = F.local_response_normalization(x)
        assert y.shape == x.shape and y.dtype == dtype
        x64 = x.astype('f8')
        expected = numpy.empty_like(x64)
        for i in range(7):
            s = (x64[:, max(0, i - 2):i + 3] ** 2).sum(axis=1)
            expected[:, i] = x64[:, i] / (2 + 1e-4 * s) ** 0.75
        assert_close(y, expected, dtype)

    def test_alpha_zero_is_a_constant_scale(self, dtype):
        x = numpy.random.RandomState(0).uniform(-1, 1, (2, 3, 2)).astype(
            dtype)
        y = F.local_response_normalization(x, k=4, alpha=0, beta=0.5)
        assert_close(y, x.astype('f8') / 2, dtype)

    def test_gradient_for_a_single_channel(self, dtype):
        # One channel: y = x (k + alpha x^2)^-beta, so
        # dy/dx = (k + alpha x^2)^-beta - 2 alpha beta x^2 (k + ...)^-beta-1
        x = chainer.Variable(typed([[0.5], [-1.0]], dtype))
        gx, = grads(F.local_response_normalization(
            x, n=5, k=1, alpha=0.5, beta=0.75), (x,))
        x64 = numpy.array([[0.5], [-1.0]])
        u = 1 + 0.5 * x64 ** 2
        assert_close(gx, u ** -0.75 - 0.75 * x64 ** 2 * u ** -1.75, dtype)


def test_grad_kernel_gets_k():
    # Backends recompute unit_scale from x (oneDNN's LRN backward does):
    # the kernel is given k as well as unit_scale.
    spec = kernels.get_spec('local_response_normalization_grad')
    assert spec.signature == \
        '(x, gy, unit_scale, half_n, k, alpha, beta)'
    saved = dict(spec.implementations)
    calls = []

    def spy(x, gy, unit_scale, half_n, k, alpha, beta):
        calls.append((half_n, k, alpha, beta))
        return spec.reference(numpy, x, gy, unit_scale, half_n, k, alpha,
                              beta)

    kernels.register_kernel('local_response_normalization_grad', 'numpy',
                            spy, distribution='test')
    try:
        x = chainer.Variable(numpy.ones((2, 3, 4), numpy.float32))
        grads(F.local_response_normalization(x, n=3, k=1.5, alpha=0.25,
                                             beta=0.5), (x,))
    finally:
        spec.implementations.clear()
        spec.implementations.update(saved)
        kernels._cache.clear()
    assert calls == [(1, 1.5, 0.25, 0.5)]
