import json

import numpy
import pytest

from chainer_cv.datasets import coco_bbox_label_names
from chainer_cv.datasets import COCOBboxDataset
from chainer_cv.datasets import COCOInstanceSegmentationDataset
from chainer_cv.datasets._masks import decode_rle_counts
from chainer_cv.datasets._masks import polygon_to_mask
from chainer_cv.datasets._masks import rle_to_mask


def _runs(mask):
    flat = mask.T.ravel()
    runs, value, count = [], False, 0
    for v in flat:
        if v != value:
            runs.append(count)
            value, count = v, 0
        count += 1
    runs.append(count)
    return runs


def _compress(runs):
    """COCO's string form of run lengths (the inverse of the decoder)."""
    out = []
    for i, run in enumerate(runs):
        value = run - runs[i - 2] if i > 2 else run
        more = True
        while more:
            group = value & 0x1f
            value >>= 5
            more = not ((value == 0 and not group & 0x10) or
                        (value == -1 and group & 0x10))
            out.append(chr(group + (0x20 if more else 0) + 48))
    return ''.join(out)


def test_rle_round_trip():
    rng = numpy.random.RandomState(0)
    mask = rng.rand(7, 9) > 0.6
    runs = _runs(mask)
    assert decode_rle_counts(_compress(runs)) == runs
    for counts in (runs, _compress(runs)):
        numpy.testing.assert_array_equal(
            rle_to_mask({'size': [7, 9], 'counts': counts}, 7, 9), mask)
    with pytest.raises(ValueError, match='cover'):
        rle_to_mask({'size': [7, 9], 'counts': [3, 4]}, 7, 9)


def test_polygon_to_mask():
    square = polygon_to_mask([[2, 1], [6, 1], [6, 4], [2, 4]], 6, 8)
    expected = numpy.zeros((6, 8), dtype=bool)
    expected[1:4, 2:6] = True
    numpy.testing.assert_array_equal(square, expected)
    triangle = polygon_to_mask([[0, 0], [8, 0], [0, 8]], 8, 8)
    # Centres on the hypotenuse count as inside.
    assert triangle.sum() == 36 and triangle[0, 0] and not triangle[7, 7]


@pytest.fixture
def coco_dir(tmp_path, write_image, random_rgb):
    write_image(str(tmp_path / 'images' / 'val2017' / 'a.jpg'),
                random_rgb(0, 10, 12))
    write_image(str(tmp_path / 'images' / 'val2017' / 'b.jpg'),
                random_rgb(1, 6, 5))
    crowd = numpy.zeros((10, 12), dtype=bool)
    crowd[5:9, 6:11] = True
    data = {
        'images': [{'id': 7, 'file_name': 'a.jpg', 'height': 10,
                    'width': 12},
                   {'id': 9, 'file_name': 'b.jpg', 'height': 6, 'width': 5}],
        'categories': [{'id': 18, 'name': 'dog'}, {'id': 1, 'name': 'person'},
                       {'id': 3, 'name': 'car'}],
        'annotations': [
            {'id': 1, 'image_id': 7, 'category_id': 18, 'iscrowd': 0,
             'area': 12.0, 'bbox': [1, 2, 4, 3],
             'segmentation': [[1, 2, 5, 2, 5, 5, 1, 5]]},
            {'id': 2, 'image_id': 7, 'category_id': 3, 'iscrowd': 1,
             'area': 20.0, 'bbox': [6, 5, 5, 4],
             'segmentation': {'size': [10, 12],
                              'counts': _compress(_runs(crowd))}},
            # Reaches out of the image: clipped.
            {'id': 3, 'image_id': 7, 'category_id': 1, 'iscrowd': 0,
             'area': 4.0, 'bbox': [10, 8, 5, 5],
             'segmentation': [[10, 8, 12, 8, 12, 10, 10, 10]]},
            # Empty: dropped.
            {'id': 4, 'image_id': 7, 'category_id': 1, 'iscrowd': 0,
             'area': 0.0, 'bbox': [3, 3, 0, 2],
             'segmentation': [[3, 3, 3, 5, 3, 4]]},
        ]}
    (tmp_path / 'annotations').mkdir()
    (tmp_path / 'annotations' / 'instances_val2017.json').write_text(
        json.dumps(data))
    return str(tmp_path)


def test_coco_bbox(coco_dir):
    dataset = COCOBboxDataset(coco_dir, split='val')
    assert dataset.keys == ('img', 'bbox', 'label')
    assert len(dataset) == 2
    img, bbox, label = dataset[0]
    assert img.shape == (3, 10, 12) and img.dtype == numpy.float32
    numpy.testing.assert_array_equal(bbox, [[2, 1, 5, 5], [8, 10, 10, 12]])
    assert bbox.dtype == numpy.float32
    # Labels follow the order of the category ids: 1, 3, 18.
    numpy.testing.assert_array_equal(label, [2, 0])
    assert label.dtype == numpy.int32
    assert coco_bbox_label_names[0] == 'person'
    _, bbox, label = dataset[1]
    assert bbox.shape == (0, 4) and label.shape == (0,)


def test_coco_bbox_crowded(coco_dir):
    dataset = COCOBboxDataset(coco_dir, split='val', use_crowded=True,
                              return_area=True, return_crowded=True)
    assert dataset.keys == ('img', 'bbox', 'label', 'area', 'crowded')
    bbox, label, area, crowded = dataset.slice[
        :, ('bbox', 'label', 'area', 'crowded')][0]
    numpy.testing.assert_array_equal(label, [2, 1, 0])
    numpy.testing.assert_array_equal(bbox[1], [5, 6, 9, 11])
    numpy.testing.assert_array_equal(area, [12, 20, 4])
    assert area.dtype == numpy.float32
    numpy.testing.assert_array_equal(crowded, [False, True, False])


def test_coco_instance_segmentation(coco_dir):
    dataset = COCOInstanceSegmentationDataset(
        coco_dir, split='val', use_crowded=True, return_crowded=True,
        return_area=True, return_bbox=True)
    assert dataset.keys == ('img', 'mask', 'label', 'area', 'crowded',
                            'bbox')
    _, mask, label, _, crowded, bbox = dataset[0]
    assert mask.shape == (3, 10, 12) and mask.dtype == bool
    expected = numpy.zeros((10, 12), dtype=bool)
    expected[2:5, 1:5] = True
    numpy.testing.assert_array_equal(mask[0], expected)
    assert mask[1].sum() == 20 and mask[1, 5:9, 6:11].all()
    assert mask[2].sum() == 4 and mask[2, 8:10, 10:12].all()
    numpy.testing.assert_array_equal(crowded, [False, True, False])
    assert COCOInstanceSegmentationDataset(
        coco_dir, split='val')[1][1].shape == (0, 6, 5)


def test_coco_bad_input(coco_dir, tmp_path):
    with pytest.raises(ValueError,
                       match="COCOBboxDataset: split .*'minival'"):
        COCOBboxDataset(coco_dir, split='minival', year='2017')
    with pytest.raises(ValueError, match="year .*'2015'"):
        COCOBboxDataset(coco_dir, year='2015')
    with pytest.raises(FileNotFoundError,
                       match='instances_train2017.json is missing'):
        COCOBboxDataset(coco_dir, split='train')
    path = tmp_path / 'annotations' / 'instances_val2017.json'
    path.write_text('{"images": [')
    with pytest.raises(ValueError, match='COCOBboxDataset: cannot read'):
        COCOBboxDataset(coco_dir, split='val')
    path.write_text('{"images": []}')
    with pytest.raises(ValueError, match='lacks the expected COCO fields'):
        COCOBboxDataset(coco_dir, split='val')
    path.write_text(json.dumps({
        'images': [{'id': 1, 'file_name': '../../x.jpg', 'height': 2,
                    'width': 2}],
        'categories': [], 'annotations': []}))
    with pytest.raises(ValueError, match='leads out'):
        COCOBboxDataset(coco_dir, split='val')[0]
