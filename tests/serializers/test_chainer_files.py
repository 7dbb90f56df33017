"""Files written by Chainer 7.8.1 (in data/: a chain of Linear,
BatchNormalization and a Linear(None, ...), its Adam optimizer after one
update, and an uninitialised Linear) load, and saving what was loaded
gives back every value of the file."""
import os

import numpy
import pytest

import chainer_core as chainer
import chainer_core.links as L
from chainer_core import serializers

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'data')


class Net(chainer.Chain):

    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.l1 = L.Linear(3, 4)
            self.bn = L.BatchNormalization(4)
            self.l2 = L.Linear(None, 2)


def _net_and_optimizer():
    net = Net()
    optimizer = chainer.optimizers.Adam()
    optimizer.setup(net)
    return net, optimizer


def _hdf5_values(path):
    h5py = pytest.importorskip('h5py')
    values = {}
    with h5py.File(path, 'r') as f:
        def visit(name, node):
            if isinstance(node, h5py.Dataset):
                values[name] = None if node.shape is None else node[()]
        f.visititems(visit)
    return values


def _npz_values(path):
    with numpy.load(path, allow_pickle=False) as f:
        return {k: f[k] for k in f.files}


FORMATS = {
    'h5': (serializers.save_hdf5, serializers.load_hdf5, _hdf5_values),
    'npz': (serializers.save_npz, serializers.load_npz, _npz_values),
}


@pytest.mark.parametrize('ext', sorted(FORMATS))
@pytest.mark.parametrize('name', ['net', 'adam'])
def test_chainer_file_loads_every_value(tmp_path, ext, name):
    save, load, values = FORMATS[ext]
    net, optimizer = _net_and_optimizer()
    obj = net if name == 'net' else optimizer
    original = os.path.join(DATA, 'chainer781_{}.{}'.format(name, ext))
    load(original, obj)
    if name == 'adam':
        assert optimizer.t == 1
    again = str(tmp_path / ('again.' + ext))
    save(again, obj)
    expected, got = values(original), values(again)
    assert sorted(got) == sorted(expected)
    for key, value in expected.items():
        numpy.testing.assert_array_equal(got[key], value, err_msg=key)


def test_chainer_hdf5_none():
    pytest.importorskip('h5py')
    path = os.path.join(DATA, 'chainer781_lazy.h5')
    lazy = L.Linear(None, 2)
    lazy.b.array[...] = 7
    serializers.load_hdf5(path, lazy)
    assert lazy.W.array is None
    numpy.testing.assert_array_equal(lazy.b.array, _hdf5_values(path)['b'])
