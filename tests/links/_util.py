"""Helpers shared by the link tests: float64 links, parameter gradients by
numerical differentiation, and npz round trips."""
import io

import numpy

import chainer_core as chainer
from chainer_core import gradient_check
from chainer_core import serializers


def rand(shape, seed, low=-1, high=1, dtype=numpy.float64):
    return numpy.random.RandomState(seed).uniform(low, high, shape).astype(
        dtype)


def float64(make):
    """``make()`` with float64 as the default parameter dtype."""
    with chainer.using_config('dtype', numpy.float64):
        return make()


def float64_config():
    """A scope in which lazily initialized parameters are float64."""
    return chainer.using_config('dtype', numpy.float64)


def assert_allclose(actual, expected, **kw):
    if isinstance(actual, chainer.Variable):
        actual = actual.array
    if isinstance(expected, chainer.Variable):
        expected = expected.array
    kw.setdefault('rtol', 1e-10)
    kw.setdefault('atol', 1e-12)
    numpy.testing.assert_allclose(actual, expected, **kw)


def check_param_grads(link, inputs, seed=0, **kw):
    """The gradients of ``link(*inputs)`` with respect to its inputs and
    every parameter match central differences (float64 link)."""
    inputs = tuple(inputs)
    y = link(*inputs)
    gy = rand(y.shape, seed)
    params = tuple(link.params())
    assert params, 'the link has no parameters'
    kw.setdefault('atol', 1e-7)
    kw.setdefault('rtol', 1e-6)
    gradient_check.check_backward(lambda *xs: link(*xs), inputs, gy,
                                  params=params, eps=1e-6, **kw)


def check_grads_reach_params(link, inputs):
    """A backward pass from ``sum(link(*inputs))`` fills every parameter's
    gradient with finite values."""
    link.cleargrads()
    y = link(*inputs)
    chainer.functions.sum(y).backward()
    for name, p in link.namedparams():
        assert p.grad is not None, name
        assert p.grad.shape == p.shape, name
        assert numpy.isfinite(p.grad).all(), name


def npz_keys(link):
    buf = io.BytesIO()
    serializers.save_npz(buf, link)
    buf.seek(0)
    with numpy.load(buf) as npz:
        return sorted(npz.files)


def check_round_trip(make, inputs, call=None, prepare=None):
    """Save a link (after ``prepare(link)`` and one call, so lazy parameters
    exist), load the file into a fresh one, and get identical outputs.
    Returns the loaded link."""
    call = call or (lambda link: link(*inputs))
    src = make()
    if prepare is not None:
        prepare(src)
    y_src = call(src)
    buf = io.BytesIO()
    serializers.save_npz(buf, src)
    buf.seek(0)
    dst = make()
    serializers.load_npz(buf, dst)
    for (name, p), (_, q) in zip(src.namedparams(), dst.namedparams()):
        numpy.testing.assert_array_equal(p.array, q.array, err_msg=name)
    y_dst = call(dst)
    if isinstance(y_src, chainer.Variable):
        numpy.testing.assert_array_equal(y_dst.array, y_src.array)
    return dst
