"""The buffer protocol of chainer_native.ndarray: memoryview, numpy.frombuffer
and friends see the array's memory in place, strided views included."""
import gc

import numpy
import pytest

import chainer_native as cn

DTYPES = [numpy.bool_, numpy.int8, numpy.int16, numpy.int32, numpy.int64,
          numpy.uint8, numpy.float16, numpy.float32, numpy.float64]
FORMATS = {numpy.bool_: '?', numpy.int8: 'b', numpy.int16: 'h',
           numpy.int32: 'i', numpy.int64: numpy.dtype(numpy.int64).char,
           numpy.uint8: 'B', numpy.float16: 'e', numpy.float32: 'f',
           numpy.float64: 'd'}


def _data(dtype, shape=(3, 4)):
    return (numpy.arange(numpy.prod(shape)).reshape(shape) % 5).astype(dtype)


@pytest.mark.parametrize('dtype', DTYPES)
def test_contiguous(dtype):
    a = _data(dtype)
    x = cn.array(a)
    m = memoryview(x)
    assert m.format == FORMATS[dtype]
    assert m.itemsize == a.itemsize and m.ndim == 2
    assert m.shape == a.shape and m.strides == a.strides
    assert not m.readonly and m.c_contiguous
    if dtype is not numpy.float16:           # memoryview cannot unpack 'e'
        assert m.tolist() == a.tolist()
    back = numpy.frombuffer(x, dtype=dtype)
    assert back.dtype.type is dtype          # int64 comes back as int64
    numpy.testing.assert_array_equal(back, a.ravel())
    assert bytes(x) == a.tobytes()


@pytest.mark.parametrize('dtype', [numpy.bool_, numpy.float16,
                                   numpy.int64, numpy.float64])
@pytest.mark.parametrize('view', [
    lambda x: x[:, ::2], lambda x: x.T, lambda x: x[::-1, 1:],
    lambda x: x[1], lambda x: x[1, 2]])
def test_strided_views(dtype, view):
    a = _data(dtype)
    x = cn.array(a)
    v, expected = view(x), view(a)
    m = memoryview(v)
    assert m.shape == expected.shape and m.strides == expected.strides
    via = numpy.asarray(m)
    numpy.testing.assert_array_equal(via, expected)
    assert via.__array_interface__['data'][0] == v.data_ptr   # no copy
    assert m.tobytes() == expected.tobytes()                   # C order
    if not expected.flags.c_contiguous:
        assert not m.c_contiguous
        with pytest.raises(BufferError):
            numpy.frombuffer(v, dtype=dtype)


def test_writes_go_through_and_read_only_exports_read_only():
    x = cn.zeros((2, 3))
    m = memoryview(x)
    m[1, 2] = 5.0
    assert float(x[1, 2]) == 5.0
    b = cn.broadcast_to(x[0], (4, 3))        # a read-only view
    mb = memoryview(b)
    assert mb.readonly and mb.strides == (0, 8)
    assert numpy.frombuffer(x[0], dtype=numpy.float64).flags.writeable
    ro = numpy.asarray(mb)
    assert not ro.flags.writeable
    with pytest.raises(TypeError):
        mb[0, 0] = 1.0
    frozen = numpy.ones(3)
    frozen.flags.writeable = False
    ro = numpy.frombuffer(cn.asarray(frozen), dtype=numpy.float64)
    assert not ro.flags.writeable
    assert memoryview(cn.asarray(frozen)).readonly


def test_zero_dim_and_empty():
    s = cn.asarray(numpy.float32(2.5))
    m = memoryview(s)
    assert m.shape == () and m.format == 'f' and m.tobytes() == \
        numpy.float32(2.5).tobytes()
    e = cn.zeros((0, 3))
    assert memoryview(e).shape == (0, 3) and bytes(e) == b''


def test_the_export_keeps_the_buffer_alive():
    m = memoryview(cn.asarray(numpy.arange(4.0)) * 2)
    gc.collect()
    assert m.tolist() == [0.0, 2.0, 4.0, 6.0]
    m.release()
