"""An HDF5 file cannot make loading read anything outside itself: values
reached through soft or external links, or whose data lives in other files
(external storage, virtual datasets), are refused with an error naming the
key and the file, before any of that data is read."""
import re

import numpy
import pytest

import chainer_core.links as L
from chainer_core import serializers
from chainer_core.serializers import hdf5

h5py = pytest.importorskip('h5py')

SECRET = numpy.full((2, 3), 42, numpy.float32)


@pytest.fixture
def secrets(tmp_path):
    """A raw file and an HDF5 file holding SECRET (as 'data' and as a
    model group 'model')."""
    raw = tmp_path / 'secret.bin'
    raw.write_bytes(SECRET.tobytes())
    h5 = tmp_path / 'secret.h5'
    with h5py.File(h5, 'w') as f:
        f['data'] = SECRET
        f['model/W'] = SECRET
        f['model/b'] = numpy.zeros(2, numpy.float32)
    return str(raw), str(h5)


def _bias(group):
    group['b'] = numpy.zeros(2, numpy.float32)


def external_storage(f, raw, h5):
    f.create_dataset('W', SECRET.shape, SECRET.dtype,
                     external=[(raw, 0, SECRET.nbytes)])
    _bias(f)
    return 'W', ''


def virtual_dataset(f, raw, h5):
    layout = h5py.VirtualLayout(SECRET.shape, SECRET.dtype)
    layout[...] = h5py.VirtualSource(h5, 'data', shape=SECRET.shape)
    f.create_virtual_dataset('W', layout)
    _bias(f)
    return 'W', ''


def external_link(f, raw, h5):
    f['W'] = h5py.ExternalLink(h5, '/data')
    _bias(f)
    return 'W', ''


def external_link_to_a_group(f, raw, h5):
    f['snapshot/updater'] = h5py.ExternalLink(h5, '/')
    return 'snapshot/updater/model/W', 'snapshot/updater/model'


def soft_link(f, raw, h5):
    f['elsewhere'] = SECRET
    f['model/W'] = h5py.SoftLink('/elsewhere')
    _bias(f['model'])
    return 'model/W', 'model'


def soft_link_to_an_external_link(f, raw, h5):
    f['outside'] = h5py.ExternalLink(h5, '/data')
    f['W'] = h5py.SoftLink('/outside')
    _bias(f)
    return 'W', ''


HOSTILE = {f.__name__: f for f in [
    external_storage, virtual_dataset, external_link,
    external_link_to_a_group, soft_link, soft_link_to_an_external_link]}


def _hostile(tmp_path, secrets, kind):
    path = tmp_path / 'model.h5'
    with h5py.File(path, 'w') as f:
        key, group = HOSTILE[kind](f, *secrets)
    return path, key, group


@pytest.mark.parametrize('kind', sorted(HOSTILE))
def test_the_hostile_files_do_reach_the_secret(tmp_path, secrets, kind):
    # The control: h5py itself reads the secret through each of them.
    path, key, _ = _hostile(tmp_path, secrets, kind)
    with h5py.File(path, 'r') as f:
        numpy.testing.assert_array_equal(f[key][()], SECRET)


@pytest.fixture
def reads(monkeypatch):
    """The (file, dataset) of every dataset read through h5py."""
    seen = []
    real = h5py.Dataset.__getitem__

    def spy(self, args, *rest, **kwargs):
        seen.append((self.file.filename, self.name))
        return real(self, args, *rest, **kwargs)

    monkeypatch.setattr(h5py.Dataset, '__getitem__', spy)
    return seen


@pytest.mark.parametrize('kind', sorted(HOSTILE))
def test_load_hdf5_refuses(tmp_path, secrets, reads, kind):
    path, key, group = _hostile(tmp_path, secrets, kind)
    model = L.Linear(3, 2)
    before = model.W.array.copy()
    with pytest.raises(ValueError, match='{!r}.*{}'.format(
            key, re.escape(str(path)))):
        serializers.load_hdf5(path, model, path=group)
    assert all(name != '/' + key and filename not in secrets
               for filename, name in reads)
    numpy.testing.assert_array_equal(model.W.array, before)


@pytest.mark.parametrize('kind', sorted(HOSTILE))
def test_deserializer_refuses_even_ignoring_missing_keys(
        tmp_path, secrets, reads, kind):
    path, key, group = _hostile(tmp_path, secrets, kind)
    with h5py.File(path, 'r') as f:
        with pytest.raises(ValueError, match=re.escape(repr(key))):
            hdf5.HDF5Deserializer(f, strict=False, path=group).load(
                L.Linear(3, 2))
    assert all(filename not in secrets for filename, _ in reads)


def test_hard_links_inside_the_file_are_followed(tmp_path):
    # Several names for one dataset are still the file's own data.
    path = tmp_path / 'model.h5'
    with h5py.File(path, 'w') as f:
        f['shared'] = SECRET
        f['W'] = f['shared']
        f['b'] = numpy.zeros(2, numpy.float32)
    model = L.Linear(3, 2)
    serializers.load_hdf5(path, model)
    numpy.testing.assert_array_equal(model.W.array, SECRET)
