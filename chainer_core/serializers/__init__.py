"""Serializers (Chainer's ``chainer.serializers``)."""
from chainer_core.serializers.npz import (  # NOQA
    DictionarySerializer, NpzDeserializer, load_npz, save_npz)
