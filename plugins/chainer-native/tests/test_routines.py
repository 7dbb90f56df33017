"""Every routine of chainer_native against NumPy."""
import numpy
import pytest

import chainer_native as cn

A = numpy.random.RandomState(1).uniform(0.2, 1.0, (3, 4))
B = numpy.random.RandomState(2).uniform(-1.0, 1.0, (3, 4))
I = numpy.arange(12).reshape(3, 4) - 5


def close(got, expected, **kw):
    got = numpy.asarray(got)
    expected = numpy.asarray(expected)
    assert got.shape == expected.shape
    assert got.dtype == expected.dtype, (got.dtype, expected.dtype)
    numpy.testing.assert_allclose(got, expected, rtol=1e-6, atol=1e-12,
                                  **kw)


@pytest.mark.parametrize('name,args,kwargs', [
    ('zeros', ((2, 3),), {}), ('ones', ((2,),), {'dtype': numpy.int32}),
    ('full', ((2, 2), 1.5), {}), ('full', ((3,), 7), {}),
    ('arange', (5,), {}), ('arange', (1, 7, 2), {}),
    ('arange', (0.0, 1.0, 0.25), {}),
    ('linspace', (0, 1, 5), {}), ('linspace', (0, 1, 4), {'endpoint': False}),
    ('eye', (3,), {}), ('eye', (3, 4), {'k': 1}), ('identity', (2,), {}),
])
def test_creation(name, args, kwargs):
    close(getattr(cn, name)(*args, **kwargs),
          getattr(numpy, name)(*args, **kwargs))


def test_like_routines():
    for name in ('zeros_like', 'ones_like'):
        close(getattr(cn, name)(cn.asarray(A)), getattr(numpy, name)(A))
    close(cn.full_like(cn.asarray(I), 3), numpy.full_like(I, 3))
    assert cn.empty_like(cn.asarray(A)).shape == A.shape
    assert cn.empty((2, 3), dtype=numpy.float32).dtype == numpy.float32
    x = cn.array(A)
    assert not numpy.shares_memory(numpy.asarray(x), A)
    close(x, A)
    close(cn.copy(cn.asarray(A)), A)


BINARY = ['add', 'subtract', 'multiply', 'divide', 'power', 'maximum',
          'minimum', 'floor_divide', 'remainder']


@pytest.mark.parametrize('name', BINARY)
def test_binary(name):
    close(getattr(cn, name)(cn.asarray(A), cn.asarray(B)),
          getattr(numpy, name)(A, B))
    close(getattr(cn, name)(cn.asarray(A), cn.asarray(B[0])),
          getattr(numpy, name)(A, B[0]))
    if name not in ('power', 'divide'):
        with numpy.errstate(all='ignore'):
            close(getattr(cn, name)(cn.asarray(I), cn.asarray(I.T[:1, :3].T)),
                  getattr(numpy, name)(I, I.T[:1, :3].T))


def test_integer_division_by_zero_does_not_crash():
    x = cn.asarray(numpy.array([1, -7, 0], numpy.int32))
    z = cn.zeros((3,), dtype=numpy.int32)
    assert numpy.asarray(x // z).tolist() == [0, 0, 0]
    assert numpy.asarray(x % z).tolist() == [0, 0, 0]


@pytest.mark.parametrize('name', [
    'negative', 'absolute', 'sign', 'square', 'sqrt', 'exp', 'log', 'log2',
    'log10', 'log1p', 'expm1', 'sin', 'cos', 'tan', 'tanh', 'reciprocal',
    'floor', 'ceil', 'arcsin', 'arccos', 'arctan', 'sinh', 'cosh'])
def test_unary(name):
    for dtype in (numpy.float32, numpy.float64):
        a = A.astype(dtype)
        close(getattr(cn, name)(cn.asarray(a)), getattr(numpy, name)(a),
              )


def test_nn_elementwise():
    close(cn.sigmoid(cn.asarray(B)), 1 / (1 + numpy.exp(-B)))
    close(cn.relu(cn.asarray(B)), numpy.maximum(B, 0))
    close(cn.rsqrt(cn.asarray(A)), 1 / numpy.sqrt(A))


@pytest.mark.parametrize('name', ['equal', 'not_equal', 'less', 'less_equal',
                                  'greater', 'greater_equal', 'logical_and',
                                  'logical_or', 'logical_xor'])
def test_compare(name):
    close(getattr(cn, name)(cn.asarray(I), cn.asarray(I[::-1])),
          getattr(numpy, name)(I, I[::-1]))
    close(getattr(cn, name)(cn.asarray(B), 0.0), getattr(numpy, name)(B, 0.0))


def test_predicates_and_where():
    a = numpy.array([1.0, numpy.nan, numpy.inf, -numpy.inf])
    for name in ('isnan', 'isinf', 'isfinite'):
        close(getattr(cn, name)(cn.asarray(a)), getattr(numpy, name)(a))
    close(cn.logical_not(cn.asarray(I > 0)), numpy.logical_not(I > 0))
    close(cn.where(cn.asarray(B > 0), cn.asarray(A), cn.asarray(B)),
          numpy.where(B > 0, A, B))
    close(cn.where(cn.asarray(B > 0), cn.asarray(A), 0.0),
          numpy.where(B > 0, A, 0.0))
    close(cn.clip(cn.asarray(B), -0.5, 0.5), numpy.clip(B, -0.5, 0.5))


@pytest.mark.parametrize('axis', [None, 0, 1, (0, 1), -1])
@pytest.mark.parametrize('keepdims', [False, True])
@pytest.mark.parametrize('name', ['sum', 'mean', 'max', 'min', 'prod', 'var',
                                  'std', 'all', 'any'])
def test_reductions(name, axis, keepdims):
    for a in (B, B.T, B[:, ::2]):
        close(getattr(cn, name)(cn.asarray(a), axis=axis, keepdims=keepdims),
              getattr(numpy, name)(a, axis=axis, keepdims=keepdims))
    if name in ('sum', 'max', 'min', 'prod', 'all', 'any'):
        close(getattr(cn, name)(cn.asarray(I), axis=axis, keepdims=keepdims),
              getattr(numpy, name)(I, axis=axis, keepdims=keepdims))


def test_reduction_of_float32_is_accurate():
    a = numpy.random.RandomState(0).uniform(size=100000).astype(numpy.float32)
    assert abs(float(cn.sum(cn.asarray(a))) - a.astype(numpy.float64).sum()) \
        < 1e-2


def test_var_ddof_and_logsumexp():
    close(cn.var(cn.asarray(B), axis=1, ddof=1), numpy.var(B, axis=1, ddof=1))
    m = B.max(axis=1, keepdims=True)
    ref = numpy.log(numpy.exp(B - m).sum(axis=1)) + m[:, 0]
    close(cn.logsumexp(cn.asarray(B), axis=1), ref)


@pytest.mark.parametrize('axis', [None, 0, 1])
def test_argmax_argmin(axis):
    b = numpy.array([[1, 3, 3], [2, 2, 0]], numpy.float32)
    close(cn.argmax(cn.asarray(b), axis=axis), numpy.argmax(b, axis=axis))
    close(cn.argmin(cn.asarray(b), axis=axis), numpy.argmin(b, axis=axis))


@pytest.mark.parametrize('sa,sb', [((3, 4), (4, 5)), ((4,), (4, 2)),
                                   ((3, 4), (4,)), ((4,), (4,)),
                                   ((2, 3, 4), (4, 5)), ((2, 3, 4), (2, 4, 5)),
                                   ((1, 3, 4), (5, 4, 2))])
@pytest.mark.parametrize('dtype', [numpy.float32, numpy.float64, numpy.int32,
                                   numpy.float16])
def test_matmul(sa, sb, dtype):
    rng = numpy.random.RandomState(3)
    a = rng.uniform(-1, 1, sa).astype(dtype) if dtype != numpy.int32 else \
        rng.randint(-3, 3, sa).astype(dtype)
    b = rng.uniform(-1, 1, sb).astype(dtype) if dtype != numpy.int32 else \
        rng.randint(-3, 3, sb).astype(dtype)
    got = numpy.asarray(cn.matmul(cn.asarray(a), cn.asarray(b)))
    ref = numpy.matmul(a, b)
    assert got.dtype == ref.dtype and got.shape == ref.shape
    numpy.testing.assert_allclose(got.astype(numpy.float64), ref,
                                  rtol=2e-3 if dtype == numpy.float16 else 1e-5,
                                  atol=1e-2 if dtype == numpy.float16 else 1e-6)


def test_matmul_of_transposed_views_and_dot():
    a, b = B, A.T
    close(cn.asarray(a) @ cn.asarray(b), a @ b)
    close(cn.asarray(a).T @ cn.asarray(a), a.T @ a)
    close(cn.dot(cn.asarray(a), cn.asarray(b)), numpy.dot(a, b))
    c = numpy.arange(24.0).reshape(2, 3, 4)
    d = numpy.arange(40.0).reshape(5, 4, 2)
    close(cn.dot(cn.asarray(c), cn.asarray(d)), numpy.dot(c, d))


def test_manipulation():
    c = numpy.arange(24.0).reshape(2, 3, 4)
    x = cn.asarray(c)
    close(cn.reshape(x, (4, -1)), c.reshape(4, -1))
    close(cn.reshape(x.T, (4, 6)), c.T.reshape(4, 6))
    close(cn.transpose(x, (1, 2, 0)), c.transpose(1, 2, 0))
    close(cn.swapaxes(x, 0, 2), c.swapaxes(0, 2))
    close(cn.moveaxis(x, 0, -1), numpy.moveaxis(c, 0, -1))
    close(cn.squeeze(cn.asarray(c[:, :1])), numpy.squeeze(c[:, :1]))
    close(cn.expand_dims(x, 1), numpy.expand_dims(c, 1))
    close(cn.ravel(x.T), c.T.ravel())
    close(x.flatten(), c.flatten())
    close(cn.broadcast_to(cn.asarray(c[0, 0]), (3, 4)),
          numpy.broadcast_to(c[0, 0], (3, 4)))
    close(cn.concatenate([x, x * 2], axis=1),
          numpy.concatenate([c, c * 2], axis=1))
    close(cn.concatenate([x, x], axis=None), numpy.concatenate([c, c], None))
    close(cn.stack([x, x], axis=-1), numpy.stack([c, c], axis=-1))
    for got, ref in zip(cn.split(x, 3, axis=1), numpy.split(c, 3, axis=1)):
        close(got, ref)
    for got, ref in zip(cn.split(x, [1, 3], axis=2),
                        numpy.split(c, [1, 3], axis=2)):
        close(got, ref)
    close(cn.take(x, cn.asarray(numpy.array([2, 0, 2])), axis=1),
          numpy.take(c, [2, 0, 2], axis=1))
    close(cn.take(x, cn.asarray(numpy.array([5, 23])), axis=None),
          numpy.take(c, [5, 23]))


@pytest.mark.parametrize('index', [
    1, -1, (0, 2), slice(None, None, -1), (Ellipsis, 1), (None, 0, None),
    (slice(1, None), slice(None, 3, 2)),
    numpy.array([1, 0, 1]), (numpy.array([0, 1]), numpy.array([2, 1])),
    (slice(None), numpy.array([[0, 1], [2, 2]])),
    (numpy.array([0, 1]), slice(None), numpy.array([1, 0])),
    numpy.array([True, False]), (slice(None), numpy.array([1, 2]), 0),
    numpy.arange(24).reshape(2, 3, 4) % 2 == 0,
])
def test_getitem(index):
    c = numpy.arange(24.0).reshape(2, 3, 4)
    close(cn.asarray(c)[index], c[index])


def test_setitem():
    c = numpy.arange(24.0).reshape(2, 3, 4)
    x = cn.array(c)
    x[0, 1:] = 7
    x[1, numpy.array([0, 2])] = cn.asarray(numpy.ones(4))
    x[x > 20] = 0
    c[0, 1:] = 7
    c[1, numpy.array([0, 2])] = 1
    c[c > 20] = 0
    close(x, c)


def test_index_out_of_range_raises_index_error():
    x = cn.asarray(numpy.arange(6).reshape(2, 3))
    with pytest.raises(IndexError):
        x[2]
    with pytest.raises(IndexError):
        x[:, numpy.array([0, 3])]
    with pytest.raises(IndexError):
        x[0, 0, 0]
    with pytest.raises(IndexError):
        cn.take(x, cn.asarray(numpy.array([6])))


def test_numpy_functions_without_a_native_routine_run_on_views():
    x = cn.asarray(numpy.array([3, 1, 2]))
    y = cn.argsort(x)
    assert type(y) is cn.ndarray
    numpy.testing.assert_array_equal(numpy.asarray(y), [1, 2, 0])
    z = cn.bincount(x, minlength=5)
    numpy.testing.assert_array_equal(numpy.asarray(z), [0, 1, 1, 1, 0])
