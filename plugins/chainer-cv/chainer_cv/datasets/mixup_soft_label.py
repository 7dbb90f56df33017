"""Mixup: convex combinations of pairs of examples and of their labels."""
import numpy

from chainer_cv.chainer_experimental.datasets.sliceable import GetterDataset


class MixUpSoftLabelDataset(GetterDataset):
    """Mix each example with a random one, as in `mixup`_.

    .. _`mixup`: https://arxiv.org/abs/1710.09412

    The ``i``-th example mixes the ``i``-th example of ``dataset`` with a
    uniformly drawn one, with a ratio ``r`` drawn from
    ``Beta(alpha, alpha)``: ``img = r * img_i + (1 - r) * img_j`` and the
    soft label puts ``r`` on ``label_i`` and ``1 - r`` on ``label_j``. The
    draws use :mod:`numpy.random`, so :func:`numpy.random.seed` fixes them.

    Args:
        dataset: examples ``(img, label)``, ``label`` an int.
        n_class (int): the number of classes.
        alpha (float): the parameter of the Beta distribution.

    The keys are ``'img'`` (as the images of ``dataset``) and ``'label'``
    (float32 ``(n_class,)``, summing to 1).
    """

    def __init__(self, dataset, n_class, alpha=1.0):
        super().__init__()
        if alpha <= 0:
            raise ValueError('MixUpSoftLabelDataset: alpha must be positive, '
                             'got {}'.format(alpha))
        self._dataset = dataset
        self._n_class = n_class
        self._alpha = alpha
        self.add_getter(('img', 'label'), self._get_example)

    def __len__(self):
        return len(self._dataset)

    def _get_example(self, i):
        ratio = numpy.random.beta(self._alpha, self._alpha)
        j = numpy.random.randint(len(self._dataset))
        img_0, label_0 = self._dataset[i]
        img_1, label_1 = self._dataset[j]
        img = (ratio * img_0 + (1 - ratio) * img_1).astype(img_0.dtype)
        label = numpy.zeros(self._n_class, dtype=numpy.float32)
        label[label_0] += ratio
        label[label_1] += 1 - ratio
        return img, label
