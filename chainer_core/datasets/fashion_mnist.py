"""Fashion-MNIST: images of clothes in MNIST's format."""
import numpy

from chainer_core.datasets import _mnist_helper

_BASE_URLS = ('http://fashion-mnist.s3-website.eu-central-1.amazonaws.com/',)
_MD5 = {
    'train-images-idx3-ubyte.gz': '8d4fb7e6c68d591d4c3dfef9ec88bf0d',
    'train-labels-idx1-ubyte.gz': '25c81989df183df01b3e8a0aad5dffbe',
    't10k-images-idx3-ubyte.gz': 'bef4ecab320f06d8554ea6380940ec79',
    't10k-labels-idx1-ubyte.gz': 'bb300cfdad3c16e7a12a480ee83cd310',
}

_LABELS = ('T-shirt/top', 'Trouser', 'Pullover', 'Dress', 'Coat', 'Sandal',
           'Shirt', 'Sneaker', 'Bag', 'Ankle boot')


def get_fashion_mnist_labels(labels):
    """The English names of Fashion-MNIST labels.

    Args:
        labels (list of int): labels in ``0..9``.

    Returns:
        list of str: the names, in order.
    """
    if not isinstance(labels, list):
        raise TypeError('get_fashion_mnist_labels: labels must be a list, '
                        'got {}'.format(type(labels).__name__))
    names = []
    for label in labels:
        if not 0 <= label < len(_LABELS) or int(label) != label:
            raise ValueError('get_fashion_mnist_labels: {!r} is not a '
                             'label in 0..9'.format(label))
        names.append(_LABELS[int(label)])
    return names


def get_fashion_mnist(withlabel=True, ndim=1, scale=1., dtype=None,
                      label_dtype=numpy.int32, rgb_format=False):
    """The Fashion-MNIST training and test sets (60000 and 10000 examples).

    Grey-scale 28x28 images of ten kinds of clothes (names by
    :func:`get_fashion_mnist_labels`), pixels scaled to ``[0, scale]``.
    Cached as ``pfnet/chainer/fashion-mnist/train.npz`` and ``test.npz``
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
    return _mnist_helper.get('get_fashion_mnist',
                             'pfnet/chainer/fashion-mnist', _BASE_URLS, _MD5,
                             withlabel, ndim, scale, dtype, label_dtype,
                             rgb_format)
