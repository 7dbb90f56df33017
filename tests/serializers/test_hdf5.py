"""What is particular to the HDF5 format: the group layout, how None and
strings are stored, compression, h5py being optional and foreign HDF5
content."""
import io
import os
import subprocess
import sys

import numpy
import pytest

import chainer_core as chainer
import chainer_core.links as L
from chainer_core import serializers
from chainer_core.serializers import hdf5

h5py = pytest.importorskip('h5py')


class Persistents(chainer.Link):

    def __init__(self, **values):
        super().__init__()
        for name, value in values.items():
            self.add_persistent(name, value)


def test_children_are_groups(tmp_path):
    model = chainer.Sequential(L.Linear(3, 4), L.Linear(None, 2))
    path = tmp_path / 'm.h5'
    serializers.save_hdf5(path, model)
    with h5py.File(path, 'r') as f:
        assert sorted(f) == ['0', '1']
        assert isinstance(f['0'], h5py.Group)
        assert isinstance(f['0/W'], h5py.Dataset)
        assert f['0/W'].shape == (4, 3)
        assert f['0/W'].dtype == numpy.float32


def test_none_is_an_empty_dataset(tmp_path):
    path = tmp_path / 'm.h5'
    serializers.save_hdf5(path, L.Linear(None, 2))
    with h5py.File(path, 'r') as f:
        assert f['W'].shape is None
        assert isinstance(f['W'][()], h5py.Empty)
        assert f['b'].shape == (2,)


def test_strings_are_utf8_datasets(tmp_path):
    path = tmp_path / 'p.h5'
    serializers.save_hdf5(path, Persistents(s='héllo', raw=b'ab'))
    with h5py.File(path, 'r') as f:
        assert f['s'].asstr()[()] == 'héllo'
        assert h5py.check_string_dtype(f['s'].dtype).encoding == 'utf-8'
        assert f['raw'][()] == b'ab'


def test_nothing_is_stored_as_an_object(tmp_path):
    path = tmp_path / 'm.h5'
    serializers.save_hdf5(path, Persistents(
        a=None, s='x', n=3, arr=numpy.ones(4)))
    with h5py.File(path, 'r') as f:
        for name in f:
            d = f[name]
            # The only 'O' dtype is h5py's view of variable-length strings.
            assert d.dtype.kind != 'O' or \
                h5py.check_string_dtype(d.dtype) is not None


def test_compression(tmp_path):
    path = tmp_path / 'm.h5'
    serializers.save_hdf5(path, Persistents(arr=numpy.zeros(1000), n=3,
                                            one=numpy.ones(1)))
    with h5py.File(path, 'r') as f:
        assert f['arr'].compression == 'gzip'
        assert f['arr'].compression_opts == 4
        # Scalars and single elements cannot be chunked.
        assert f['n'].compression is None
        assert f['one'].compression is None


@pytest.mark.parametrize('level', [None, 0, 9])
def test_compression_levels(tmp_path, level):
    path = tmp_path / 'm.h5'
    src = Persistents(arr=numpy.arange(1000.0))
    serializers.save_hdf5(path, src, compression=level)
    with h5py.File(path, 'r') as f:
        if level is None:
            assert f['arr'].compression is None
        else:
            assert f['arr'].compression_opts == level
    dst = Persistents(arr=numpy.zeros(1000))
    serializers.load_hdf5(path, dst)
    numpy.testing.assert_array_equal(dst.arr, src.arr)


def test_serializer_and_deserializer_on_groups(tmp_path):
    # Several objects in one file, each under a group of its own.
    a, b = L.Linear(3, 2), L.Linear(2, 5)
    path = tmp_path / 'both.h5'
    with h5py.File(path, 'w') as f:
        hdf5.HDF5Serializer(f.require_group('a')).save(a)
        hdf5.HDF5Serializer(f)['b'].save(b)
    a2, b2 = L.Linear(3, 2), L.Linear(2, 5)
    with h5py.File(path, 'r') as f:
        hdf5.HDF5Deserializer(f['a']).load(a2)
        hdf5.HDF5Deserializer(f)['b'].load(b2)
    numpy.testing.assert_array_equal(a2.W.array, a.W.array)
    numpy.testing.assert_array_equal(b2.W.array, b.W.array)


def test_deserializer_path_and_strict(tmp_path):
    path = tmp_path / 'm.h5'
    with h5py.File(path, 'w') as f:
        hdf5.HDF5Serializer(f)['x']['y'].save(L.Linear(3, 2))
    with h5py.File(path, 'r') as f:
        dst = L.Linear(3, 2)
        hdf5.HDF5Deserializer(f, path='/x/y/').load(dst)
        with pytest.raises(KeyError, match="'x/W'"):
            hdf5.HDF5Deserializer(f, path='x').load(dst)
        hdf5.HDF5Deserializer(f, strict=False, path='nowhere').load(dst)


def test_serializer_returns_the_value(tmp_path):
    v = chainer.Variable(numpy.ones(3, numpy.float32))
    with h5py.File(tmp_path / 'm.h5', 'w') as f:
        s = hdf5.HDF5Serializer(f)
        assert s('v', v) is v
        assert s('n', None) is None
        numpy.testing.assert_array_equal(f['v'][()], [1, 1, 1])


def test_a_snapshot_state_with_flat_keys(tmp_path):
    # The snapshot extension hands savefun a flat dict state whose None
    # values are already npz markers; they must still come back as None.
    from chainer_core.training.extensions._snapshot import _serialize
    state = _serialize(chainer.Sequential(L.Linear(None, 2)))
    path = tmp_path / 's.h5'
    serializers.save_hdf5(path, state)
    with h5py.File(path, 'r') as f:
        assert f['0/W'].shape is None
    dst = chainer.Sequential(L.Linear(None, 2))
    serializers.load_hdf5(path, dst)
    assert dst[0].W.array is None


def test_group_where_a_value_is_expected(tmp_path):
    path = tmp_path / 'm.h5'
    with h5py.File(path, 'w') as f:
        f.create_group('W')
        f.create_dataset('b', data=numpy.zeros(2, numpy.float32))
    with pytest.raises(ValueError, match="'W'.*group"):
        serializers.load_hdf5(path, L.Linear(3, 2))


def test_foreign_hdf5_content(tmp_path):
    path = tmp_path / 'm.h5'
    with h5py.File(path, 'w') as f:
        ragged = f.create_dataset('W', (2,),
                                  dtype=h5py.vlen_dtype(numpy.int64))
        ragged[0] = [1, 2]
        ragged[1] = [3]
        f.create_dataset('b', data=numpy.zeros(2, numpy.float32))
    with pytest.raises(ValueError, match="'W'.*unsupported dtype"):
        serializers.load_hdf5(path, L.Linear(1, 2))


def test_foreign_hdf5_layout_is_a_missing_key(tmp_path):
    path = tmp_path / 'm.h5'
    with h5py.File(path, 'w') as f:
        f.create_dataset('weights', data=numpy.zeros((2, 3)))
    with pytest.raises(KeyError, match="'W'"):
        serializers.load_hdf5(path, L.Linear(3, 2))


def test_corrupted_compressed_data(tmp_path):
    path = tmp_path / 'm.h5'
    serializers.save_hdf5(path, Persistents(
        arr=numpy.random.RandomState(0).randn(5000)))
    with h5py.File(path, 'r') as f:
        offset = f['arr'].id.get_offset() if f['arr'].chunks is None \
            else f['arr'].id.get_chunk_info(0).byte_offset
    data = bytearray(path.read_bytes())
    for i in range(offset + 16, offset + 64):
        data[i] ^= 0xA5
    path.write_bytes(bytes(data))
    with pytest.raises(ValueError, match="'arr'.*corrupted"):
        serializers.load_hdf5(path, Persistents(arr=numpy.zeros(5000)))


def test_failing_write_in_h5py_keeps_the_previous_file(
        tmp_path, monkeypatch):
    path = tmp_path / 'm.h5'
    src = L.Linear(3, 2)
    serializers.save_hdf5(path, src)
    before = path.read_bytes()
    calls = []
    real = h5py.Group.create_dataset

    def failing(self, name, *args, **kwargs):
        calls.append(name)
        if len(calls) == 2:
            raise OSError('disk full')
        return real(self, name, *args, **kwargs)

    monkeypatch.setattr(h5py.Group, 'create_dataset', failing)
    with pytest.raises(OSError, match='disk full'):
        serializers.save_hdf5(path, L.Linear(3, 2))
    assert path.read_bytes() == before
    assert os.listdir(tmp_path) == ['m.h5']


def test_file_object_is_left_open_and_usable(tmp_path):
    buf = io.BytesIO()
    src = L.Linear(3, 2)
    serializers.save_hdf5(buf, src)
    assert not buf.closed
    buf.seek(0)
    with h5py.File(buf, 'r') as f:
        numpy.testing.assert_array_equal(f['W'][()], src.W.array)


def test_missing_h5py_is_a_clear_import_error(monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, 'h5py', None)
    with pytest.raises(ImportError, match=r'h5py.*hdf5\b.*extra'):
        serializers.save_hdf5(tmp_path / 'm.h5', L.Linear(3, 2))
    with pytest.raises(ImportError, match='hdf5'):
        serializers.load_hdf5(tmp_path / 'm.h5', L.Linear(3, 2))
    assert not (tmp_path / 'm.h5').exists()


def test_importing_serializers_does_not_import_h5py():
    code = ('import sys; sys.modules["h5py"] = None; '
            'import chainer_core as chainer; '
            'from chainer_core import serializers; '
            'serializers.save_npz; serializers.HDF5Serializer; '
            'print("ok")')
    out = subprocess.run([sys.executable, '-c', code], capture_output=True,
                         text=True, check=True)
    assert out.stdout.strip() == 'ok'
