import numpy
import pytest

from chainer_cv.chainer_experimental.datasets.sliceable import TupleDataset
from chainer_cv.datasets import MixUpSoftLabelDataset
from chainer_cv.datasets import SiameseDataset


def _labelled(n, n_class):
    # Each image is filled with its label, so that a pair can be checked.
    labels = numpy.arange(n, dtype=numpy.int32) % n_class
    images = numpy.repeat(labels.astype(numpy.float32), 4).reshape(n, 1, 2, 2)
    return TupleDataset(('img', images), ('label', labels))


def test_mixup_soft_label():
    numpy.random.seed(0)
    dataset = MixUpSoftLabelDataset(_labelled(6, 3), 3, alpha=0.5)
    assert dataset.keys == ('img', 'label')
    assert len(dataset) == 6
    ratios = []
    for _ in range(200):
        img, label = dataset[1]
        assert label.shape == (3,) and label.dtype == numpy.float32
        assert img.dtype == numpy.float32
        numpy.testing.assert_allclose(label.sum(), 1, rtol=1e-6)
        # The image mixes the labels as the soft label says.
        numpy.testing.assert_allclose(img, label @ numpy.arange(3),
                                      rtol=1e-5)
        ratios.append(label[1])
    # Beta(0.5, 0.5) on the own label, plus 1/3 of the rest on a match.
    assert 0.5 < numpy.mean(ratios) < 0.8
    numpy.random.seed(1)
    first = dataset[2]
    numpy.random.seed(1)
    numpy.testing.assert_array_equal(dataset[2][1], first[1])
    with pytest.raises(ValueError, match='alpha'):
        MixUpSoftLabelDataset(_labelled(2, 2), 2, alpha=0)


def test_siamese_pos_ratio():
    numpy.random.seed(0)
    dataset = SiameseDataset(_labelled(20, 4), _labelled(12, 4),
                             pos_ratio=0.3, length=7)
    assert dataset.keys == ('img_0', 'label_0', 'img_1', 'label_1')
    assert len(dataset) == 7
    same = []
    for _ in range(2000):
        img_0, label_0, img_1, label_1 = dataset[0]
        assert (img_0 == label_0).all() and (img_1 == label_1).all()
        same.append(label_0 == label_1)
    assert abs(numpy.mean(same) - 0.3) < 0.04


def test_siamese_uniform_and_given_labels():
    numpy.random.seed(0)
    base = _labelled(8, 2)
    dataset = SiameseDataset(base, base)
    assert len(dataset) == 8
    same = [example[1] == example[3] for example in
            (dataset[0] for _ in range(1000))]
    assert abs(numpy.mean(same) - 0.5) < 0.06
    always = SiameseDataset(base, base, pos_ratio=1,
                            labels_0=numpy.arange(8) % 2,
                            labels_1=numpy.arange(8) % 2)
    assert all(e[1] == e[3] for e in (always[0] for _ in range(50)))


def test_siamese_impossible_pairs():
    with pytest.raises(ValueError, match='share no label'):
        SiameseDataset(_labelled(2, 2), _labelled(1, 1).slice[[0]],
                       pos_ratio=0.5, labels_0=[1, 1])
    with pytest.raises(ValueError, match='negative pairs'):
        SiameseDataset(_labelled(1, 1), _labelled(3, 1), pos_ratio=0.5)
