"""Raw ndarray edge cases give NumPy's answer or a clear error: sizes that
overflow int64, operands overlapping the target of an in-place update,
NaN and infinity through relu and softmax."""
import numpy
import pytest

import chainer_native as cn


BIG = (2 ** 32, 2 ** 32)


@pytest.mark.parametrize('shape', [BIG, BIG + (4,), (-1,) + BIG,
                                   (2 ** 62, 4)])
def test_reshape_to_an_overflowing_size_is_refused(shape):
    x = cn.asarray(numpy.ones(4, numpy.float32))
    with pytest.raises(ValueError):
        numpy.ones(4).reshape(shape)
    with pytest.raises(ValueError):
        cn.reshape(x, shape)
    with pytest.raises(ValueError):
        x.reshape(shape)


@pytest.mark.parametrize('shape', [BIG, BIG + (0,), (2, -3)])
def test_broadcast_to_an_overflowing_or_negative_shape_is_refused(shape):
    with pytest.raises(ValueError):
        numpy.broadcast_to(numpy.ones(1), shape)
    with pytest.raises(ValueError):
        cn.broadcast_to(cn.asarray(numpy.ones(1, numpy.float32)), shape)


def test_reshape_of_a_valid_size_still_works():
    x = cn.asarray(numpy.arange(6, dtype=numpy.float32))
    numpy.testing.assert_array_equal(
        numpy.asarray(cn.reshape(x, (0 + 2, -1))),
        numpy.arange(6).reshape(2, 3))
    e = cn.asarray(numpy.zeros((0, 3), numpy.float32))
    assert cn.reshape(e, (3, 0, 5)).shape == (3, 0, 5)


@pytest.mark.parametrize('target, source', [
    (slice(1, None), slice(None, -1)),
    (slice(None, -1), slice(1, None)),
    (slice(None, None, 2), slice(None, 3)),
    (slice(None), slice(None, None, -1)),
])
@pytest.mark.parametrize('op', ['iadd', 'isub', 'imul', 'itruediv'])
def test_in_place_update_with_an_overlapping_operand(target, source, op):
    e = numpy.arange(1, 6, dtype=numpy.float32)
    a = cn.asarray(e.copy())
    getattr(e[target], '__{}__'.format(op))(e[source])
    view = a[target]
    getattr(view, '__{}__'.format(op))(a[source])
    numpy.testing.assert_allclose(numpy.asarray(a), e)


def test_in_place_update_with_itself():
    e = numpy.arange(1, 6, dtype=numpy.float32)
    a = cn.asarray(e.copy())
    a += a
    numpy.testing.assert_allclose(numpy.asarray(a), e + e)


@pytest.mark.parametrize('ksize, pad', [
    (2 ** 33, 2 ** 33), (2, 2 ** 33), (2 ** 33, 0),
    ((2 ** 32, 1), (2 ** 32, 0)), (2, 2 ** 62)])
def test_max_pool_with_a_huge_window_or_padding_is_refused(ksize, pad):
    def pair(v):
        return v if isinstance(v, tuple) else (v, v)

    x = cn.asarray(numpy.ones((1, 1, 4, 4), numpy.float32))
    with pytest.raises((ValueError, MemoryError)):
        cn.max_pool(x, pair(ksize), pair(ksize), pair(pad), False)


def test_relu_propagates_nan():
    e = numpy.array([numpy.nan, -1, 0, 2, -numpy.inf, numpy.inf], 'f')
    y = numpy.asarray(cn.relu(cn.asarray(e)))
    numpy.testing.assert_array_equal(y, numpy.maximum(e, 0))


@pytest.mark.parametrize('row', [
    [numpy.inf, 1.0, 2.0], [-numpy.inf, -numpy.inf, -numpy.inf],
    [numpy.nan, 1.0, 2.0], [-numpy.inf, 1.0, 2.0], [1e30, 1.0, -1e30]])
def test_softmax_of_non_finite_rows_matches_the_reference(row):
    x = numpy.array([row, [1.0, 2.0, 3.0]], numpy.float32)
    with numpy.errstate(all='ignore'):
        z = x - x.max(axis=1, keepdims=True)
        e = numpy.exp(z)
        softmax = e / e.sum(axis=1, keepdims=True)
        log_softmax = x - (x.max(axis=1, keepdims=True)
                           + numpy.log(e.sum(axis=1, keepdims=True)))
    numpy.testing.assert_allclose(
        numpy.asarray(cn.softmax(cn.asarray(x), 1)), softmax, rtol=1e-6)
    numpy.testing.assert_allclose(
        numpy.asarray(cn.log_softmax(cn.asarray(x), 1)), log_softmax,
        rtol=1e-6)
