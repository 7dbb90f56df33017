import numpy
import pytest

from chainer_cv.datasets import shapes_label_names
from chainer_cv.datasets import shapes_semantic_segmentation_label_names
from chainer_cv.datasets import ShapesDataset


def test_keys_shapes_and_dtypes():
    dataset = ShapesDataset(n_example=5, size=(40, 50), return_mask=True,
                            return_label_map=True)
    assert dataset.keys == ('img', 'bbox', 'label', 'mask', 'label_map')
    assert len(dataset) == 5
    img, bbox, label, mask, label_map = dataset[0]
    assert img.shape == (3, 40, 50) and img.dtype == numpy.float32
    assert img.min() >= 0 and img.max() <= 255
    assert bbox.dtype == numpy.float32 and bbox.shape == (len(label), 4)
    assert label.dtype == numpy.int32
    assert ((0 <= label) & (label < len(shapes_label_names))).all()
    assert mask.shape == (len(label), 40, 50) and mask.dtype == bool
    assert label_map.shape == (40, 50) and label_map.dtype == numpy.int32
    assert shapes_semantic_segmentation_label_names[0] == 'background'
    assert ShapesDataset(n_example=1).keys == ('img', 'bbox', 'label')


def test_deterministic_under_seed():
    first = ShapesDataset(n_example=6, seed=3, return_mask=True)
    second = ShapesDataset(n_example=6, seed=3, return_mask=True)
    # The order of access does not matter.
    for a, b in zip([first[i] for i in range(6)],
                    [second[i] for i in reversed(range(6))][::-1]):
        for x, y in zip(a, b):
            numpy.testing.assert_array_equal(x, y)
    other = ShapesDataset(n_example=6, seed=4)
    assert any(not numpy.array_equal(first[i][0], other[i][0])
               for i in range(6))


def test_boxes_enclose_masks_and_label_map_agrees():
    dataset = ShapesDataset(n_example=20, n_shape=(2, 5), seed=1,
                            return_mask=True, return_label_map=True)
    seen = set()
    for img, bbox, label, mask, label_map in dataset:
        assert len(label) >= 1
        assert not (mask.sum(0) > 1).any()
        for box, m, lb in zip(bbox, mask, label):
            rows, cols = numpy.nonzero(m)
            numpy.testing.assert_array_equal(
                box, [rows.min(), cols.min(), rows.max() + 1,
                      cols.max() + 1])
            assert (label_map[m] == lb + 1).all()
            # A shape is one colour, unlike the noisy background.
            assert numpy.ptp(img[:, m], axis=1).max() == 0
            seen.add(int(lb))
        assert (label_map[~mask.any(0)] == 0).all()
    assert seen == {0, 1, 2}


def test_bad_arguments():
    with pytest.raises(ValueError, match='ShapesDataset.*min_size'):
        ShapesDataset(size=(10, 10), min_size=20)
    with pytest.raises(IndexError):
        ShapesDataset(n_example=2)[2]
