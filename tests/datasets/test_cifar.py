"""get_cifar10 and get_cifar100 on small archives laid out as the official
python-version tarballs, whose batches Python 2 pickled."""
import io
import os
import pickle
import struct
import tarfile

import numpy
import pytest

from chainer_core import datasets
from chainer_core.datasets import cifar

from ._sources import file_url, md5_of


def _int(v):
    if 0 <= v < 256:
        return pickle.BININT1 + bytes([v])
    if 0 <= v < 65536:
        return pickle.BININT2 + struct.pack('<H', v)
    return pickle.BININT + struct.pack('<i', v)


def _string(b):
    # A Python 2 str: bytes that Python 3 reads back with an encoding.
    if len(b) < 256:
        return pickle.SHORT_BINSTRING + bytes([len(b)]) + b
    return pickle.BINSTRING + struct.pack('<i', len(b)) + b


def _uint8_array(a):
    """The opcodes Python 2 with NumPy 1 writes for a uint8 array."""
    dtype = (pickle.GLOBAL + b'numpy\ndtype\n' + _string(b'u1') + _int(0) +
             _int(1) + pickle.TUPLE3 + pickle.REDUCE +
             pickle.MARK + _int(3) + _string(b'|') + pickle.NONE +
             pickle.NONE + pickle.NONE + _int(-1) + _int(-1) + _int(0) +
             pickle.TUPLE + pickle.BUILD)
    shape = pickle.MARK + b''.join(_int(d) for d in a.shape) + pickle.TUPLE
    return (pickle.GLOBAL + b'numpy.core.multiarray\n_reconstruct\n' +
            pickle.GLOBAL + b'numpy\nndarray\n' + _int(0) + pickle.TUPLE1 +
            _string(b'b') + pickle.TUPLE3 + pickle.REDUCE +
            pickle.MARK + _int(1) + shape + dtype + pickle.NEWFALSE +
            _string(a.astype(numpy.uint8).tobytes()) + pickle.TUPLE +
            pickle.BUILD)


def _value(v):
    if isinstance(v, numpy.ndarray):
        return _uint8_array(v)
    if isinstance(v, list):
        return (pickle.EMPTY_LIST + pickle.MARK +
                b''.join(_value(x) for x in v) + pickle.APPENDS)
    if isinstance(v, bytes):
        return _string(v)
    return _int(v)


def py2_pickle(batch):
    """A dict of str keys pickled as Python 2's cPickle (protocol 2)."""
    items = b''.join(_string(k.encode()) + _value(v)
                     for k, v in batch.items())
    return (pickle.PROTO + b'\x02' + pickle.EMPTY_DICT + pickle.MARK + items +
            pickle.SETITEMS + pickle.STOP)


def test_the_python2_pickles_made_here_are_valid():
    a = numpy.arange(6, dtype=numpy.uint8).reshape(2, 3)
    loaded = pickle.loads(py2_pickle({'data': a, 'labels': [1, 300],
                                      'batch_label': b'x'}),
                          encoding='latin1')
    numpy.testing.assert_array_equal(loaded['data'], a)
    assert loaded['labels'] == [1, 300] and loaded['batch_label'] == 'x'


def _add(archive, name, data):
    info = tarfile.TarInfo(name)
    info.size = len(data)
    archive.addfile(info, io.BytesIO(data))


def make_cifar10(folder, sizes=(2, 3, 1, 2, 2), n_test=3, seed=0,
                 member_bytes=None):
    rng = numpy.random.RandomState(seed)
    batches = []
    path = os.path.join(folder, 'cifar-10-python.tar.gz')
    with tarfile.open(path, 'w:gz') as archive:
        _add(archive, 'cifar-10-batches-py/batches.meta',
             py2_pickle({'label_names': [b'airplane'] * 10}))
        names = ['data_batch_{}'.format(i) for i in range(1, 6)]
        for name, n in zip(names + ['test_batch'], list(sizes) + [n_test]):
            x = rng.randint(0, 256, size=(n, 3072)).astype(numpy.uint8)
            y = [int(v) for v in rng.randint(0, 10, size=n)]
            batches.append((x, y))
            data = py2_pickle({'batch_label': name.encode(), 'labels': y,
                               'data': x, 'filenames': [b'f.png'] * n})
            if member_bytes is not None and name in member_bytes:
                data = member_bytes[name]
            _add(archive, 'cifar-10-batches-py/' + name, data)
    train_x = numpy.concatenate([x for x, _ in batches[:5]])
    train_y = numpy.concatenate([y for _, y in batches[:5]])
    return path, (train_x, train_y), batches[5]


def make_cifar100(folder, n_train=4, n_test=2, seed=1, pickler=py2_pickle):
    rng = numpy.random.RandomState(seed)
    parts = []
    path = os.path.join(folder, 'cifar-100-python.tar.gz')
    with tarfile.open(path, 'w:gz') as archive:
        for name, n in (('train', n_train), ('test', n_test)):
            x = rng.randint(0, 256, size=(n, 3072)).astype(numpy.uint8)
            fine = [int(v) for v in rng.randint(0, 100, size=n)]
            coarse = [v // 5 for v in fine]
            parts.append((x, fine))
            _add(archive, 'cifar-100-python/' + name,
                 pickler({'filenames': [b'a.png'] * n, 'fine_labels': fine,
                          'coarse_labels': coarse, 'data': x}))
    return path, parts[0], parts[1]


def point_at(monkeypatch, name, path, md5=None):
    monkeypatch.setitem(cifar._URLS, name,
                        file_url(os.path.dirname(path)) +
                        os.path.basename(path))
    monkeypatch.setitem(cifar._MD5, name, md5 or md5_of(path))


def _check(dataset, x, y, ndim=3, scale=1., dtype=numpy.float32):
    assert len(dataset) == len(x)
    for i in range(len(x)):
        image, label = dataset[i]
        assert image.dtype == dtype
        assert image.shape == ((3, 32, 32) if ndim == 3 else (3072,))
        numpy.testing.assert_allclose(
            image.reshape(-1), x[i] * scale / 255., rtol=1e-6)
        assert label.dtype == numpy.int32 and label == y[i]


def test_cifar10(monkeypatch, dataset_root, source_dir):
    path, (train_x, train_y), (test_x, test_y) = make_cifar10(
        str(source_dir))
    point_at(monkeypatch, 'cifar-10', path)
    train, test = datasets.get_cifar10()
    assert isinstance(train, datasets.TupleDataset)
    _check(train, train_x, train_y)
    _check(test, test_x, test_y)
    # The channels are the 1024-value planes of a row, red first.
    numpy.testing.assert_allclose(train[0][0][1, 0, :5],
                                  train_x[0, 1024:1029] / 255., rtol=1e-6)


@pytest.mark.parametrize('ndim', [1, 3])
def test_cifar10_options(monkeypatch, dataset_root, source_dir, ndim):
    path, (train_x, train_y), (test_x, _) = make_cifar10(str(source_dir))
    point_at(monkeypatch, 'cifar-10', path)
    train, _ = datasets.get_cifar10(ndim=ndim, scale=2.,
                                    dtype=numpy.float64)
    _check(train, train_x, train_y, ndim=ndim, scale=2.,
           dtype=numpy.float64)
    _, test = datasets.get_cifar10(withlabel=False, ndim=ndim)
    assert isinstance(test, numpy.ndarray)
    numpy.testing.assert_allclose(test.reshape(len(test), -1),
                                  test_x / 255., rtol=1e-6)


def test_cifar10_bad_ndim(monkeypatch, dataset_root, source_dir):
    with pytest.raises(ValueError, match='ndim'):
        datasets.get_cifar10(ndim=2)


def test_cifar10_cache(monkeypatch, dataset_root, source_dir):
    path, (train_x, train_y), (test_x, test_y) = make_cifar10(
        str(source_dir))
    point_at(monkeypatch, 'cifar-10', path)
    datasets.get_cifar10()
    cached = dataset_root / 'pfnet' / 'chainer' / 'cifar' / 'cifar-10.npz'
    with numpy.load(str(cached)) as npz:
        assert sorted(npz.files) == ['test_x', 'test_y', 'train_x',
                                     'train_y']
        numpy.testing.assert_array_equal(npz['train_x'], train_x)
        numpy.testing.assert_array_equal(npz['test_y'], test_y)
        assert npz['train_x'].dtype == numpy.uint8
    os.remove(path)
    for name in os.listdir(str(dataset_root / '_dl_cache')):
        if (dataset_root / '_dl_cache' / name).is_file():
            os.remove(str(dataset_root / '_dl_cache' / name))
    train, _ = datasets.get_cifar10(ndim=1)
    _check(train, train_x, train_y, ndim=1)


def test_cifar100(monkeypatch, dataset_root, source_dir):
    path, (train_x, train_y), (test_x, test_y) = make_cifar100(
        str(source_dir))
    point_at(monkeypatch, 'cifar-100', path)
    train, test = datasets.get_cifar100()
    _check(train, train_x, train_y)
    _check(test, test_x, test_y)
    assert (dataset_root / 'pfnet' / 'chainer' / 'cifar' /
            'cifar-100.npz').exists()


@pytest.mark.parametrize('protocol', [4, 5])
def test_cifar100_pickled_by_python3(monkeypatch, dataset_root, source_dir,
                                     protocol):
    path, (train_x, train_y), _ = make_cifar100(
        str(source_dir),
        pickler=lambda batch: pickle.dumps(batch, protocol=protocol))
    point_at(monkeypatch, 'cifar-100', path)
    train, _ = datasets.get_cifar100(ndim=1)
    _check(train, train_x, train_y, ndim=1)


class _Marker:
    """Creates a file when unpickled: stands for code a pickle runs."""

    path = None

    def __reduce__(self):
        return (open, (self.path, 'w'))


def _malicious(path):
    marker = _Marker()
    marker.path = path
    return pickle.dumps({'data': marker, 'labels': [0]}, protocol=2)


def test_checksum_is_verified_before_unpickling(monkeypatch, dataset_root,
                                                source_dir, tmp_path):
    marker = str(tmp_path / 'ran')
    path, _, _ = make_cifar10(str(source_dir),
                              member_bytes={'data_batch_1':
                                            _malicious(marker)})
    point_at(monkeypatch, 'cifar-10', path, md5='0' * 32)
    with pytest.raises(ValueError, match='md5'):
        datasets.get_cifar10()
    assert not os.path.exists(marker)


def test_unpickling_refuses_anything_but_arrays(monkeypatch, dataset_root,
                                                source_dir, tmp_path):
    marker = str(tmp_path / 'ran')
    path, _, _ = make_cifar10(str(source_dir),
                              member_bytes={'data_batch_2':
                                            _malicious(marker)})
    point_at(monkeypatch, 'cifar-10', path)
    with pytest.raises(pickle.UnpicklingError, match='refusing'):
        datasets.get_cifar10()
    assert not os.path.exists(marker)
    assert not (dataset_root / 'pfnet' / 'chainer' / 'cifar' /
                'cifar-10.npz').exists()


def test_archive_without_the_batches(monkeypatch, dataset_root, source_dir):
    path, _, _ = make_cifar100(str(source_dir))
    os.rename(path, str(source_dir / 'cifar-10-python.tar.gz'))
    point_at(monkeypatch, 'cifar-10',
             str(source_dir / 'cifar-10-python.tar.gz'))
    with pytest.raises(ValueError, match='data_batch_1'):
        datasets.get_cifar10()


def test_offline(monkeypatch, dataset_root):
    monkeypatch.setitem(cifar._URLS, 'cifar-100',
                        'http://127.0.0.1:9/cifar-100-python.tar.gz')
    with pytest.raises(OSError, match='127.0.0.1:9') as info:
        datasets.get_cifar100()
    assert '_dl_cache' in str(info.value)


def test_official_sources():
    assert cifar._URLS['cifar-10'] == \
        'https://www.cs.toronto.edu/~kriz/cifar-10-python.tar.gz'
    assert cifar._MD5 == {'cifar-10': 'c58f30108f718f92721af3b95e74349a',
                          'cifar-100': 'eb9058c3a382ffc7106e4002c42a8d85'}
