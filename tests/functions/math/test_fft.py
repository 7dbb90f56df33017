"""fft and ifft: against numpy.fft, the round trip, dtypes, and the
gradients n ifft(g) and fft(g) / n."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads


@pytest.mark.parametrize('dtype', DTYPES)
@pytest.mark.parametrize('inverse', [False, True])
class TestFFT:

    def _parts(self, dtype, shape=(2, 5)):
        rng = numpy.random.RandomState(0)
        return (rng.uniform(-1, 1, shape).astype(dtype),
                rng.uniform(-1, 1, shape).astype(dtype))

    def test_forward(self, dtype, inverse):
        r, i = self._parts(dtype)
        fn = F.ifft if inverse else F.fft
        yr, yi = fn((r, i))
        assert yr.dtype == dtype and yi.dtype == dtype
        ref = (numpy.fft.ifft if inverse else numpy.fft.fft)(
            r.astype(float) + 1j * i.astype(float))
        tol = {numpy.float16: 5e-3}.get(numpy.dtype(dtype).type)
        for got, want in ((yr, ref.real), (yi, ref.imag)):
            if tol:
                numpy.testing.assert_allclose(got.array.astype(float), want,
                                              atol=tol)
            else:
                assert_close(got, want, dtype)

    def test_gradient(self, dtype, inverse):
        r0, i0 = self._parts(dtype, (4,))
        r, i = chainer.Variable(r0), chainer.Variable(i0)
        fn = F.ifft if inverse else F.fft
        yr, yi = fn((r, i))
        gr, gi = grads(F.sum(yr * yr) + F.sum(yi), (r, i))
        # Through the DFT matrix M: y = M x, gx = M^H gy.
        n = 4
        k = numpy.arange(n)
        m = numpy.exp((1 if inverse else -1) * 2j * numpy.pi *
                      numpy.outer(k, k) / n) / (n if inverse else 1)
        y = m @ (r0.astype(float) + 1j * i0.astype(float))
        gy = 2 * y.real + 1j * numpy.ones(n)
        gx = m.conj().T @ gy
        tol = 2e-2 if dtype == numpy.float16 else 1e-5
        numpy.testing.assert_allclose(gr.astype(float), gx.real, atol=tol)
        numpy.testing.assert_allclose(gi.astype(float), gx.imag, atol=tol)


def test_round_trip():
    r, i = numpy.random.rand(3, 6), numpy.random.rand(3, 6)
    br, bi = F.ifft(F.fft((r, i)))
    numpy.testing.assert_allclose(br.array, r, atol=1e-14)
    numpy.testing.assert_allclose(bi.array, i, atol=1e-14)


def test_not_a_pair():
    with pytest.raises(TypeError, match='fft'):
        F.fft(numpy.zeros(4))
