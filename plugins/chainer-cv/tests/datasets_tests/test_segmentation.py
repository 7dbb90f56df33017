import numpy
import pytest

from chainer_cv.datasets import ade20k_semantic_segmentation_label_names
from chainer_cv.datasets import ADE20KSemanticSegmentationDataset
from chainer_cv.datasets import camvid_label_names
from chainer_cv.datasets import CamVidDataset
from chainer_cv.datasets import cityscapes_semantic_segmentation_label_names
from chainer_cv.datasets import CityscapesSemanticSegmentationDataset


def _check(dataset, shape):
    assert dataset.keys == ('img', 'label')
    img, label = dataset[0]
    assert img.shape == (3,) + shape and img.dtype == numpy.float32
    assert label.shape == shape and label.dtype == numpy.int32
    return label


def test_camvid(tmp_path, write_image, write_label, write_text, random_rgb):
    label = numpy.arange(24).reshape(4, 6) % 12
    for split in ('train', 'test'):
        write_image(str(tmp_path / split / 'a.png'), random_rgb(0, 4, 6))
        write_label(str(tmp_path / (split + 'annot') / 'a.png'), label)
        write_text(str(tmp_path / (split + '.txt')),
                   '/SegNet/CamVid/{0}/a.png /SegNet/CamVid/{0}annot/a.png\n'
                   .format(split))
    dataset = CamVidDataset(str(tmp_path), split='test')
    got = _check(dataset, (4, 6))
    expected = numpy.where(label == 11, -1, label)
    numpy.testing.assert_array_equal(got, expected)
    assert len(camvid_label_names) == 11
    with pytest.raises(ValueError, match="CamVidDataset: split .*'eval'"):
        CamVidDataset(str(tmp_path), split='eval')
    with pytest.raises(FileNotFoundError, match='val.txt is missing'):
        CamVidDataset(str(tmp_path), split='val')


def test_cityscapes(tmp_path, write_image, write_label, random_rgb):
    label_ids = numpy.array([[0, 7, 8, 11], [26, 33, 255, 9]])
    stem = 'aachen_000000_000019'
    write_image(str(tmp_path / 'leftImg8bit' / 'train' / 'aachen' /
                    (stem + '_leftImg8bit.png')), random_rgb(0, 2, 4))
    write_label(str(tmp_path / 'gtFine' / 'train' / 'aachen' /
                    (stem + '_gtFine_labelIds.png')), label_ids)
    dataset = CityscapesSemanticSegmentationDataset(
        str(tmp_path), label_resolution='fine')
    label = _check(dataset, (2, 4))
    names = cityscapes_semantic_segmentation_label_names
    numpy.testing.assert_array_equal(label, [
        [-1, names.index('road'), names.index('sidewalk'),
         names.index('building')],
        [names.index('car'), names.index('bicycle'), -1, -1]])
    raw = CityscapesSemanticSegmentationDataset(
        str(tmp_path), label_resolution='fine', ignore_labels=False)
    numpy.testing.assert_array_equal(raw[0][1], label_ids)
    with pytest.raises(ValueError, match="label_resolution .*None"):
        CityscapesSemanticSegmentationDataset(str(tmp_path))
    with pytest.raises(FileNotFoundError, match='gtCoarse'):
        CityscapesSemanticSegmentationDataset(str(tmp_path),
                                              label_resolution='coarse')


def test_ade20k(tmp_path, write_image, write_label, random_rgb):
    base = tmp_path / 'ADEChallengeData2016'
    label = numpy.array([[0, 1, 150], [3, 0, 2]])
    write_image(str(base / 'images' / 'validation' / 'ADE_val_1.jpg'),
                random_rgb(0, 2, 3))
    write_label(str(base / 'annotations' / 'validation' / 'ADE_val_1.png'),
                label)
    dataset = ADE20KSemanticSegmentationDataset(str(tmp_path), split='val')
    assert len(dataset) == 1
    numpy.testing.assert_array_equal(_check(dataset, (2, 3)), label - 1)
    assert len(ade20k_semantic_segmentation_label_names) == 150
    with pytest.raises(FileNotFoundError, match='training'):
        ADE20KSemanticSegmentationDataset(str(tmp_path), split='train')
