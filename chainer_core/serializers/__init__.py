"""Serializers (Chainer's ``chainer.serializers``)."""
from chainer_core import _lazy

__getattr__, __dir__ = _lazy(__name__, {
    '.hdf5': ('HDF5Deserializer', 'HDF5Serializer', 'load_hdf5', 'save_hdf5'),
    '.npz': (
        'DictionarySerializer', 'load_npz', 'NpzDeserializer', 'save_npz'),
}, submodules=True)
