"""Every case of the op table on every device and float dtype: forward
against the NumPy reference, then first- and second-order gradients."""
import zlib

import numpy
import pytest

import chainer_core
import chainer_core.functions as F
from chainer_core import gradient_check

from .cases import CASES, DTYPES

HOST = chainer_core.get_device('@numpy')

case_param = pytest.mark.parametrize('case', CASES, ids=lambda c: c.id)
double_param = pytest.mark.parametrize(
    'case', [c for c in CASES if c.double], ids=lambda c: c.id)
dtype_param = pytest.mark.parametrize(
    'dtype', DTYPES, ids=lambda d: numpy.dtype(d).name)


class Setup:
    """Inputs of one case on the host and on the device, and the expected
    output; seeded by the case id so that a failure reproduces."""

    def __init__(self, case, dtype, device):
        self.rng = numpy.random.RandomState(zlib.crc32(case.id.encode()))
        self.host_inputs = tuple(g.make(self.rng, dtype) for g in case.inputs)
        host_consts = {k: v.make(self.rng, dtype) if hasattr(v, 'make')
                       else v for k, v in case.consts.items()}
        self.inputs = tuple(device.send(x) for x in self.host_inputs)
        consts = {k: device.send(v) if isinstance(v, numpy.ndarray) else v
                  for k, v in host_consts.items()}
        self.func = lambda *xs: case.call(*xs, **consts)
        self.expected = numpy.asarray(case.ref(
            *[_widen(x) for x in self.host_inputs],
            **{k: _widen(v) for k, v in host_consts.items()}))
        self.device = device
        self.dtype = dtype
        # float16 gradients are checked against a float64 numerical
        # derivative: float16 steps are too coarse to differentiate in.
        self.numeric_dtype = numpy.float64 if dtype == numpy.float16 else None

    def random(self, shape):
        return self.device.send(
            self.rng.uniform(-1, 1, shape).astype(self.dtype))


def _widen(a):
    if isinstance(a, numpy.ndarray) and a.dtype.kind == 'f':
        return a.astype(numpy.float64)
    return a


@case_param
@dtype_param
def test_forward(case, dtype, device):
    s = Setup(case, dtype, device)
    y = s.func(*[chainer_core.Variable(x) for x in s.inputs])
    assert isinstance(y, chainer_core.Variable)
    assert device.is_array_supported(y.array), \
        'output is a {}, not an array of {}'.format(type(y.array), device)
    out = HOST.send(y.array)
    assert out.dtype == dtype
    assert out.shape == s.expected.shape
    numpy.testing.assert_allclose(out.astype(numpy.float64), s.expected,
                                  **case.tolerance('forward', dtype))
    # Ops must not write into their inputs (views returned by reshape or
    # broadcast_to must not be written through either).
    for before, after in zip(s.host_inputs, s.inputs):
        numpy.testing.assert_array_equal(HOST.send(after), before)


@case_param
@dtype_param
def test_backward(case, dtype, device):
    s = Setup(case, dtype, device)
    gy = s.random(s.expected.shape)
    gradient_check.check_backward(
        s.func, s.inputs, gy, dtype=s.numeric_dtype,
        **case.tolerance('backward', dtype))


@double_param
@dtype_param
def test_double_backward(case, dtype, device):
    s = Setup(case, dtype, device)
    gy = s.random(s.expected.shape)
    ggx = tuple(s.random(x.shape) for x in s.host_inputs
                if x.dtype.kind == 'f')
    gradient_check.check_double_backward(
        s.func, s.inputs, gy, ggx, dtype=s.numeric_dtype,
        **case.tolerance('double', dtype))


@dtype_param
def test_softmax_of_close_large_scores(dtype, device):
    """Scores of an untrained deep network reach thousands; rows of close
    scores there must still sum to 1 within rounding, as the reference's
    exp(x - max) / sum does (x - logsumexp would lose the low bits)."""
    rng = numpy.random.RandomState(0)
    offset = 1000.0 if dtype == numpy.float16 else 1e4
    x = (offset + rng.uniform(-3, 3, (16, 7))).astype(dtype)
    xd = x.astype(numpy.float64)
    e = numpy.exp(xd - xd.max(axis=1, keepdims=True))
    expected = e / e.sum(axis=1, keepdims=True)
    y = HOST.send(F.softmax(device.send(x)).array).astype(numpy.float64)
    tol = 8 * numpy.finfo(dtype).eps
    numpy.testing.assert_allclose(y.sum(axis=1), 1, rtol=tol)
    numpy.testing.assert_allclose(y, expected, rtol=tol, atol=tol)
