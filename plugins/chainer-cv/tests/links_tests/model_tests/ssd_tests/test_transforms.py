"""SSD's augmentation: constrained crops, colour distortion, random
interpolation and the training transform."""
import numpy
import pytest

from chainer_cv.datasets import ShapesDataset
from chainer_cv.links.model.ssd import random_crop_with_bbox_constraints
from chainer_cv.links.model.ssd import random_distort
from chainer_cv.links.model.ssd import resize_with_random_interpolation
from chainer_cv.links.model.ssd import TinySSD
from chainer_cv.links.model.ssd import TrainTransform
from chainer_cv.utils import bbox_iou


def _img(H=80, W=120):
    return numpy.random.RandomState(0).uniform(
        0, 255, (3, H, W)).astype(numpy.float32)


@pytest.mark.parametrize('seed', range(10))
def test_crop_meets_its_constraint(seed):
    numpy.random.seed(seed)
    img = _img()
    bbox = numpy.array([[10, 20, 50, 70], [30, 60, 75, 110]], numpy.float32)
    out, param = random_crop_with_bbox_constraints(
        img, bbox, return_param=True)
    numpy.testing.assert_array_equal(
        out, img[:, param['y_slice'], param['x_slice']])
    if param['constraint'] is None:
        assert out.shape == img.shape
        return
    min_iou, max_iou = param['constraint']
    ys, xs = param['y_slice'], param['x_slice']
    crop = numpy.array([[ys.start, xs.start, ys.stop, xs.stop]], float)
    iou = bbox_iou(bbox, crop)
    assert min_iou <= iou.min() and iou.max() <= max_iou
    scale_area = out.shape[1] * out.shape[2] / (80 * 120)
    assert 0.3 ** 2 * 0.9 <= scale_area <= 1


def test_crop_without_boxes_keeps_the_image():
    img = _img()
    out, param = random_crop_with_bbox_constraints(
        img, numpy.zeros((0, 4), numpy.float32), return_param=True)
    assert param['constraint'] is None and out.shape == img.shape


def test_crop_draws_several_constraints():
    numpy.random.seed(0)
    bbox = numpy.array([[10, 20, 50, 70]], numpy.float32)
    constraints = {random_crop_with_bbox_constraints(
        _img(), bbox, return_param=True)[1]['constraint']
        for _ in range(50)}
    assert len(constraints) > 3


def test_distort_stays_in_range_and_changes_colours():
    numpy.random.seed(0)
    img = _img(20, 30)
    changed = 0
    for _ in range(10):
        out = random_distort(img)
        assert out.shape == img.shape and out.dtype == numpy.float32
        assert out.min() >= 0 and out.max() <= 255 + 1e-3
        changed += not numpy.allclose(out, img, atol=1e-3)
    assert changed >= 5


def test_distort_without_changes_is_the_identity():
    img = _img(10, 12)
    out = random_distort(img, brightness_delta=0, contrast_low=1,
                         contrast_high=1, saturation_low=1,
                         saturation_high=1, hue_delta=1)
    # hue_delta 1 draws a shift in [-1, 1): only 0 or -1 units.
    assert out.shape == img.shape
    grey = numpy.full((3, 4, 5), 77, numpy.float32)
    numpy.testing.assert_allclose(random_distort(grey, brightness_delta=0,
                                                 contrast_low=1,
                                                 contrast_high=1), 77,
                                  atol=1e-3)


def test_resize_with_random_interpolation():
    numpy.random.seed(0)
    used = set()
    for _ in range(30):
        out, param = resize_with_random_interpolation(
            _img(), (33, 47), return_param=True)
        assert out.shape == (3, 33, 47)
        used.add(param['interpolation'])
    assert len(used) == 4


def test_train_transform():
    numpy.random.seed(0)
    model = TinySSD(n_fg_class=3, insize=64)
    transform = TrainTransform(model.coder, 64, model.mean)
    dataset = ShapesDataset(10, size=(80, 96), seed=1)
    n_positive = 0
    for example in dataset:
        img, mb_loc, mb_label = transform(example)
        assert img.shape == (3, 64, 64) and img.dtype == numpy.float32
        assert mb_loc.shape == (len(model.coder.default_bbox), 4)
        assert mb_label.max() <= 3
        n_positive += (mb_label > 0).sum()
    assert n_positive > 10
