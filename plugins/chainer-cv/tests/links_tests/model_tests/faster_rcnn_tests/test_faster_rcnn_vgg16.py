import numpy
import pytest

import chainer_core
from chainer_core import initializers
from chainer_core import serializers

from chainer_cv.links.model.faster_rcnn import FasterRCNNVGG16
from chainer_cv.links.model.faster_rcnn import VGG16RoIHead
from chainer_cv.links.model.faster_rcnn.faster_rcnn_vgg import \
    _roi_pooling_2d_yx
from chainer_cv.utils import assert_is_detection_link

# VGG-16 as published (Simonyan and Zisserman, 138,357,544 parameters)
# without fc8 (4096 * 1000 + 1000), plus the RPN (3x3 conv 512 -> 512,
# 1x1 convs to 18 scores and 36 offsets) and the head's outputs for 21
# classes (84 offsets and 21 scores from 4096).
_VGG16 = 138357544
_FC8 = 4096 * 1000 + 1000
_RPN = (512 * 512 * 9 + 512) + (512 * 18 + 18) + (512 * 36 + 36)
_HEAD_OUT = (4096 * 84 + 84) + (4096 * 21 + 21)


@pytest.fixture(scope='module')
def model():
    numpy.random.seed(0)
    # Uniform samples the 120M VGG weights faster than the default Normal.
    model = FasterRCNNVGG16(
        n_fg_class=20, min_size=64, max_size=96,
        vgg_initialW=initializers.Uniform(0.01),
        proposal_creator_params={'n_test_pre_nms': 200,
                                 'n_test_post_nms': 20})
    # The RPN's input channels are fixed; the extractor's first layer is
    # inferred on the first call.
    with chainer_core.using_config('train', False):
        model.extractor(numpy.zeros((1, 3, 32, 32), numpy.float32))
    return model


def test_parameter_count(model):
    count = sum(p.size for p in model.params())
    assert count == _VGG16 - _FC8 + _RPN + _HEAD_OUT == 137078239


def test_parameter_names(model):
    names = {name for name, _ in model.namedparams()}
    assert {'/extractor/conv1_1/conv/W', '/extractor/conv5_3/conv/b',
            '/rpn/conv1/W', '/rpn/score/W', '/rpn/loc/b', '/head/fc6/W',
            '/head/fc7/b', '/head/cls_loc/W', '/head/score/b'} <= names
    assert not any(name.startswith('/extractor/fc') for name in names)
    assert model.head.fc6.W.shape == (4096, 25088)
    assert model.head.cls_loc.W.shape == (84, 4096)
    assert model.rpn.score.W.shape == (18, 512, 1, 1)
    assert model.n_class == 21


def test_predict(model, device):
    _check_predict(model, device, 'evaluate')


def test_predict_visualize_keeps_only_confident_boxes(model):
    _check_predict(model, '@numpy', 'visualize')


def _check_predict(model, device, preset):
    imgs = [numpy.random.RandomState(1).uniform(
        0, 255, (3, H, W)).astype(numpy.float32)
        for H, W in ((101, 77), (64, 129))]
    model.to_device(device)
    try:
        model.use_preset(preset)
        if preset == 'evaluate':
            # Random weights score every class near 1/21.
            model.score_thresh = 0.
        bboxes, labels, scores = model.predict(imgs)
    finally:
        model.use_preset('visualize')
        model.to_device('@numpy')
    assert len(bboxes) == len(labels) == len(scores) == 2
    for img, bbox, label, score in zip(imgs, bboxes, labels, scores):
        assert isinstance(bbox, numpy.ndarray)
        assert bbox.dtype == numpy.float32 and bbox.shape[1:] == (4,)
        assert label.dtype == numpy.int32 and label.shape == (len(bbox),)
        assert score.dtype == numpy.float32 and score.shape == (len(bbox),)
        assert numpy.all(bbox >= 0)
        assert numpy.all(bbox[:, 0::2] <= img.shape[1])
        assert numpy.all(bbox[:, 1::2] <= img.shape[2])
        assert numpy.all((0 <= label) & (label < 20))
        if preset == 'visualize':
            assert len(bbox) == 0
        else:
            assert len(bbox) > 0


def test_is_a_detection_link(model):
    model.use_preset('evaluate')
    model.score_thresh = 0.
    try:
        assert_is_detection_link(model, 20)
    finally:
        model.use_preset('visualize')


def test_prepare_scales_and_subtracts_the_mean(model):
    img = numpy.full((3, 40, 200), 128, numpy.float32)
    out = model.prepare(img)
    # The shorter side would be 64, but the longer side is capped at 96.
    assert out.shape == (3, 19, 96)
    numpy.testing.assert_allclose(out[:, 0, 0], 128 - model.mean.ravel(),
                                  rtol=1e-5)


def test_use_preset_rejects_unknown(model):
    with pytest.raises(ValueError):
        model.use_preset('fast')


@pytest.mark.slow
def test_npz_round_trip(model, tmp_path):
    path = str(tmp_path / 'frcnn.npz')
    serializers.save_npz(path, model, compression=False)
    other = FasterRCNNVGG16(pretrained_model=path, n_fg_class=20)
    for (name, a), (_, b) in zip(sorted(model.namedparams()),
                                 sorted(other.namedparams())):
        numpy.testing.assert_array_equal(a.array, b.array, err_msg=name)


@pytest.mark.parametrize('name', ['voc07', 'voc0712', 'imagenet'])
def test_known_weights_are_not_downloaded(tmp_path, name):
    root = chainer_core.dataset.get_dataset_root()
    chainer_core.dataset.set_dataset_root(str(tmp_path))
    try:
        with pytest.raises(FileNotFoundError) as e:
            FasterRCNNVGG16(n_fg_class=20, pretrained_model=name)
    finally:
        chainer_core.dataset.set_dataset_root(root)
    assert str(tmp_path) in str(e.value)


def test_known_weights_fix_n_fg_class():
    with pytest.raises(ValueError):
        FasterRCNNVGG16(n_fg_class=5, pretrained_model='voc0712')


def test_n_fg_class_is_required():
    with pytest.raises(ValueError):
        FasterRCNNVGG16()


def test_roi_head_pools_yx_boxes():
    head = VGG16RoIHead(3, roi_size=7, spatial_scale=1.,
                        vgg_initialW=initializers.Zero())
    x = numpy.zeros((2, 512, 10, 12), numpy.float32)
    # A single hot cell at (y, x) = (2, 9) of the second image.
    x[1, :, 2, 9] = 1.
    rois = numpy.array([[0, 7, 5, 11], [0, 0, 5, 5]], numpy.float32)
    indices = numpy.array([1, 1], numpy.int32)
    pool = _roi_pooling_2d_yx(x, rois, indices, 7, 7, 1.).array
    assert pool.shape == (2, 512, 7, 7)
    assert pool[0].max() == 1 and pool[1].max() == 0
    loc, score = head(x, rois, indices)
    assert loc.shape == (2, 12) and score.shape == (2, 3)
