"""The MNIST handwritten digits."""
import numpy

from chainer_core.datasets import _mnist_helper

# The original site first, then a mirror serving the same files (verified
# by the same checksums).
_BASE_URLS = ('http://yann.lecun.com/exdb/mnist/',
              'https://ossci-datasets.s3.amazonaws.com/mnist/')
_MD5 = {
    'train-images-idx3-ubyte.gz': 'f68b3c2dcbeaaa9fbdd348bbdeb94873',
    'train-labels-idx1-ubyte.gz': 'd53e105ee54ea40749a09fcbcd1e9432',
    't10k-images-idx3-ubyte.gz': '9fb629c4189551a2d022fa330f9573f3',
    't10k-labels-idx1-ubyte.gz': 'ec29112dd5afa0611ce80d1b7f02629c',
}


def get_mnist(withlabel=True, ndim=1, scale=1., dtype=None,
              label_dtype=numpy.int32, rgb_format=False):
    """The MNIST training and test sets (60000 and 10000 examples).

    Grey-scale 28x28 images of the digits 0-9, with pixels scaled from
    bytes to ``[0, scale]``. The source files are downloaded once into the
    dataset root (see :func:`chainer_core.dataset.get_dataset_root`) and
    kept as ``pfnet/chainer/mnist/train.npz`` and ``test.npz``, the files
    Chainer makes, so an existing Chainer cache is used as is.

    Args:
        withlabel (bool): examples are ``(image, label)`` tuples (else the
            datasets are arrays of images).
        ndim (int): the shape of an image: 1 gives ``(784,)``, 2 gives
            ``(28, 28)``, 3 gives ``(1, 28, 28)``.
        scale (float): the value of a white pixel.
        dtype: the image dtype (default: ``config.dtype``).
        label_dtype: the label dtype.
        rgb_format (bool): with ``ndim == 3``, repeat the channel to give
            ``(3, 28, 28)``.

    Returns:
        ``(train, test)``: :class:`~chainer_core.datasets.TupleDataset`
        instances, or image arrays without labels.
    """
    return _mnist_helper.get('get_mnist', 'pfnet/chainer/mnist', _BASE_URLS,
                             _MD5, withlabel, ndim, scale, dtype,
                             label_dtype, rgb_format)
