"""Each oneDNN kernel against the core's NumPy reference of the same name,
forward and gradient kernels, on float32 arrays of @intel64."""
import numpy
import pytest

import chainer_core
from chainer_core._runtime import kernels as registry

import chainer_mkldnn
from chainer_mkldnn import _kernels


def conv_ref(x, W, stride, pad, dilate, groups, cover_all=False):
    return registry.get_spec('convolution_2d').reference(
        numpy, x, W, None, stride, pad, dilate, groups, cover_all)


def _x(rng, *shape, low=-1.0, high=1.0):
    return rng.uniform(low, high, shape).astype(numpy.float32)


def _signed(rng, *shape):
    # Away from zero, where relu-like kernels have their kink.
    return (rng.choice((-1, 1), shape) * rng.uniform(0.1, 1, shape)).astype(
        numpy.float32)


def _cases():
    c = []

    def add(id, name, make, tol=None):
        c.append(pytest.param(name, make, tol or {}, id=id))

    conv_params = [
        ('plain', (1, 1), (1, 1), (1, 1), 1, False),
        ('stride2-pad', (2, 2), (1, 0), (1, 1), 1, False),
        ('asym-cover_all', (2, 1), (1, 2), (1, 1), 1, True),
        ('dilate-groups', (1, 2), (2, 1), (2, 1), 2, False),
    ]
    for pid, s, p, d, g, ca in conv_params:
        add('convolution_2d-' + pid, 'convolution_2d',
            lambda r, s=s, p=p, d=d, g=g, ca=ca: (
                _x(r, 2, 4, 9, 8), _x(r, 6, 4 // g, 3, 3), _x(r, 6), s, p, d,
                g, ca))
        add('convolution_2d_grad_w-' + pid, 'convolution_2d_grad_w',
            lambda r, s=s, p=p, d=d, g=g, ca=ca: _grad_w_args(
                r, (2, 4, 9, 8), (6, 4 // g, 3, 3), s, p, d, g, ca))
        add('deconvolution_2d-' + pid, 'deconvolution_2d',
            lambda r, s=s, p=p, d=d, g=g, ca=ca: _deconv_args(
                r, (2, 4, 9, 8), (6, 4 // g, 3, 3), s, p, d, g, ca))
    add('convolution_2d-1x1-stride2-odd', 'convolution_2d',
        lambda r: (_x(r, 2, 3, 7, 7), _x(r, 4, 3, 1, 1), None, (2, 2),
                   (0, 0), (1, 1), 1, False))
    add('deconvolution_2d-1x1-stride2-odd', 'deconvolution_2d',
        lambda r: _deconv_args(r, (2, 3, 7, 7), (4, 3, 1, 1), (2, 2), (0, 0),
                               (1, 1), 1, False))
    add('convolution_nd-1d', 'convolution_nd',
        lambda r: (_x(r, 2, 3, 11), _x(r, 4, 3, 3), _x(r, 4), (2,), (1,),
                   (1,), 1, False))
    add('convolution_nd-3d', 'convolution_nd',
        lambda r: (_x(r, 2, 2, 5, 4, 6), _x(r, 4, 2, 2, 3, 2), None,
                   (1, 2, 1), (1, 0, 1), (1, 1, 2), 1, False))
    add('convolution_nd_grad_w-3d', 'convolution_nd_grad_w',
        lambda r: _grad_w_args(r, (2, 2, 5, 4, 6), (4, 2, 2, 3, 2),
                               (1, 2, 1), (1, 0, 1), (1, 1, 1), 1, False))
    add('deconvolution_nd-3d', 'deconvolution_nd',
        lambda r: _deconv_args(r, (2, 2, 5, 4, 6), (4, 2, 2, 3, 2),
                               (1, 2, 1), (1, 0, 1), (1, 1, 1), 1, False))
    add('linear', 'linear', lambda r: (_x(r, 5, 7), _x(r, 3, 7), _x(r, 3)))
    add('matmul', 'matmul', lambda r: (_x(r, 5, 7), _x(r, 7, 3), False, False))
    add('matmul-transa', 'matmul',
        lambda r: (_x(r, 7, 5), _x(r, 7, 3), True, False))
    add('matmul-transb', 'matmul',
        lambda r: (_x(r, 5, 7), _x(r, 3, 7), False, True))
    add('matmul-batched-broadcast-trans', 'matmul',
        lambda r: (_x(r, 2, 1, 7, 5), _x(r, 2, 4, 3, 7), True, True))
    add('linear-nobias', 'linear', lambda r: (_x(r, 5, 7), _x(r, 3, 7), None))

    for pid, k, s, p, ca in (('2x2', (2, 2), (2, 2), (0, 0), False),
                             ('3x3-pad-cover_all', (3, 3), (2, 2), (1, 1),
                              True),
                             ('asym', (3, 2), (1, 2), (1, 0), True)):
        add('max_pooling_2d-' + pid, 'max_pooling_2d',
            lambda r, k=k, s=s, p=p, ca=ca: (_x(r, 2, 3, 9, 8), k, s, p, ca))
        add('max_pooling_2d_grad-' + pid, 'max_pooling_2d_grad',
            lambda r, k=k, s=s, p=p, ca=ca: _max_grad_args(
                r, (2, 3, 9, 8), k, s, p, ca))
        for pv in (0, None):
            add('average_pooling_2d-{}-{}'.format(pid, pv),
                'average_pooling_2d',
                lambda r, k=k, s=s, p=p, pv=pv: (_x(r, 2, 3, 9, 8), k, s, p,
                                                 pv))
            add('average_pooling_2d_grad-{}-{}'.format(pid, pv),
                'average_pooling_2d_grad',
                lambda r, k=k, s=s, p=p, pv=pv: _avg_grad_args(
                    r, (2, 3, 9, 8), k, s, p, pv))
    add('max_pooling_nd-3d', 'max_pooling_nd',
        lambda r: (_x(r, 2, 2, 6, 4, 6), (2, 2, 3), (2, 1, 2), (1, 0, 1),
                   True))
    add('max_pooling_nd_grad-3d', 'max_pooling_nd_grad',
        lambda r: _max_grad_args(r, (2, 2, 6, 4, 6), (2, 2, 3), (2, 1, 2),
                                 (1, 0, 1), True, 'max_pooling_nd'))
    add('average_pooling_nd-1d', 'average_pooling_nd',
        lambda r: (_x(r, 2, 3, 10), (3,), (2,), (1,), None))
    add('average_pooling_nd_grad-1d', 'average_pooling_nd_grad',
        lambda r: (_x(r, 2, 3, 5), (10,), (3,), (2,), (1,), 0))

    for shape in ((6, 5), (4, 3, 5, 4), (2, 3, 2, 3, 2)):
        sid = 'x'.join(map(str, shape))
        add('batch_normalization-' + sid, 'batch_normalization',
            lambda r, shape=shape: _bn_args(r, shape))
        add('batch_normalization_grad-' + sid, 'batch_normalization_grad',
            lambda r, shape=shape: _bn_grad_args(r, shape),
            {'atol': 1e-5, 'rtol': 1e-4})
        add('fixed_batch_normalization-' + sid, 'fixed_batch_normalization',
            lambda r, shape=shape: _fixed_bn_args(r, shape))
    add('local_response_normalization', 'local_response_normalization',
        lambda r: (_x(r, 2, 7, 3, 4, low=-2, high=2), 2, 2.0, 1e-1, 0.75))
    add('local_response_normalization-3d', 'local_response_normalization',
        lambda r: (_x(r, 2, 7, 5, low=-2, high=2), 1, 1.0, 0.5, 0.6))
    # oneDNN's JIT backward passes: 16 channels run in nChw16c (on
    # AVX-512), 7 channels and a window of 3 in nhwc.
    for cid, ch, half_n, k in (('16ch-defaults', 16, 2, 2.0),
                               ('7ch', 7, 2, 1.0), ('32ch-n3', 32, 1, 0.5)):
        add('local_response_normalization_grad-' + cid,
            'local_response_normalization_grad',
            lambda r, ch=ch, half_n=half_n, k=k: _lrn_grad_args(
                r, (2, ch, 3, 4), half_n, k), {'atol': 1e-5, 'rtol': 1e-4})

    shape = (3, 4, 5)
    add('relu', 'relu', lambda r: (_signed(r, *shape),))
    add('relu_grad', 'relu_grad',
        lambda r: (numpy.maximum(_signed(r, *shape), 0), _x(r, *shape)))
    add('leaky_relu', 'leaky_relu', lambda r: (_signed(r, *shape), 0.2))
    add('leaky_relu_grad', 'leaky_relu_grad',
        lambda r: (_signed(r, *shape), _x(r, *shape), 0.2))
    add('elu', 'elu', lambda r: (_signed(r, *shape), 1.3))
    add('elu_grad', 'elu_grad',
        lambda r: (_signed(r, *shape), _x(r, *shape), 1.3, 1.0))
    add('elu_grad-scaled', 'elu_grad',
        lambda r: (_signed(r, *shape), _x(r, *shape), 1.6, 1.05))
    add('tanh', 'tanh', lambda r: (_x(r, *shape, low=-3, high=3),))
    add('tanh_grad', 'tanh_grad',
        lambda r: (numpy.tanh(_x(r, *shape)), _x(r, *shape)))
    add('sigmoid', 'sigmoid', lambda r: (_x(r, *shape, low=-5, high=5),))
    add('sigmoid_grad', 'sigmoid_grad',
        lambda r: (_x(r, *shape, low=0, high=1), _x(r, *shape)))
    add('softmax', 'softmax', lambda r: (_x(r, 4, 10, low=-3, high=3), 1))
    add('softmax-axis0', 'softmax', lambda r: (_x(r, 4, 5, 3), 0))
    add('log_softmax', 'log_softmax',
        lambda r: (_x(r, 4, 10, low=-3, high=3), -1), {'atol': 1e-5})
    add('concat', 'concat',
        lambda r: ((_x(r, 2, 3, 4), _x(r, 2, 1, 4), _x(r, 2, 5, 4)), 1))
    add('concat-axis-last', 'concat',
        lambda r: ((_x(r, 2, 3), _x(r, 2, 4)), -1))
    add('add', 'add', lambda r: (_x(r, 3, 4), _x(r, 3, 4)))
    add('add-broadcast', 'add', lambda r: (_x(r, 2, 3, 4), _x(r, 1, 3, 1)))
    add('add-broadcast-first', 'add', lambda r: (_x(r, 4), _x(r, 2, 3, 4)))
    add('add-scalar', 'add', lambda r: (_x(r, 3, 4), 2.5))
    add('add-scalar-first', 'add', lambda r: (-1, _x(r, 3, 4)))
    return c


def _outsize(i, k, s, p, d, cover_all):
    dk = (k - 1) * d + 1
    return (i + 2 * p - dk + (s - 1 if cover_all else 0)) // s + 1


def _grad_w_args(r, xs, ws, s, p, d, g, ca):
    out = [_outsize(i, k, s_, p_, d_, ca)
           for i, k, s_, p_, d_ in zip(xs[2:], ws[2:], s, p, d)]
    return (_x(r, *xs), _x(r, xs[0], ws[0], *out), ws[2:], s, p, d, g)


def _deconv_args(r, xs, ws, s, p, d, g, ca):
    # The input gradient of a convolution of x: a deconvolution of gy with
    # the convolution's filters back to x's size.
    out = [_outsize(i, k, s_, p_, d_, ca)
           for i, k, s_, p_, d_ in zip(xs[2:], ws[2:], s, p, d)]
    return (_x(r, xs[0], ws[0], *out), _x(r, *ws), _x(r, ws[1] * g), s, p,
            d, g, xs[2:])


def _max_grad_args(r, xs, k, s, p, ca, name='max_pooling_2d'):
    x = _x(r, *xs)
    y, indexes = registry.get_spec(name).reference(numpy, x, k, s, p, ca)
    return (_x(r, *y.shape), indexes, xs[2:], k, s, p)


def _avg_grad_args(r, xs, k, s, p, pv):
    out = [_outsize(i, k_, s_, p_, 1, False)
           for i, k_, s_, p_ in zip(xs[2:], k, s, p)]
    return (_x(r, xs[0], xs[1], *out), xs[2:], k, s, p, pv)


def _lrn_grad_args(r, shape, half_n, k, alpha=0.1, beta=0.75):
    x = _x(r, *shape, low=-2, high=2)
    _, unit_scale = registry.get_spec('local_response_normalization') \
        .reference(numpy, x, half_n, k, alpha, beta)
    return (x, _x(r, *shape), unit_scale, half_n, k, alpha, beta)


def _cshape(shape):
    return (1, shape[1]) + (1,) * (len(shape) - 2)


def _axes(shape):
    return (0,) + tuple(range(2, len(shape)))


def _bn_args(r, shape):
    c = _cshape(shape)
    return (_x(r, *shape), _x(r, *c, low=0.5, high=1.5), _x(r, *c), _axes(
        shape), 2e-5)


def _bn_grad_args(r, shape):
    x, gamma, beta, axis, eps = _bn_args(r, shape)
    _, mean, _, inv_std = registry.get_spec('batch_normalization').reference(
        numpy, x, gamma, beta, axis, eps)
    return (x, gamma, _x(r, *shape), mean, inv_std, axis)


def _fixed_bn_args(r, shape):
    c = _cshape(shape)
    return (_x(r, *shape), _x(r, *c), _x(r, *c), _x(r, *c),
            _x(r, *c, low=0.2, high=2), 1e-3)


def _on(device, value):
    if isinstance(value, numpy.ndarray):
        return device.send(value)
    if isinstance(value, tuple) and value and isinstance(value[0],
                                                         numpy.ndarray):
        return tuple(device.send(v) for v in value)
    return value


def _as_tuple(v):
    return v if isinstance(v, tuple) else (v,)


@pytest.mark.parametrize('name, make, tol', _cases())
def test_kernel_matches_reference(name, make, tol, device, rng):
    args = make(rng)
    expected = _as_tuple(registry.get_spec(name).reference(numpy, *args))
    before = chainer_mkldnn.cache_info()['misses'] + \
        chainer_mkldnn.cache_info()['hits']
    with chainer_core.using_config('use_ideep', 'always'):
        actual = _as_tuple(_kernels.KERNELS[name](
            *[_on(device, a) for a in args]))
    after = chainer_mkldnn.cache_info()
    assert after['misses'] + after['hits'] > before, 'oneDNN was not used'
    assert len(actual) == len(expected)
    for a, e in zip(actual, expected):
        assert isinstance(a, chainer_mkldnn.mdarray)
        assert a.shape == e.shape and a.dtype == e.dtype
        if a.dtype.kind == 'i':
            numpy.testing.assert_array_equal(a, e)
        else:
            numpy.testing.assert_allclose(
                a, e, **dict({'atol': 1e-5, 'rtol': 1e-5}, **tol))


# The optimizer updates work in place and return nothing: test_updates.py.
UPDATES = {'sgd_update', 'momentum_sgd_update', 'adam_update'}


def test_every_kernel_is_tested():
    tested = {p.values[0] for p in _cases()}
    assert set(_kernels.KERNELS) == tested | UPDATES


def test_registered_for_mkldnn(device):
    for name in _kernels.KERNELS:
        impls = registry.get_spec(name).implementations
        assert impls['mkldnn'][1] == 'chainer-mkldnn'


def test_non_contiguous_inputs(device, rng):
    x = _x(rng, 2, 9, 8, 4).transpose(0, 3, 1, 2)   # (2, 4, 9, 8), strided
    W = _x(rng, 6, 4, 3, 3)
    args = (x, W, None, (1, 1), (1, 1), (1, 1), 1, False)
    expected = registry.get_spec('convolution_2d').reference(numpy, *args)
    with chainer_core.using_config('use_ideep', 'always'):
        actual = _kernels.KERNELS['convolution_2d'](
            device.send(x), device.send(W), *args[2:])
    numpy.testing.assert_allclose(actual, expected, atol=1e-5, rtol=1e-5)


def test_concurrent_threads_share_primitives(device, rng):
    # The extension releases the GIL: threads run the same cached
    # primitives at once and each gets its own result.
    import threading
    W = device.send(_x(rng, 8, 4, 3, 3))
    xs = [device.send(_x(rng, 2, 4, 12, 12)) for _ in range(4)]
    expected = [registry.get_spec('convolution_2d').reference(
        numpy, numpy.asarray(x), numpy.asarray(W), None, (1, 1), (1, 1),
        (1, 1), 1, False) for x in xs]
    results = [None] * len(xs)
    errors = []

    def work(i):
        try:
            with chainer_core.using_config('use_ideep', 'always'):
                for _ in range(20):
                    results[i] = _kernels.KERNELS['convolution_2d'](
                        xs[i], W, None, (1, 1), (1, 1), (1, 1), 1, False)
        except Exception as e:  # reported below, in the main thread
            errors.append(e)

    threads = [threading.Thread(target=work, args=(i,))
               for i in range(len(xs))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    for r, e in zip(results, expected):
        numpy.testing.assert_allclose(r, e, atol=1e-5, rtol=1e-5)
