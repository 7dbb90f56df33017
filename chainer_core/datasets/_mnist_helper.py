"""The IDX files of MNIST and its look-alikes, and their npz cache."""
import gzip
import os

import numpy

from chainer_core.dataset import download
from chainer_core.datasets._retrieve import fetch, get_dtype
from chainer_core.datasets.tuple_dataset import TupleDataset

_IMAGES_MAGIC = 0x00000803  # unsigned bytes, 3 dimensions
_LABELS_MAGIC = 0x00000801  # unsigned bytes, 1 dimension


def _read_idx(path, magic, name):
    with gzip.open(path, 'rb') as f:
        data = f.read()
    where = '{} (cached as {})'.format(name, path)
    found = int(numpy.frombuffer(data, '>u4', 1)[0]) \
        if len(data) >= 4 else None
    if found != magic:
        raise ValueError('{} is not an IDX file of the expected kind: magic '
                         'number {}, expected {:#010x}'.format(
                             where, 'missing' if found is None else
                             '{:#010x}'.format(found), magic))
    ndim = magic & 0xff
    header = 4 * (1 + ndim)
    if len(data) < header:
        raise ValueError('{} is truncated: its header is incomplete'.format(
            where))
    shape = tuple(int(d) for d in numpy.frombuffer(data, '>u4', ndim, 4))
    count = int(numpy.prod(shape))
    if len(data) - header != count:
        raise ValueError('{}: the header announces {} bytes of data but the '
                         'file holds {}'.format(where, count,
                                                len(data) - header))
    return numpy.frombuffer(data, numpy.uint8, count, header).reshape(shape)


def make_npz(path, images_urls, images_md5, labels_urls, labels_md5):
    """Read an images/labels pair of IDX files into ``path`` (an npz with
    ``x``: N x 784 and ``y``: N, both uint8, as Chainer caches them)."""
    images = _read_idx(fetch(images_urls, images_md5), _IMAGES_MAGIC,
                       images_urls[0].rsplit('/', 1)[-1])
    labels = _read_idx(fetch(labels_urls, labels_md5), _LABELS_MAGIC,
                       labels_urls[0].rsplit('/', 1)[-1])
    if len(images) != len(labels):
        raise ValueError('wrong pair of images and labels: {} images, {} '
                         'labels'.format(len(images), len(labels)))
    if images.shape[1:] != (28, 28):
        raise ValueError('the images are {}x{}, not 28x28'.format(
            *images.shape[1:]))
    x = images.reshape(len(images), 784)
    y = numpy.array(labels)
    numpy.savez_compressed(path, x=x, y=y)
    return {'x': x, 'y': y}


def retrieve(directory, name, sources):
    """The raw arrays of one split, from the npz cache or the sources
    (``images_urls, images_md5, labels_urls, labels_md5``)."""
    root = download.get_dataset_directory(directory)
    path = os.path.join(root, name)
    return download.cache_or_load_file(
        path, lambda p: make_npz(p, *sources), numpy.load)


def sources(bases, split, md5s):
    """URLs and checksums of a split (``'train'`` or ``'t10k'``) under each
    of the base URLs ``bases``."""
    images = '{}-images-idx3-ubyte.gz'.format(split)
    labels = '{}-labels-idx1-ubyte.gz'.format(split)
    return (tuple(b + images for b in bases), md5s[images],
            tuple(b + labels for b in bases), md5s[labels])


def preprocess(raw, withlabel, ndim, scale, dtype, label_dtype, rgb_format,
               name):
    images = raw['x']
    if ndim == 2:
        images = images.reshape(-1, 28, 28)
    elif ndim == 3:
        images = images.reshape(-1, 1, 28, 28)
        if rgb_format:
            images = numpy.broadcast_to(images, (len(images), 3, 28, 28))
    elif ndim != 1:
        raise ValueError('{}: ndim must be 1, 2 or 3, got {}'.format(
            name, ndim))
    images = images.astype(get_dtype(dtype))
    images *= scale / 255.
    if withlabel:
        return TupleDataset(images, raw['y'].astype(label_dtype))
    return images


def get(name, directory, bases, md5s, withlabel, ndim, scale, dtype,
        label_dtype, rgb_format):
    if ndim not in (1, 2, 3):
        raise ValueError('{}: ndim must be 1, 2 or 3, got {}'.format(
            name, ndim))
    train = retrieve(directory, 'train.npz', sources(bases, 'train', md5s))
    test = retrieve(directory, 'test.npz', sources(bases, 't10k', md5s))
    return tuple(preprocess(raw, withlabel, ndim, scale, dtype, label_dtype,
                            rgb_format, name) for raw in (train, test))
