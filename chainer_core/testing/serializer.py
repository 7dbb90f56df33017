"""save_and_load helpers: round-trip objects through a file."""
import os
import tempfile


def save_and_load(src, dst, filename, saver, loader):
    """Save ``src`` with ``saver(path, src)`` into a temporary folder and
    load it into ``dst`` with ``loader(path, dst)``."""
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, filename)
        saver(path, src)
        loader(path, dst)


def save_and_load_npz(src, dst):
    """:func:`save_and_load` through an npz file."""
    from chainer_core.serializers import npz
    save_and_load(src, dst, 'tmp.npz', npz.save_npz, npz.load_npz)


def save_and_load_hdf5(src, dst):
    """:func:`save_and_load` through an HDF5 file (needs h5py)."""
    from chainer_core.serializers import hdf5
    save_and_load(src, dst, 'tmp.h5', hdf5.save_hdf5, hdf5.load_hdf5)
