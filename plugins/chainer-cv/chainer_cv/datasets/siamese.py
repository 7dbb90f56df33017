"""Pairs of examples from two labelled data sets, for siamese networks."""
import numpy

from chainer_cv.chainer_experimental.datasets.sliceable import GetterDataset
from chainer_cv.chainer_experimental.datasets.sliceable import \
    SliceableDataset


def _labels_of(dataset):
    # A sliceable data set gives its labels without reading its images.
    if isinstance(dataset, SliceableDataset) and \
            isinstance(dataset.keys, tuple) and 'label' in dataset.keys:
        return numpy.array(list(dataset.slice[:, 'label']))
    return numpy.array([example[1] for example in dataset])


class SiameseDataset(GetterDataset):
    """Random pairs of an example of ``dataset_0`` and one of
    ``dataset_1``.

    Each access draws a new pair with :mod:`numpy.random` (the index only
    bounds the length). With ``pos_ratio``, a pair is positive (the same
    label) with that probability, else negative; without it, both examples
    are drawn uniformly.

    Args:
        dataset_0: examples ``(img, label)``.
        dataset_1: examples ``(img, label)``.
        pos_ratio (float): the probability of a positive pair, or None.
        length (int): the length of this data set; by default that of
            ``dataset_0``.
        labels_0 (numpy.ndarray): the labels of ``dataset_0``, if known, to
            save reading them.
        labels_1 (numpy.ndarray): the labels of ``dataset_1``.

    The keys are ``'img_0'``, ``'label_0'``, ``'img_1'`` and ``'label_1'``.
    """

    def __init__(self, dataset_0, dataset_1, pos_ratio=None, length=None,
                 labels_0=None, labels_1=None):
        super().__init__()
        self._dataset_0 = dataset_0
        self._dataset_1 = dataset_1
        self._pos_ratio = pos_ratio
        self._length = len(dataset_0) if length is None else length
        if pos_ratio is not None:
            if not 0 <= pos_ratio <= 1:
                raise ValueError('SiameseDataset: pos_ratio must be in '
                                 '[0, 1], got {}'.format(pos_ratio))
            labels_0 = numpy.asarray(
                _labels_of(dataset_0) if labels_0 is None else labels_0)
            labels_1 = numpy.asarray(
                _labels_of(dataset_1) if labels_1 is None else labels_1)
            self._indices_0 = {label: numpy.flatnonzero(labels_0 == label)
                               for label in numpy.unique(labels_0)}
            self._indices_1 = {label: numpy.flatnonzero(labels_1 == label)
                               for label in numpy.unique(labels_1)}
            self._positive_labels = sorted(
                set(self._indices_0) & set(self._indices_1))
            if pos_ratio > 0 and not self._positive_labels:
                raise ValueError('SiameseDataset: pos_ratio={} asks for '
                                 'positive pairs but the data sets share no '
                                 'label'.format(pos_ratio))
            if pos_ratio < 1 and len(self._indices_1) < 2 and \
                    set(self._indices_0) <= set(self._indices_1):
                raise ValueError('SiameseDataset: pos_ratio={} asks for '
                                 'negative pairs but every label of '
                                 'dataset_0 is the only label of dataset_1'
                                 .format(pos_ratio))
            self._labels_1 = labels_1
        self.add_getter(('img_0', 'label_0', 'img_1', 'label_1'),
                        self._get_pair)

    def __len__(self):
        return self._length

    def _draw_indices(self):
        if self._pos_ratio is None:
            return (numpy.random.randint(len(self._dataset_0)),
                    numpy.random.randint(len(self._dataset_1)))
        if numpy.random.rand() < self._pos_ratio:
            label = self._positive_labels[
                numpy.random.randint(len(self._positive_labels))]
            return (numpy.random.choice(self._indices_0[label]),
                    numpy.random.choice(self._indices_1[label]))
        while True:
            labels = list(self._indices_0)
            label = labels[numpy.random.randint(len(labels))]
            others = numpy.flatnonzero(self._labels_1 != label)
            if len(others):
                return (numpy.random.choice(self._indices_0[label]),
                        numpy.random.choice(others))

    def _get_pair(self, i):
        index_0, index_1 = self._draw_indices()
        img_0, label_0 = self._dataset_0[int(index_0)]
        img_1, label_1 = self._dataset_1[int(index_1)]
        return img_0, label_0, img_1, label_1
