"""get_svhn and the MAT-file reader, on level 5 MAT-files written here
byte by byte (and by SciPy where it is installed)."""
import os
import struct
import zlib

import numpy
import pytest

from chainer_core import datasets
from chainer_core.datasets import svhn
from chainer_core.datasets._matlab import load_mat

from ._sources import file_url, md5_of

_MI = {'i1': 1, 'u1': 2, 'i2': 3, 'u2': 4, 'i4': 5, 'u4': 6, 'f4': 7,
       'f8': 9, 'i8': 12, 'u8': 13}
_MX = {'f8': 6, 'f4': 7, 'i1': 8, 'u1': 9, 'i2': 10, 'u2': 11, 'i4': 12,
       'u4': 13, 'i8': 14, 'u8': 15}


def _element(kind, payload, e, small_ok=True):
    if small_ok and len(payload) <= 4:
        # The small element format: count and type share one word.
        return struct.pack(e + 'I', (len(payload) << 16) | kind) + \
            payload.ljust(4, b'\0')
    pad = (-len(payload)) % 8
    return struct.pack(e + 'II', kind, len(payload)) + payload + b'\0' * pad


def _matrix(name, array, e, stored=None, logical=False):
    """A miMATRIX element; ``stored`` is the narrower type MATLAB may use
    for the values."""
    array = numpy.asarray(array)
    complex_ = array.dtype.kind == 'c'
    real = array.real if complex_ else array
    if array.dtype.kind == 'b':
        real = array.astype('u1')
        mx = _MX['u1']
    else:
        mx = _MX[real.dtype.str[1:]]
    flags = mx | (0x800 if complex_ else 0) | (0x200 if logical or
                                               array.dtype.kind == 'b' else 0)
    code = stored or real.dtype.str[1:]
    dims = array.shape if array.ndim >= 2 else (1,) * (2 - array.ndim) + \
        array.shape
    body = (_element(6, struct.pack(e + 'II', flags, 0), e, False) +
            _element(5, struct.pack(e + '{}i'.format(len(dims)), *dims), e,
                     False) +
            _element(1, name.encode(), e))
    for part in ([real, array.imag] if complex_ else [real]):
        values = numpy.asarray(part).ravel(order='F').astype(e + code)
        body += _element(_MI[code], values.tobytes(), e)
    return _element(14, body, e, False)


def write_mat(path, variables, endian='<', compress=False):
    """``variables``: name -> array, or name -> (array, stored type)."""
    e = endian
    text = b'MATLAB 5.0 MAT-file, written by the tests'.ljust(116, b' ')
    header = text + b'\0' * 8 + struct.pack(e + 'H', 0x0100) + \
        (b'IM' if e == '<' else b'MI')
    body = b''
    for name, value in variables.items():
        stored = None
        if isinstance(value, tuple):
            value, stored = value
        element = _matrix(name, value, e, stored)
        if compress:
            packed = zlib.compress(element)
            element = struct.pack(e + 'II', 15, len(packed)) + packed
        body += element
    with open(path, 'wb') as f:
        f.write(header + body)


@pytest.mark.parametrize('endian', ['<', '>'])
@pytest.mark.parametrize('compress', [False, True])
def test_reader_on_hand_made_files(tmp_path, endian, compress):
    rng = numpy.random.RandomState(0)
    variables = {
        'a': rng.randn(3, 4),
        'ints': (numpy.arange(24, dtype=numpy.int16).reshape(2, 3, 4) - 5),
        'narrow': (numpy.array([[1., 2., 250.]]), 'u1'),
        'c': numpy.array([[1 + 2j, 3 - 4j]]),
        'flag': numpy.array([[True, False, True]]),
        'u8': numpy.arange(5, dtype=numpy.uint8).reshape(5, 1),
        'x': numpy.array([[7.5]]),
        'f': numpy.array([[1.5, -2.5]], dtype=numpy.float32),
    }
    path = str(tmp_path / 'v.mat')
    write_mat(path, variables, endian, compress)
    arrays = load_mat(path)
    assert sorted(arrays) == sorted(variables)
    for name, value in variables.items():
        expected = value[0] if isinstance(value, tuple) else value
        got = arrays[name]
        assert got.shape == expected.shape, name
        assert got.dtype == expected.dtype, name
        assert got.dtype.isnative
        numpy.testing.assert_array_equal(got, expected)


def test_reader_on_scipy_files(tmp_path):
    io = pytest.importorskip('scipy.io')
    rng = numpy.random.RandomState(1)
    variables = {'X': rng.randint(0, 256, (4, 3, 2, 5)).astype(numpy.uint8),
                 'y': rng.randint(1, 11, (5, 1)).astype(numpy.float64),
                 'i': numpy.array([[3]], dtype=numpy.int32),
                 's': 'hello',
                 'z': numpy.array([1 - 1j, 2j])}
    for compress in (False, True):
        path = str(tmp_path / 'scipy{}.mat'.format(compress))
        io.savemat(path, variables, do_compression=compress)
        arrays = load_mat(path)
        numpy.testing.assert_array_equal(arrays['X'], variables['X'])
        numpy.testing.assert_array_equal(arrays['y'], variables['y'])
        assert arrays['i'].dtype == numpy.int32 and arrays['i'][0, 0] == 3
        assert ''.join(arrays['s'].ravel()) == 'hello'
        numpy.testing.assert_array_equal(arrays['z'].ravel(), variables['z'])


def test_reader_skips_cells_and_structs(tmp_path):
    io = pytest.importorskip('scipy.io')
    path = str(tmp_path / 'mixed.mat')
    cell = numpy.empty((1, 2), dtype=object)
    cell[0, 0] = numpy.array([[1.]])
    cell[0, 1] = 'text'
    io.savemat(path, {'cell': cell, 'st': {'a': 1}, 'keep': numpy.eye(2)})
    arrays = load_mat(path)
    assert sorted(arrays) == ['keep']


def test_reader_rejects_other_files(tmp_path):
    path = str(tmp_path / 'not.mat')
    with open(path, 'wb') as f:
        f.write(b'x' * 200)
    with pytest.raises(ValueError, match='not a level 5 MAT-file'):
        load_mat(path)
    with open(path, 'wb') as f:
        f.write(b'MATLAB 7.3 MAT-file'.ljust(512, b' ') +
                b'\x89HDF\r\n\x1a\n' + b'\0' * 64)
    with pytest.raises(ValueError, match='HDF5'):
        load_mat(path)
    good = str(tmp_path / 'good.mat')
    write_mat(good, {'a': numpy.ones((3, 3))})
    with open(good, 'rb') as f:
        data = f.read()
    with open(path, 'wb') as f:
        f.write(data[:-20])
    with pytest.raises(ValueError, match='not a readable MAT-file'):
        load_mat(path)


def make_svhn(folder, sizes=(('train', 4), ('test', 3), ('extra', 2)),
              seed=0):
    rng = numpy.random.RandomState(seed)
    raw = {}
    for split, n in sizes:
        x = rng.randint(0, 256, (32, 32, 3, n)).astype(numpy.uint8)
        y = rng.randint(1, 11, (n, 1)).astype(numpy.float64)
        y[0, 0] = 10
        # As in the real files: X uint8, y double stored narrow.
        write_mat(os.path.join(folder, '{}_32x32.mat'.format(split)),
                  {'X': x, 'y': (y, 'u1')}, compress=True)
        raw[split] = x, y
    return raw


@pytest.fixture
def svhn_sources(monkeypatch, dataset_root, source_dir):
    raw = make_svhn(str(source_dir))
    monkeypatch.setattr(svhn, '_BASE_URL', file_url(str(source_dir)))
    monkeypatch.setattr(svhn, '_MD5', {
        name: md5_of(str(source_dir / name)) for name in svhn._MD5})
    return raw


def _check(dataset, raw, scale=1., dtype=numpy.float32,
           label_dtype=numpy.int32):
    x, y = raw
    assert len(dataset) == x.shape[3]
    for i in range(len(dataset)):
        image, label = dataset[i]
        assert image.shape == (3, 32, 32) and image.dtype == dtype
        # (H, W, C, N) -> (N, C, H, W)
        numpy.testing.assert_allclose(
            image, x[:, :, :, i].transpose(2, 0, 1) * scale / 255.,
            rtol=1e-6)
        assert label.dtype == label_dtype
        assert label == (0 if y[i, 0] == 10 else y[i, 0])


def test_get_svhn(svhn_sources, dataset_root):
    train, test = datasets.get_svhn()
    _check(train, svhn_sources['train'])
    _check(test, svhn_sources['test'])
    assert train[0][1] == 0
    directory = dataset_root / 'pfnet' / 'chainer' / 'svhn'
    assert sorted(os.listdir(str(directory))) == ['test.npz', 'train.npz']
    with numpy.load(str(directory / 'train.npz')) as npz:
        assert npz['x'].dtype == numpy.uint8 and npz['x'].shape == \
            (32, 32, 3, 4)
        assert npz['y'].dtype == numpy.uint8 and npz['y'].shape == (4, 1)


def test_get_svhn_options_and_extra(svhn_sources, dataset_root):
    train, test, extra = datasets.get_svhn(
        scale=2., dtype=numpy.float64, label_dtype=numpy.int64,
        add_extra=True)
    _check(extra, svhn_sources['extra'], 2., numpy.float64, numpy.int64)
    images = datasets.get_svhn(withlabel=False)[1]
    assert isinstance(images, numpy.ndarray)
    assert images.shape == (3, 3, 32, 32)


def test_get_svhn_reads_the_cache(svhn_sources, dataset_root, source_dir):
    datasets.get_svhn()
    for name in os.listdir(str(source_dir)):
        os.remove(str(source_dir / name))
    for name in os.listdir(str(dataset_root / '_dl_cache')):
        if (dataset_root / '_dl_cache' / name).is_file():
            os.remove(str(dataset_root / '_dl_cache' / name))
    train, _ = datasets.get_svhn()
    _check(train, svhn_sources['train'])


def test_get_svhn_without_the_variables(monkeypatch, dataset_root,
                                        source_dir):
    for split in ('train', 'test'):
        write_mat(str(source_dir / '{}_32x32.mat'.format(split)),
                  {'images': numpy.zeros((2, 2))})
    monkeypatch.setattr(svhn, '_BASE_URL', file_url(str(source_dir)))
    monkeypatch.setattr(svhn, '_MD5', {
        name: None for name in svhn._MD5})
    with pytest.raises(ValueError, match='no variable X, y'):
        datasets.get_svhn()


def test_get_svhn_offline(monkeypatch, dataset_root):
    monkeypatch.setattr(svhn, '_BASE_URL', 'http://127.0.0.1:9/')
    with pytest.raises(OSError, match='train_32x32.mat'):
        datasets.get_svhn()


def test_official_sources():
    assert svhn._BASE_URL == 'http://ufldl.stanford.edu/housenumbers/'
    assert svhn._MD5['train_32x32.mat'] == 'e26dedcc434d2e4c54c9b2d4a06d8373'
