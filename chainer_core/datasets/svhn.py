"""SVHN: the Street View House Numbers, cropped 32x32 digits."""
import os

import numpy

from chainer_core.dataset import download
from chainer_core.datasets._matlab import load_mat
from chainer_core.datasets._retrieve import fetch, get_dtype
from chainer_core.datasets.tuple_dataset import TupleDataset

_BASE_URL = 'http://ufldl.stanford.edu/housenumbers/'
_MD5 = {
    'train_32x32.mat': 'e26dedcc434d2e4c54c9b2d4a06d8373',
    'test_32x32.mat': 'eb5a983be6a315427106f1b164d9cef3',
    'extra_32x32.mat': 'a93ce644f1a588dc4d68dda5feec44a7',
}


def _make_npz(path, file_name):
    source = fetch(_BASE_URL + file_name, _MD5[file_name])
    arrays = load_mat(source)
    missing = {'X', 'y'} - set(arrays)
    if missing:
        raise ValueError('{} (downloaded from {}) has no variable {}'.format(
            source, _BASE_URL + file_name, ', '.join(sorted(missing))))
    x = arrays['X'].astype(numpy.uint8)
    y = arrays['y'].astype(numpy.uint8)
    if x.ndim != 4 or x.shape[:3] != (32, 32, 3) or \
            y.size != x.shape[3]:
        raise ValueError('{}: X has shape {} and y {}, expected (32, 32, 3, '
                         'N) and N labels'.format(source, x.shape, y.shape))
    numpy.savez_compressed(path, x=x, y=y)
    return {'x': x, 'y': y}


def _retrieve(name, file_name):
    root = download.get_dataset_directory('pfnet/chainer/svhn')
    path = os.path.join(root, name)
    return download.cache_or_load_file(
        path, lambda p: _make_npz(p, file_name), numpy.load)


def _preprocess(raw, withlabel, scale, dtype, label_dtype):
    # The files store images as height x width x channel x N.
    images = raw['x'].transpose(3, 2, 0, 1).astype(get_dtype(dtype))
    images *= scale / 255.
    if not withlabel:
        return images
    labels = raw['y'].astype(label_dtype).reshape(-1)
    # The digit 0 has label 10 in the files.
    labels[labels == 10] = 0
    return TupleDataset(images, labels)


def get_svhn(withlabel=True, scale=1., dtype=None, label_dtype=numpy.int32,
             add_extra=False):
    """The SVHN training and test sets (73257 and 26032 examples).

    RGB images of shape ``(3, 32, 32)`` with components scaled to
    ``[0, scale]``, labelled with their digit (0-9). The MATLAB files are
    read by a built-in reader (no SciPy needed) and cached as
    ``pfnet/chainer/svhn/train.npz``, ``test.npz`` (and ``extra.npz``)
    under the dataset root, as Chainer does.

    Args:
        withlabel (bool): examples are ``(image, label)`` tuples (else the
            datasets are arrays of images).
        scale (float): the value of a full component.
        dtype: the image dtype (default: ``config.dtype``).
        label_dtype: the label dtype.
        add_extra (bool): also return the 531131 extra examples.

    Returns:
        ``(train, test)``, or ``(train, test, extra)`` with ``add_extra``.
    """
    parts = [('train.npz', 'train_32x32.mat'), ('test.npz', 'test_32x32.mat')]
    if add_extra:
        parts.append(('extra.npz', 'extra_32x32.mat'))
    return tuple(_preprocess(_retrieve(name, file_name), withlabel, scale,
                             dtype, label_dtype)
                 for name, file_name in parts)
