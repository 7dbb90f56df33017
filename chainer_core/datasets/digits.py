"""The handwritten digits of scikit-learn (8x8 images, 1797 samples).

The data ship inside scikit-learn (install the ``digits`` extra), so it is
available offline; it stands in for MNIST where there is no network.
"""
import numpy

from chainer_core.datasets.tuple_dataset import TupleDataset


def _load():
    try:
        from sklearn.datasets import load_digits
    except ImportError as e:
        raise ImportError(
            'get_digits needs scikit-learn, which ships the data: pip install '
            '"chainer-core[digits]" (or scikit-learn)') from e
    data = load_digits()
    return data.images.astype(numpy.float32), data.target.astype(numpy.int32)


def get_digits(withlabel=True, ndim=1, scale=1., dtype=None,
               label_dtype=numpy.int32, test_ratio=0.2, seed=0):
    """Train and test splits of the digits set, shaped like get_mnist's.

    Pixel values (0-16 in the source) are scaled to ``[0, scale]``.

    Args:
        withlabel (bool): tuples ``(image, label)`` (else images only).
        ndim (int): 1 (64 values), 2 (8x8) or 3 (1x8x8).
        scale (float): the value of the brightest pixel.
        dtype: image dtype (default: ``config.dtype``).
        label_dtype: label dtype.
        test_ratio (float): the fraction held out for testing.
        seed (int): seed of the split (stratified per class).

    Returns:
        ``(train, test)`` datasets.
    """
    from chainer_core.configuration import get_dtype
    if ndim not in (1, 2, 3):
        raise ValueError('get_digits: ndim must be 1, 2 or 3, got {}'.format(
            ndim))
    images, labels = _load()
    images = images * (scale / 16.0)
    images = images.astype(get_dtype(dtype))
    if ndim == 1:
        images = images.reshape(-1, 64)
    elif ndim == 3:
        images = images.reshape(-1, 1, 8, 8)
    labels = labels.astype(label_dtype)
    rng = numpy.random.RandomState(seed)
    test = numpy.zeros(len(labels), dtype=bool)
    for c in numpy.unique(labels):
        idx = numpy.nonzero(labels == c)[0]
        rng.shuffle(idx)
        test[idx[:int(round(len(idx) * test_ratio))]] = True

    def part(mask):
        if withlabel:
            return TupleDataset(images[mask], labels[mask])
        return images[mask]

    return part(~test), part(test)
