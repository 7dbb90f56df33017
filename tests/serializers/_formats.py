"""The two file formats, described for the shared tests."""
import types

from chainer_core import serializers


def _npz_key(path, key):
    return path + key


def _hdf5_key(path, key):
    return path.strip('/') + '/' + key if path.strip('/') else key


FORMATS = {
    'npz': types.SimpleNamespace(
        name='npz', ext='.npz', save=serializers.save_npz,
        load=serializers.load_npz, key=_npz_key,
        # The prefix a trainer snapshot puts before the main model's keys.
        model_path='updater/model:main/'),
    'hdf5': types.SimpleNamespace(
        name='hdf5', ext='.h5', save=serializers.save_hdf5,
        load=serializers.load_hdf5, key=_hdf5_key,
        model_path='updater/model:main'),
}
