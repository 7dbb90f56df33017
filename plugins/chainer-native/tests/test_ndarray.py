"""ndarray semantics against NumPy: dtypes, promotion, broadcasting, views,
strides, interop both ways, DLPack."""
import itertools

import numpy
import pytest

import chainer_native as cn

DTYPES = [numpy.bool_, numpy.int8, numpy.int16, numpy.int32, numpy.int64,
          numpy.uint8, numpy.float16, numpy.float32, numpy.float64]


def sample(dtype, shape=(2, 3)):
    a = numpy.arange(1, numpy.prod(shape) + 1).reshape(shape) % 5
    return a.astype(dtype)


@pytest.mark.parametrize('dtype', DTYPES)
def test_roundtrip_shares_memory(dtype):
    a = sample(dtype)
    x = cn.asarray(a)
    assert x.dtype == a.dtype and x.shape == a.shape and x.strides == a.strides
    back = numpy.asarray(x)
    assert numpy.shares_memory(back, a)
    numpy.testing.assert_array_equal(back, a)


def test_writes_are_visible_both_ways():
    a = numpy.zeros((2, 3), numpy.float32)
    x = cn.asarray(a)
    x[0, 1] = 5
    assert a[0, 1] == 5
    a[1, 2] = 7
    assert float(x[1, 2]) == 7


def test_buffer_outlives_the_numpy_array():
    x = cn.asarray(numpy.arange(4.0))
    import gc
    gc.collect()
    numpy.testing.assert_array_equal(numpy.asarray(x), [0, 1, 2, 3])


@pytest.mark.parametrize('a,b', list(itertools.product(DTYPES, DTYPES)))
def test_promotion_matches_numpy(a, b):
    x, y = sample(a), sample(b)
    if a is numpy.bool_ and b is numpy.bool_:
        expected = (x * y).dtype
        assert (cn.asarray(x) * cn.asarray(y)).dtype == expected
        return
    assert (cn.asarray(x) + cn.asarray(y)).dtype == (x + y).dtype
    with numpy.errstate(all="ignore"):
        assert (cn.asarray(x) / cn.asarray(y)).dtype == (x / y).dtype


@pytest.mark.parametrize('dtype', DTYPES)
@pytest.mark.parametrize('scalar', [2, 2.5, True])
def test_python_scalars_are_weak(dtype, scalar):
    x = sample(dtype)
    if dtype is numpy.bool_ and scalar is True:
        return
    assert (cn.asarray(x) * scalar).dtype == (x * scalar).dtype


@pytest.mark.parametrize('dtype', DTYPES)
def test_astype_every_pair(dtype):
    a = sample(numpy.float64)
    for to in DTYPES:
        got = numpy.asarray(cn.asarray(a.astype(dtype)).astype(to))
        numpy.testing.assert_array_equal(got, a.astype(dtype).astype(to))


def test_float16_storage_and_rounding():
    a = numpy.array([0.1, 65504, 1e-7, -2.5, numpy.inf, 6e-5], numpy.float64)
    got = numpy.asarray(cn.asarray(a).astype(numpy.float16))
    numpy.testing.assert_array_equal(got, a.astype(numpy.float16))
    x = cn.asarray(a.astype(numpy.float16))
    numpy.testing.assert_array_equal(numpy.asarray(x.astype(numpy.float32)),
                                     a.astype(numpy.float16).astype(
                                         numpy.float32))


def test_broadcasting():
    a = numpy.arange(6.0).reshape(2, 1, 3)
    b = numpy.arange(4.0).reshape(4, 1)
    numpy.testing.assert_array_equal(
        numpy.asarray(cn.asarray(a) - cn.asarray(b)), a - b)
    with pytest.raises(ValueError, match='broadcast'):
        cn.asarray(numpy.ones((2, 3))) + cn.asarray(numpy.ones((4,)))


def test_views_share_the_buffer():
    a = numpy.arange(24.0).reshape(2, 3, 4)
    x = cn.asarray(a)
    for view, ref in [(x.reshape(6, 4), a.reshape(6, 4)),
                      (x.transpose(2, 0, 1), a.transpose(2, 0, 1)),
                      (x[:, 1:, ::2], a[:, 1:, ::2]),
                      (x[..., ::-1], a[..., ::-1]),
                      (x[None, 1], a[None, 1]),
                      (cn.broadcast_to(x[:1], (5, 3, 4)),
                       numpy.broadcast_to(a[:1], (5, 3, 4)))]:
        got = numpy.asarray(view)
        assert numpy.shares_memory(got, a)
        assert view.strides == ref.strides
        numpy.testing.assert_array_equal(got, ref)


def test_offset_and_strides():
    x = cn.asarray(numpy.arange(12.0).reshape(3, 4))
    v = x[1:, 2:]
    assert v.offset == 6 * 8
    assert v.strides == (32, 8)
    assert not v.is_contiguous
    assert x.is_contiguous


def test_broadcast_view_is_read_only():
    x = cn.broadcast_to(cn.asarray(numpy.ones(3)), (2, 3))
    assert not x.writeable
    with pytest.raises(ValueError, match='read-only'):
        x += 1
    assert not numpy.asarray(x).flags.writeable


def test_read_only_numpy_input_stays_read_only():
    a = numpy.ones(3)
    a.flags.writeable = False
    x = cn.asarray(a)
    with pytest.raises(ValueError, match='read-only'):
        x[0] = 2


def test_non_contiguous_and_non_native_inputs():
    a = numpy.arange(10.0)[::3]
    numpy.testing.assert_array_equal(numpy.asarray(cn.asarray(a)), a)
    b = numpy.arange(4, dtype='>f4')
    numpy.testing.assert_array_equal(numpy.asarray(cn.asarray(b)), b)


@pytest.mark.parametrize('dtype', DTYPES)
def test_dlpack_export(dtype):
    a = sample(dtype, (3, 4))[:, ::2]
    x = cn.asarray(a)
    y = numpy.from_dlpack(x)
    assert numpy.shares_memory(y, a)
    numpy.testing.assert_array_equal(y, a)
    assert x.__dlpack_device__() == (1, 0)


@pytest.mark.parametrize('dtype', DTYPES)
def test_dlpack_import(dtype):
    a = sample(dtype, (3, 4))
    x = cn.from_dlpack(a)
    assert x.dtype == a.dtype
    numpy.testing.assert_array_equal(numpy.asarray(x), a)
    assert numpy.shares_memory(numpy.asarray(x), a)


def test_dlpack_legacy_capsule():
    x = cn.asarray(numpy.arange(5.0))
    cap = x.__dlpack__()
    y = cn.from_dlpack(cap)
    numpy.testing.assert_array_equal(numpy.asarray(y), numpy.arange(5.0))


def test_dlpack_keeps_the_buffer_alive():
    x = cn.arange(6, dtype=numpy.float32)
    y = numpy.from_dlpack(x)
    del x
    numpy.testing.assert_array_equal(y, numpy.arange(6, dtype=numpy.float32))


def test_python_protocols():
    x = cn.asarray(numpy.arange(6).reshape(2, 3))
    assert len(x) == 2
    assert [list(map(int, numpy.asarray(r))) for r in x] == [[0, 1, 2],
                                                            [3, 4, 5]]
    assert int(x[1, 2]) == 5
    assert float(x[0, 1]) == 1.0
    assert x[1, 1].item() == 4 and isinstance(x[1, 1].item(), int)
    assert x.tolist() == [[0, 1, 2], [3, 4, 5]]
    assert 'ndarray' in repr(x)
    with pytest.raises(ValueError, match='ambiguous'):
        bool(x)
    with pytest.raises(TypeError):
        len(cn.asarray(numpy.float32(1)))


def test_numpy_operands_defer_to_ndarray():
    x = cn.asarray(numpy.ones(3, numpy.float32))
    r = numpy.ones(3, numpy.float32) + x
    assert type(r) is cn.ndarray
    r = x + numpy.ones(3, numpy.float32)
    assert type(r) is cn.ndarray


def test_inplace_operators():
    a = numpy.arange(4.0)
    x = cn.asarray(a)
    x += 1
    x *= 2
    x -= cn.asarray(numpy.ones(4))
    x /= 2
    numpy.testing.assert_allclose(a, ((numpy.arange(4.0) + 1) * 2 - 1) / 2)
    with pytest.raises(TypeError):
        y = cn.asarray(numpy.arange(3))
        y += 1.5
