"""Serializers (Chainer's ``chainer.serializers``)."""
from chainer_core.serializers.hdf5 import (  # NOQA
    HDF5Deserializer, HDF5Serializer, load_hdf5, save_hdf5)
from chainer_core.serializers.npz import (  # NOQA
    DictionarySerializer, NpzDeserializer, load_npz, save_npz)
