"""Memory the extension keeps per thread (blocked copies of convolution
operands, scratchpads, pooling workspaces): reused from call to call, yet
every result is a fresh array and no call sees another's leftovers."""
import threading

import numpy
import pytest

import chainer_core
from chainer_core._runtime import kernels as registry

import chainer_mkldnn
from chainer_mkldnn import _kernels

TOL = dict(atol=1e-4, rtol=1e-4)


def _x(rng, *shape):
    return rng.uniform(-1, 1, shape).astype(numpy.float32)


def _run(name, *args):
    with chainer_core.using_config('use_ideep', 'always'):
        return _kernels.KERNELS[name](*args)


def _ref(name, *args):
    return registry.get_spec(name).reference(
        numpy, *[numpy.asarray(a) if isinstance(a, numpy.ndarray) else a
                 for a in args])


def _conv_calls(rng, device, n, c, o, size):
    """(name, args) of a convolution's forward, input and filter gradients,
    large enough for oneDNN's blocked layouts (channels of 16)."""
    x = device.send(_x(rng, n, c, size, size))
    W = device.send(_x(rng, o, c, 3, 3))
    gy = device.send(_x(rng, n, o, size, size))
    p = ((1, 1), (1, 1), (1, 1), 1)
    return [
        ('convolution_2d', (x, W, None) + p + (False,)),
        ('deconvolution_2d', (gy, W, None) + p + ((size, size),)),
        ('convolution_2d_grad_w', (x, gy, (3, 3)) + p),
    ]


def test_results_are_fresh_arrays(device, rng):
    calls = _conv_calls(rng, device, 2, 16, 32, 10)
    first = [_run(name, *args) for name, args in calls]
    kept = [numpy.array(r) for r in first]
    second = [_run(name, *args) for name, args in calls]
    for a, b, k in zip(first, second, kept):
        assert not numpy.shares_memory(a, b)
        numpy.testing.assert_array_equal(a, k)   # not overwritten later
        numpy.testing.assert_array_equal(a, b)


def test_shapes_growing_and_shrinking(device, rng):
    # The per-thread buffers grow to the largest call and are then reused,
    # partly, by smaller ones: every result still matches the reference.
    sizes = [(2, 16, 16, 8), (4, 32, 64, 20), (1, 16, 32, 6),
             (4, 32, 64, 20), (2, 16, 16, 8)]
    for n, c, o, size in sizes:
        for name, args in _conv_calls(rng, device, n, c, o, size):
            numpy.testing.assert_allclose(
                _run(name, *args), _ref(name, *args), **TOL)


def test_cache_clear_frees_and_calls_go_on(device, rng):
    calls = _conv_calls(rng, device, 2, 16, 32, 12)
    expected = [_ref(name, *args) for name, args in calls]
    for _ in range(2):
        for (name, args), e in zip(calls, expected):
            numpy.testing.assert_allclose(_run(name, *args), e, **TOL)
        chainer_mkldnn.cache_clear()


def test_threads_with_different_shapes(device, rng):
    # Each thread has its own buffers: threads running convolutions of
    # different sizes at once (the GIL is released) never mix them.
    work = [_conv_calls(rng, device, n, c, o, size) for n, c, o, size in
            [(2, 16, 32, 14), (3, 32, 16, 9), (1, 16, 64, 17),
             (2, 32, 32, 11)]]
    expected = [[_ref(name, *args) for name, args in calls]
                for calls in work]
    errors = []

    def body(calls, exp):
        try:
            for _ in range(10):
                for (name, args), e in zip(calls, exp):
                    numpy.testing.assert_allclose(_run(name, *args), e, **TOL)
        except Exception as e:  # reported in the main thread
            errors.append(e)

    threads = [threading.Thread(target=body, args=(c, e))
               for c, e in zip(work, expected)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors


@pytest.mark.parametrize('ksize', [(3, 3), (16, 17)], ids=['u8', 's32'])
def test_max_pooling_workspace(device, rng, ksize):
    # oneDNN's max pooling workspace is uint8 for small windows (widened into
    # indexes) and int32 for windows of 256 taps and more (indexes itself).
    x = _x(rng, 2, 16, 40, 41)
    args = (ksize, (2, 3), (1, 2), False)
    y, indexes = _run('max_pooling_2d', device.send(x), *args)
    ry, rindexes = _ref('max_pooling_2d', x, *args)
    numpy.testing.assert_array_equal(y, ry)
    numpy.testing.assert_array_equal(indexes, rindexes)
    gy = _x(rng, *ry.shape)
    gargs = (x.shape[2:],) + args[:3]
    gx = _run('max_pooling_2d_grad', device.send(gy), indexes, *gargs)
    numpy.testing.assert_allclose(
        gx, _ref('max_pooling_2d_grad', gy, rindexes, *gargs), **TOL)
