"""Kuzushiji-MNIST: cursive Japanese characters in MNIST's format."""
import numpy

from chainer_core.datasets import _mnist_helper

_BASE_URLS = ('http://codh.rois.ac.jp/kmnist/dataset/kmnist/',)
_MD5 = {
    'train-images-idx3-ubyte.gz': 'bdb82020997e1d708af4cf47b453dcf7',
    'train-labels-idx1-ubyte.gz': 'e144d726b3acfaa3e44228e80efcd344',
    't10k-images-idx3-ubyte.gz': '5c965bf0a639b31b8f53240b1b52f4d7',
    't10k-labels-idx1-ubyte.gz': '7320c461ea6c1c855c0b718fb2a4b134',
}

_LABELS = [('o', '\u304a'), ('ki', '\u304d'), ('su', '\u3059'),
           ('tsu', '\u3064'), ('na', '\u306a'), ('ha', '\u306f'),
           ('ma', '\u307e'), ('ya', '\u3084'), ('re', '\u308c'),
           ('wo', '\u3092')]


def get_kuzushiji_mnist_labels():
    """The ten Kuzushiji-MNIST classes, in label order.

    Returns:
        list of tuple: ``(romaji, hiragana)`` pairs such as ``('o', 'お')``.
    """
    return list(_LABELS)


def get_kuzushiji_mnist(withlabel=True, ndim=1, scale=1., dtype=None,
                        label_dtype=numpy.int32, rgb_format=False):
    """The Kuzushiji-MNIST training and test sets (60000 and 10000).

    Grey-scale 28x28 images of ten hiragana (see
    :func:`get_kuzushiji_mnist_labels`), pixels scaled to ``[0, scale]``.
    Cached as ``pfnet/chainer/kuzushiji_mnist/train.npz`` and ``test.npz``
    under the dataset root, as Chainer does.

    Args:
        withlabel (bool): examples are ``(image, label)`` tuples (else the
            datasets are arrays of images).
        ndim (int): 1 gives ``(784,)``, 2 gives ``(28, 28)``, 3 gives
            ``(1, 28, 28)``.
        scale (float): the value of a white pixel.
        dtype: the image dtype (default: ``config.dtype``).
        label_dtype: the label dtype.
        rgb_format (bool): with ``ndim == 3``, repeat the channel to give
            ``(3, 28, 28)``.

    Returns:
        ``(train, test)``.
    """
    return _mnist_helper.get('get_kuzushiji_mnist',
                             'pfnet/chainer/kuzushiji_mnist', _BASE_URLS,
                             _MD5, withlabel, ndim, scale, dtype,
                             label_dtype, rgb_format)
