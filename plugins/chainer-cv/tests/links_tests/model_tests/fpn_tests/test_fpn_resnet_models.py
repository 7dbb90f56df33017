import os

import numpy
import pytest

import chainer_core
from chainer_core import serializers

from chainer_cv.links.model import _pretrained
from chainer_cv.links.model.fpn import FasterRCNNFPNResNet101
from chainer_cv.links.model.fpn import FasterRCNNFPNResNet50
from chainer_cv.links.model.fpn import MaskRCNNFPNResNet101
from chainer_cv.links.model.fpn import MaskRCNNFPNResNet50
from chainer_cv.links.model.resnet import ResNet50
from chainer_cv.utils import assert_is_detection_link

# ResNet-50 and -101 as published (25,557,032 and 44,549,160 parameters,
# batch normalization's scales and shifts included) without the
# classifier (2048 * 1000 + 1000), plus the bias of conv1 in the 'he'
# layout.
_R50 = 25557032 - 2049000 + 64
_R101 = 44549160 - 2049000 + 64
# Lateral 1x1 convolutions from 256, 512, 1024 and 2048 channels to 256,
# and four 3x3 output convolutions 256 -> 256.
_FPN = (256 + 512 + 1024 + 2048) * 256 + 4 * 256 + 4 * (256 * 256 * 9 + 256)
# A shared 3x3 convolution, offsets and logits of 3 anchors.
_RPN = (256 * 256 * 9 + 256) + (256 * 12 + 12) + (256 * 3 + 3)
# 7x7x256 -> 1024 -> 1024, then 81 * 4 offsets and 81 logits.
_BBOX = (12544 * 1024 + 1024) + (1024 * 1024 + 1024) + \
    (1024 * 324 + 324) + (1024 * 81 + 81)
# Four 3x3 convolutions 256 -> 256, a 2x2 deconvolution, 81 mask logits.
_MASK = 4 * (256 * 256 * 9 + 256) + (256 * 256 * 4 + 256) + (256 * 81 + 81)

# torchvision's maskrcnn_resnet50_fpn has 44,401,393 parameters: it
# freezes batch normalization into buffers (-53,120 parameters here are
# its scales and shifts), has no bias in conv1 (-64) and 91 classes
# (each class has 1025 parameters in the logits, 4 * 1025 in the offsets
# and 257 in the masks).
_TORCHVISION_MASK_RCNN_R50 = 44401393
_BN_AFFINE_R50 = 53120


def _initialized(model):
    # The backbone infers its input channels at the first call.
    with chainer_core.using_config('train', False), \
            chainer_core.no_backprop_mode():
        model.extractor(numpy.zeros((1, 3, 64, 64), numpy.float32))
    return model


def _count(model):
    return sum(p.size for p in model.params())


@pytest.fixture(scope='module')
def coco_mask_rcnn():
    return _initialized(MaskRCNNFPNResNet50(n_fg_class=80))


def test_parameter_counts_r50(coco_mask_rcnn):
    mask_rcnn = coco_mask_rcnn
    assert _count(mask_rcnn) == _R50 + _FPN + _RPN + _BBOX + _MASK \
        == 44400757
    assert _count(mask_rcnn) == _TORCHVISION_MASK_RCNN_R50 + \
        _BN_AFFINE_R50 + 64 - 10 * (1025 + 4 * 1025 + 257)
    faster_rcnn = _initialized(FasterRCNNFPNResNet50(n_fg_class=80))
    assert _count(faster_rcnn) == _R50 + _FPN + _RPN + _BBOX == 41757220


def test_parameter_counts_r101():
    assert _count(_initialized(MaskRCNNFPNResNet101(n_fg_class=80))) == \
        _R101 + _FPN + _RPN + _BBOX + _MASK == 63392885
    assert _count(_initialized(FasterRCNNFPNResNet101(n_fg_class=80))) == \
        _R101 + _FPN + _RPN + _BBOX == 60749348


def test_parameter_names_and_shapes_as_chainercv(coco_mask_rcnn):
    model = coco_mask_rcnn
    params = dict(model.namedparams())
    shapes = {
        '/extractor/base/conv1/conv/W': (64, 3, 7, 7),
        '/extractor/base/conv1/conv/b': (64,),
        '/extractor/base/conv1/bn/gamma': (64,),
        '/extractor/base/res2/a/conv1/conv/W': (64, 64, 1, 1),
        '/extractor/base/res3/a/residual_conv/conv/W': (512, 256, 1, 1),
        '/extractor/base/res5/b2/conv3/bn/beta': (2048,),
        '/extractor/inner/0/W': (256, 256, 1, 1),
        '/extractor/inner/3/W': (256, 2048, 1, 1),
        '/extractor/outer/2/b': (256,),
        '/rpn/conv/W': (256, 256, 3, 3),
        '/rpn/loc/W': (12, 256, 1, 1),
        '/rpn/conf/b': (3,),
        '/bbox_head/fc1/W': (1024, 12544),
        '/bbox_head/fc2/b': (1024,),
        '/bbox_head/loc/W': (324, 1024),
        '/bbox_head/conf/W': (81, 1024),
        '/mask_head/conv1/conv/W': (256, 256, 3, 3),
        '/mask_head/conv4/conv/b': (256,),
        '/mask_head/conv5/W': (256, 256, 2, 2),
        '/mask_head/seg/W': (81, 256, 1, 1),
    }
    for name, shape in shapes.items():
        assert params[name].shape == shape, name
    assert not any(name.startswith('/extractor/base/fc6')
                   for name in params)
    faster = FasterRCNNFPNResNet50(n_fg_class=80)
    assert not any(name.startswith('/mask_head')
                   for name, _ in faster.namedparams())


@pytest.fixture(scope='module')
def small_models():
    # Few classes and proposals keep prediction quick with random weights.
    numpy.random.seed(0)
    models = []
    for cls in (FasterRCNNFPNResNet50, MaskRCNNFPNResNet50):
        model = cls(n_fg_class=3, min_size=64, max_size=96)
        model.rpn.test_nms_limit_pre = 100
        model.rpn.test_nms_limit_post = 10
        # An untrained ResNet's features reach ~1e4, so random offsets
        # would throw every box out of the image; with none, the
        # proposals are the anchors and the detections the proposals.
        for link in (model.rpn.loc, model.bbox_head.loc):
            link.W.array[:] = 0
            link.b.array[:] = 0
        models.append(model)
    return models


def _images():
    rng = numpy.random.RandomState(1)
    return [rng.uniform(0, 255, (3, H, W)).astype(numpy.float32)
            for H, W in ((101, 77), (63, 129))]


def _check_detections(imgs, bboxes, labels, scores):
    assert len(bboxes) == len(labels) == len(scores) == len(imgs)
    for img, bbox, label, score in zip(imgs, bboxes, labels, scores):
        assert isinstance(bbox, numpy.ndarray)
        assert bbox.dtype == numpy.float32 and bbox.shape == (len(label), 4)
        assert label.dtype == numpy.int32 and score.dtype == numpy.float32
        assert score.shape == label.shape
        assert numpy.all((0 <= label) & (label < 3))
        assert numpy.all(bbox >= 0)
        assert numpy.all(bbox[:, 0::2] <= img.shape[1])
        assert numpy.all(bbox[:, 1::2] <= img.shape[2])


def test_faster_rcnn_predict(small_models, device):
    model = small_models[0]
    imgs = _images()
    model.to_device(device)
    try:
        model.use_preset('evaluate')
        model.score_thresh = 0.
        bboxes, labels, scores = model.predict(imgs)
    finally:
        model.use_preset('visualize')
        model.to_device('@numpy')
    _check_detections(imgs, bboxes, labels, scores)
    assert all(len(label) > 0 for label in labels)


def test_mask_rcnn_predict(small_models, device):
    model = small_models[1]
    imgs = _images()
    model.to_device(device)
    old = model.return_values
    try:
        model.use_preset('evaluate')
        model.score_thresh = 0.
        model.return_values = ['bboxes', 'labels', 'scores', 'masks']
        bboxes, labels, scores, masks = model.predict(imgs)
    finally:
        model.return_values = old
        model.use_preset('visualize')
        model.to_device('@numpy')
    _check_detections(imgs, bboxes, labels, scores)
    for img, mask, label in zip(imgs, masks, labels):
        assert isinstance(mask, numpy.ndarray) and mask.dtype == bool
        assert mask.shape == (len(label),) + img.shape[1:]
        assert len(label) > 0


def test_mask_rcnn_returns_masks_labels_scores_by_default(small_models):
    imgs = _images()[:1]
    out = small_models[1].predict(imgs)
    assert len(out) == 3 and out[0][0].shape[1:] == imgs[0].shape[1:]


def test_prepare_pads_to_the_stride(small_models):
    model = small_models[0]
    x, scales = model.prepare(_images())
    # 101x77 -> 83x64, 63x129 -> 46x96 (capped by max_size), padded.
    assert x.shape == (2, 3, 96, 96)
    assert scales[0] == pytest.approx(64 / 77)
    assert scales[1] == pytest.approx(96 / 129)
    assert numpy.all(x[1, :, 47:] == 0)


def test_rois_in_the_image(small_models):
    model = small_models[0]
    imgs = _images()
    old = model.return_values
    model.return_values = ['rois']
    try:
        rois, = model.predict(imgs)
    finally:
        model.return_values = old
    for img, roi in zip(imgs, rois):
        assert 0 < len(roi) <= 10 and numpy.all(roi >= 0)


def test_is_a_detection_link(small_models):
    model = small_models[0]
    model.use_preset('evaluate')
    model.score_thresh = 0.
    try:
        assert_is_detection_link(model, 3)
    finally:
        model.use_preset('visualize')


def test_use_preset():
    model = FasterRCNNFPNResNet50(n_fg_class=1)
    assert (model.nms_thresh, model.score_thresh) == (0.5, 0.7)
    model.use_preset('evaluate')
    assert (model.nms_thresh, model.score_thresh) == (0.5, 0.05)
    assert (model.min_size, model.max_size) == (800, 1333)
    with pytest.raises(ValueError):
        model.use_preset('fast')


@pytest.mark.parametrize('cls', [
    FasterRCNNFPNResNet50, FasterRCNNFPNResNet101, MaskRCNNFPNResNet50,
    MaskRCNNFPNResNet101])
@pytest.mark.parametrize('name', ['coco', 'imagenet'])
def test_known_weights_are_not_downloaded(tmp_path, cls, name):
    root = chainer_core.dataset.get_dataset_root()
    chainer_core.dataset.set_dataset_root(str(tmp_path))
    try:
        with pytest.raises(FileNotFoundError) as e:
            cls(n_fg_class=80, pretrained_model=name)
    finally:
        chainer_core.dataset.set_dataset_root(root)
    assert os.path.join(str(tmp_path), 'pfnet', 'chainercv', 'models') in \
        str(e.value)


def test_known_weights_fix_n_fg_class():
    with pytest.raises(ValueError):
        MaskRCNNFPNResNet50(n_fg_class=5, pretrained_model='coco')


def test_n_fg_class_is_required():
    with pytest.raises(ValueError):
        FasterRCNNFPNResNet50()


@pytest.mark.slow
def test_npz_round_trip(coco_mask_rcnn, tmp_path):
    model = coco_mask_rcnn
    path = str(tmp_path / 'mask_rcnn.npz')
    serializers.save_npz(path, model, compression=False)
    other = MaskRCNNFPNResNet50(n_fg_class=80, pretrained_model=path)
    for (name, a), (_, b) in zip(sorted(model.namedparams()),
                                 sorted(other.namedparams())):
        numpy.testing.assert_array_equal(a.array, b.array, err_msg=name)
    # A Faster R-CNN reads the same file, without the mask head.
    faster = FasterRCNNFPNResNet50(n_fg_class=80, pretrained_model=path)
    numpy.testing.assert_array_equal(faster.bbox_head.fc1.W.array,
                                     model.bbox_head.fc1.W.array)


@pytest.mark.slow
def test_imagenet_weights_fill_the_backbone(tmp_path):
    resnet = ResNet50(arch='he')
    with chainer_core.using_config('train', False):
        resnet(numpy.zeros((1, 3, 64, 64), numpy.float32))
    resnet.res3.a.conv1.bn.avg_mean[:] = 0.5
    root = chainer_core.dataset.get_dataset_root()
    chainer_core.dataset.set_dataset_root(str(tmp_path))
    try:
        path = _pretrained.local_path(
            'resnet50_imagenet_converted_2018_03_07.npz')
        os.makedirs(os.path.dirname(path))
        serializers.save_npz(path, resnet, compression=False)
        model = FasterRCNNFPNResNet50(n_fg_class=4,
                                      pretrained_model='imagenet')
    finally:
        chainer_core.dataset.set_dataset_root(root)
    base = model.extractor.base
    numpy.testing.assert_array_equal(base.res4.b3.conv2.conv.W.array,
                                     resnet.res4.b3.conv2.conv.W.array)
    numpy.testing.assert_array_equal(base.res3.a.conv1.bn.avg_mean, 0.5)
    assert model.bbox_head.conf.W.shape == (5, 1024)
