"""CIFAR-10 and CIFAR-100: 32x32 colour images in 10 or 100 classes.

The official archives (the "python version", the one Chainer reads) hold
Python pickles. Unpickling can run arbitrary code, so an archive is read
only after its MD5 checksum matched the official one, and even then through
an unpickler that accepts nothing but what a CIFAR batch contains (dicts,
lists, strings, numbers and NumPy arrays): any other reference in the
pickle is an error.
"""
import importlib
import os
import pickle
import tarfile

import numpy

from chainer_core.dataset import download
from chainer_core.datasets._retrieve import fetch, get_dtype
from chainer_core.datasets.tuple_dataset import TupleDataset

_URLS = {
    'cifar-10': 'https://www.cs.toronto.edu/~kriz/cifar-10-python.tar.gz',
    'cifar-100': 'https://www.cs.toronto.edu/~kriz/cifar-100-python.tar.gz',
}
_MD5 = {
    'cifar-10': 'c58f30108f718f92721af3b95e74349a',
    'cifar-100': 'eb9058c3a382ffc7106e4002c42a8d85',
}


def _numpy_attribute(modules, name):
    for module in modules:
        try:
            return getattr(importlib.import_module(module), name)
        except (ImportError, AttributeError):
            continue
    raise pickle.UnpicklingError('NumPy has no {}'.format(name))


# The references a pickled CIFAR batch makes (NumPy renamed numpy.core to
# numpy._core in 2.0; pickles name either).
_RECONSTRUCT = ('numpy._core.multiarray', 'numpy.core.multiarray')
_NUMERIC = ('numpy._core.numeric', 'numpy.core.numeric')
_ALLOWED = {
    ('numpy.core.multiarray', '_reconstruct'): (_RECONSTRUCT, '_reconstruct'),
    ('numpy._core.multiarray', '_reconstruct'): (_RECONSTRUCT,
                                                 '_reconstruct'),
    ('numpy.core.multiarray', 'scalar'): (_RECONSTRUCT, 'scalar'),
    ('numpy._core.multiarray', 'scalar'): (_RECONSTRUCT, 'scalar'),
    ('numpy.core.numeric', '_frombuffer'): (_NUMERIC, '_frombuffer'),
    ('numpy._core.numeric', '_frombuffer'): (_NUMERIC, '_frombuffer'),
    ('numpy', 'ndarray'): (('numpy',), 'ndarray'),
    ('numpy', 'dtype'): (('numpy',), 'dtype'),
}


class _BatchUnpickler(pickle.Unpickler):
    def find_class(self, module, name):
        target = _ALLOWED.get((module, name))
        if target is None:
            raise pickle.UnpicklingError(
                'a CIFAR batch refers to {}.{}, which the official files '
                'never do; refusing to load it'.format(module, name))
        return _numpy_attribute(*target)


def _load_batch(archive, member):
    try:
        f = archive.extractfile(member)
    except KeyError:
        f = None
    if f is None:
        raise ValueError('{} has no file {}: not a CIFAR python-version '
                         'archive'.format(archive.name, member))
    with f:
        # The official batches were pickled by Python 2: its byte strings
        # decode as latin-1, which NumPy's array pickles expect.
        batch = _BatchUnpickler(f, encoding='latin1').load()
    if not isinstance(batch, dict):
        raise ValueError('{} in {} is not a CIFAR batch'.format(
            member, archive.name))
    return {k.decode('latin1') if isinstance(k, bytes) else k: v
            for k, v in batch.items()}


def _images_labels(batch, label_key, member):
    try:
        data = batch['data']
        labels = batch[label_key]
    except KeyError as e:
        raise ValueError('the CIFAR batch {} has no {!r} entry'.format(
            member, e.args[0])) from None
    x = numpy.asarray(data, dtype=numpy.uint8).reshape(-1, 3072)
    y = numpy.asarray(labels, dtype=numpy.uint8).reshape(-1)
    if len(x) != len(y):
        raise ValueError('the CIFAR batch {} has {} images but {} labels'
                         .format(member, len(x), len(y)))
    return x, y


def _make_npz(name, path):
    archive_path = fetch(_URLS[name], _MD5[name])
    with tarfile.open(archive_path, 'r:gz') as archive:
        if name == 'cifar-10':
            folder = 'cifar-10-batches-py/'
            parts = [_images_labels(_load_batch(archive, folder + member),
                                    'labels', member)
                     for member in ['data_batch_{}'.format(i)
                                    for i in range(1, 6)] + ['test_batch']]
            train_x = numpy.concatenate([x for x, _ in parts[:5]])
            train_y = numpy.concatenate([y for _, y in parts[:5]])
            test_x, test_y = parts[5]
        else:
            train_x, train_y = _images_labels(
                _load_batch(archive, 'cifar-100-python/train'),
                'fine_labels', 'train')
            test_x, test_y = _images_labels(
                _load_batch(archive, 'cifar-100-python/test'),
                'fine_labels', 'test')
    numpy.savez_compressed(path, train_x=train_x, train_y=train_y,
                           test_x=test_x, test_y=test_y)
    return {'train_x': train_x, 'train_y': train_y, 'test_x': test_x,
            'test_y': test_y}


def _preprocess(images, labels, withlabel, ndim, scale, dtype):
    if ndim == 1:
        images = images.reshape(-1, 3072)
    else:
        images = images.reshape(-1, 3, 32, 32)
    images = images.astype(get_dtype(dtype))
    images *= scale / 255.
    if withlabel:
        return TupleDataset(images, labels.astype(numpy.int32))
    return images


def _get_cifar(name, function, withlabel, ndim, scale, dtype):
    if ndim not in (1, 3):
        raise ValueError('{}: ndim must be 1 or 3, got {}'.format(
            function, ndim))
    root = download.get_dataset_directory(os.path.join('pfnet', 'chainer',
                                                       'cifar'))
    path = os.path.join(root, '{}.npz'.format(name))
    raw = download.cache_or_load_file(path, lambda p: _make_npz(name, p),
                                      numpy.load)
    return (_preprocess(raw['train_x'], raw['train_y'], withlabel, ndim,
                        scale, dtype),
            _preprocess(raw['test_x'], raw['test_y'], withlabel, ndim,
                        scale, dtype))


def get_cifar10(withlabel=True, ndim=3, scale=1., dtype=None):
    """The CIFAR-10 training and test sets (50000 and 10000 examples).

    RGB 32x32 images in 10 classes, components scaled from bytes to
    ``[0, scale]``; labels are int32. The archive is downloaded once (and
    its MD5 checksum verified before anything in it is unpickled, see the
    module documentation); the arrays are cached as
    ``pfnet/chainer/cifar/cifar-10.npz`` under the dataset root, the file
    Chainer makes.

    Args:
        withlabel (bool): examples are ``(image, label)`` tuples (else the
            datasets are arrays of images).
        ndim (int): 1 gives images of shape ``(3072,)``, 3 gives
            ``(3, 32, 32)``.
        scale (float): the value of a full component.
        dtype: the image dtype (default: ``config.dtype``).

    Returns:
        ``(train, test)``.
    """
    return _get_cifar('cifar-10', 'get_cifar10', withlabel, ndim, scale,
                      dtype)


def get_cifar100(withlabel=True, ndim=3, scale=1., dtype=None):
    """The CIFAR-100 training and test sets (50000 and 10000 examples).

    As :func:`get_cifar10`, with the 100 fine labels; cached as
    ``pfnet/chainer/cifar/cifar-100.npz``.

    Args:
        withlabel (bool): examples are ``(image, label)`` tuples (else the
            datasets are arrays of images).
        ndim (int): 1 gives ``(3072,)``, 3 gives ``(3, 32, 32)``.
        scale (float): the value of a full component.
        dtype: the image dtype (default: ``config.dtype``).

    Returns:
        ``(train, test)``.
    """
    return _get_cifar('cifar-100', 'get_cifar100', withlabel, ndim, scale,
                      dtype)
