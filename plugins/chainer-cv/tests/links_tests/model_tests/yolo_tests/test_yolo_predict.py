"""YOLO prediction: decoding of hand-built outputs, the letterbox and its
inverse, prediction on every device, presets, npz round trips and the
known weight names."""
import math
import os

import numpy
import pytest

import chainer_core
from chainer_core import serializers

from chainer_cv.links.model import yolo


def _sigmoid(x):
    return 1 / (1 + math.exp(-x))


def _images():
    rng = numpy.random.RandomState(0)
    return [rng.uniform(0, 255, (3, 123, 457)).astype(numpy.float32),
            rng.uniform(0, 255, (3, 301, 77)).astype(numpy.float32)]


@pytest.fixture
def tiny(yolo_model):
    return yolo_model(yolo.YOLOv2Tiny, 3)


@pytest.fixture
def yolov3(yolo_model):
    return yolo_model(yolo.YOLOv3, 20)


def _empty_outputs(model, batch=None):
    """Outputs where no box is an object: (locs, objs, confs)."""
    n_box = len(model._default_bbox)
    shape = () if batch is None else (batch,)
    return (numpy.zeros(shape + (n_box, 4), numpy.float32),
            numpy.full(shape + (n_box,), -30, numpy.float32),
            numpy.zeros(shape + (n_box, model.n_fg_class), numpy.float32))


def _tiny_index(v, u, anchor):
    return (v * 13 + u) * 5 + anchor


def test_yolov2_decode_one_confident_cell(tiny):
    loc, obj, conf = _empty_outputs(tiny)
    i = _tiny_index(4, 7, 2)
    loc[i] = (0.5, -1, math.log(0.5), 0.25)
    obj[i] = 30
    conf[i] = (0, 4, 1)
    bbox, label, score = tiny._decode(loc, obj, conf)

    # The cell is 32 pixels; the anchor (11.38, 6.63) is in cells.
    cy = (4 + _sigmoid(0.5)) * 32
    cx = (7 + _sigmoid(-1)) * 32
    h = 11.38 * 32 * 0.5
    w = 6.63 * 32 * math.exp(0.25)
    numpy.testing.assert_allclose(
        bbox, [[cy - h / 2, cx - w / 2, cy + h / 2, cx + w / 2]], rtol=1e-5)
    numpy.testing.assert_array_equal(label, [1])
    # The class probabilities are a softmax.
    numpy.testing.assert_allclose(
        score, [math.exp(4) / (1 + math.exp(4) + math.e)], rtol=1e-5)
    assert bbox.dtype == numpy.float32 and score.dtype == numpy.float32
    assert label.dtype == numpy.int32


def test_yolov3_decode_one_confident_cell(yolov3):
    loc, obj, conf = _empty_outputs(yolov3)
    # The second grid (26 x 26, cells of 16 pixels) follows the 13 x 13
    # one's 3 anchors per cell; its second anchor is (45, 62) pixels.
    i = 13 * 13 * 3 + (10 * 26 + 3) * 3 + 1
    loc[i] = (-0.5, 2, 0.1, math.log(2))
    obj[i] = 1
    conf[i] = -30
    conf[i, 2] = 2
    bbox, label, score = yolov3._decode(loc, obj, conf)

    cy = (10 + _sigmoid(-0.5)) * 16
    cx = (3 + _sigmoid(2)) * 16
    h = 45 * math.exp(0.1)
    w = 62 * 2
    numpy.testing.assert_allclose(
        bbox, [[cy - h / 2, cx - w / 2, cy + h / 2, cx + w / 2]],
        rtol=1e-5, atol=1e-4)
    numpy.testing.assert_array_equal(label, [2])
    # The class probabilities are independent sigmoids.
    numpy.testing.assert_allclose(score, [_sigmoid(1) * _sigmoid(2)],
                                  rtol=1e-5)


def test_decode_suppresses_within_a_class_only(tiny):
    loc, obj, conf = _empty_outputs(tiny)
    # The same anchor in neighbouring cells: boxes of IoU about 0.74.
    first, second = _tiny_index(4, 7, 2), _tiny_index(4, 8, 2)
    obj[[first, second]] = (3, 2)
    conf[[first, second], 0] = 30
    bbox, label, score = tiny._decode(loc, obj, conf)
    numpy.testing.assert_array_equal(label, [0])
    numpy.testing.assert_allclose(score, [_sigmoid(3)], rtol=1e-5)

    conf[second] = (0, 30, 0)
    bbox, label, score = tiny._decode(loc, obj, conf)
    numpy.testing.assert_array_equal(label, [0, 1])
    numpy.testing.assert_allclose(score, [_sigmoid(3), _sigmoid(2)],
                                  rtol=1e-5)

    tiny.nms_thresh = 0.8
    try:
        conf[second] = (30, 0, 0)
        bbox, label, score = tiny._decode(loc, obj, conf)
    finally:
        tiny.use_preset('visualize')
    numpy.testing.assert_array_equal(label, [0, 0])
    numpy.testing.assert_allclose(score, [_sigmoid(3), _sigmoid(2)],
                                  rtol=1e-5)


def test_decode_of_nothing(tiny):
    bbox, label, score = tiny._decode(*_empty_outputs(tiny))
    assert bbox.shape == (0, 4) and bbox.dtype == numpy.float32
    assert label.shape == (0,) and label.dtype == numpy.int32
    assert score.shape == (0,) and score.dtype == numpy.float32


def test_predict_maps_boxes_back_through_the_letterbox(monkeypatch):
    model = yolo.YOLOv2Tiny(n_fg_class=3)
    locs, objs, confs = _empty_outputs(model, batch=2)
    i = _tiny_index(6, 6, 0)
    objs[:, i] = 30
    confs[:, i] = (0, 0, 30)
    seen = []

    def forward(x):
        seen.append(numpy.asarray(x))
        return tuple(chainer_core.Variable(a) for a in (locs, objs, confs))
    monkeypatch.setattr(model, 'forward', forward)

    # The first image fits and is not enlarged; the second is halved to
    # (416, 250). Both sit at the centre of the 416 x 416 canvas.
    small = numpy.full((3, 208, 104), 255, numpy.float32)
    large = numpy.full((3, 832, 500), 255, numpy.float32)
    bboxes, labels, scores = model.predict([small, large])

    x, = seen
    assert x.shape == (2, 3, 416, 416) and x.dtype == numpy.float32
    numpy.testing.assert_array_equal(x[0, :, 104:312, 156:260], 1)
    assert (x[0, :, :104] == 0.5).all() and (x[0, :, :, :156] == 0.5).all()
    assert (x[0, :, 312:] == 0.5).all() and (x[0, :, :, 260:] == 0.5).all()
    numpy.testing.assert_allclose(x[1, :, :, 83:333], 1, rtol=1e-6)
    assert (x[1, :, :, :83] == 0.5).all() and (x[1, :, :, 333:] == 0.5).all()

    c = (6 + 0.5) * 32
    h, w = 1.19 * 32, 1.08 * 32
    on_canvas = numpy.array([c - h / 2, c - w / 2, c + h / 2, c + w / 2])
    numpy.testing.assert_allclose(
        bboxes[0], [on_canvas - 208 + [104, 52, 104, 52]], rtol=1e-5)
    numpy.testing.assert_allclose(
        bboxes[1], [(on_canvas - 208) * 2 + [416, 250, 416, 250]],
        rtol=1e-5)
    for label, score in zip(labels, scores):
        numpy.testing.assert_array_equal(label, [2])
        numpy.testing.assert_allclose(score, [1], rtol=1e-5)


def _check_predict(model, device):
    model.to_device(device)
    model.use_preset('evaluate')
    # Random weights score every box near 1 / (2 n_fg_class): a higher
    # threshold keeps the suppression quick.
    model.score_thresh = 0.5 / model.n_fg_class
    bboxes, labels, scores = model.predict(_images())
    assert len(bboxes) == len(labels) == len(scores) == 2
    for bbox, label, score in zip(bboxes, labels, scores):
        assert isinstance(bbox, numpy.ndarray)
        assert bbox.dtype == numpy.float32 and bbox.shape[1:] == (4,)
        assert label.dtype == numpy.int32 and score.dtype == numpy.float32
        assert len(bbox) == len(label) == len(score) > 0
        assert ((0 <= label) & (label < model.n_fg_class)).all()
        assert (score >= model.score_thresh).all() and (score <= 1).all()
        assert (bbox[:, 2:] > bbox[:, :2]).all()
        # By class, then by descending score.
        assert (numpy.diff(label) >= 0).all()
        for k in numpy.unique(label):
            assert (numpy.diff(score[label == k]) <= 0).all()
    return bboxes, labels, scores


def _raw_outputs(model, device):
    model.to_device(device)
    x = numpy.random.RandomState(1).uniform(0, 1, (1, 3, 416, 416)).astype(
        numpy.float32)
    with chainer_core.using_config('train', False), \
            chainer_core.no_backprop_mode():
        outputs = model(model.device.send(x))
    cpu = chainer_core.backend.CpuDevice()
    return [numpy.asarray(cpu.send(v.array)) for v in outputs]


def test_predict_yolov2_tiny(device):
    model = yolo.YOLOv2Tiny(n_fg_class=3)
    expected = _raw_outputs(model, '@numpy')
    for out, exp in zip(_raw_outputs(model, device), expected):
        numpy.testing.assert_allclose(out, exp, rtol=1e-3, atol=1e-3)
    _check_predict(model, device)


@pytest.mark.slow
@pytest.mark.parametrize('cls', [yolo.YOLOv2, yolo.YOLOv3])
def test_predict_large(cls, device):
    model = cls(n_fg_class=3)
    expected = _raw_outputs(model, '@numpy')
    for out, exp in zip(_raw_outputs(model, device), expected):
        numpy.testing.assert_allclose(out, exp, rtol=1e-3, atol=1e-3)
    _check_predict(model, device)


def test_forward_shapes(tiny, yolov3):
    x = numpy.zeros((1, 3, 416, 416), numpy.float32)
    for model, n_box in ((tiny, 13 * 13 * 5),
                         (yolov3, (13 * 13 + 26 * 26 + 52 * 52) * 3)):
        with chainer_core.using_config('train', False), \
                chainer_core.no_backprop_mode():
            locs, objs, confs = model(x)
        assert locs.shape == (1, n_box, 4)
        assert objs.shape == (1, n_box)
        assert confs.shape == (1, n_box, model.n_fg_class)
        assert len(model._default_bbox) == n_box


def test_use_preset():
    model = yolo.YOLOv2Tiny(n_fg_class=1)
    assert (model.nms_thresh, model.score_thresh) == (0.45, 0.5)
    model.use_preset('evaluate')
    assert (model.nms_thresh, model.score_thresh) == (0.45, 0.005)
    model.use_preset('visualize')
    assert (model.nms_thresh, model.score_thresh) == (0.45, 0.5)
    with pytest.raises(ValueError, match='preset'):
        model.use_preset('fast')


def test_anchors_are_chainercvs():
    assert yolo.YOLOv2._anchors[0] == (1.73145, 1.3221)
    assert yolo.YOLOv2Tiny._anchors[-1] == (10.52, 16.62)
    assert yolo.YOLOv3._anchors == (
        ((90, 116), (198, 156), (326, 373)),
        ((61, 30), (45, 62), (119, 59)),
        ((13, 10), (30, 16), (23, 33)))


def _assert_same_outputs(model, other, x):
    with chainer_core.using_config('train', False), \
            chainer_core.no_backprop_mode():
        for a, b in zip(model(x), other(x)):
            numpy.testing.assert_array_equal(a.array, b.array)


def test_npz_round_trip_tiny(tmp_path):
    model = yolo.YOLOv2Tiny(n_fg_class=3)
    # Running statistics away from their initial values must travel too.
    with chainer_core.using_config('train', True):
        model(numpy.random.RandomState(2).uniform(
            0, 1, (2, 3, 64, 64)).astype(numpy.float32))
    path = str(tmp_path / 'tiny.npz')
    serializers.save_npz(path, model, compression=False)
    fresh = yolo.YOLOv2Tiny(n_fg_class=3, pretrained_model=path)
    x = numpy.random.RandomState(3).uniform(0, 1, (1, 3, 96, 64)).astype(
        numpy.float32)
    _assert_same_outputs(model, fresh, x)


def test_npz_round_trip_yolov3(yolov3, tmp_path):
    path = str(tmp_path / 'yolov3.npz')
    serializers.save_npz(path, yolov3, compression=False)
    fresh = yolo.YOLOv3(n_fg_class=20, pretrained_model=path)
    x = numpy.random.RandomState(3).uniform(0, 1, (1, 3, 64, 96)).astype(
        numpy.float32)
    _assert_same_outputs(yolov3, fresh, x)


@pytest.fixture
def dataset_root(tmp_path):
    root = chainer_core.dataset.get_dataset_root()
    chainer_core.dataset.set_dataset_root(str(tmp_path))
    yield tmp_path
    chainer_core.dataset.set_dataset_root(root)


@pytest.mark.parametrize('cls,filename', [
    (yolo.YOLOv2, 'yolo_v2_voc0712_converted_2018_05_03.npz'),
    (yolo.YOLOv2Tiny, 'yolo_v2_tiny_voc0712_converted_2018_10_19.npz'),
    (yolo.YOLOv3, 'yolo_v3_voc0712_converted_2018_05_01.npz'),
])
def test_known_weights_are_not_downloaded(dataset_root, cls, filename):
    with pytest.raises(FileNotFoundError) as e:
        cls(pretrained_model='voc0712')
    message = str(e.value)
    assert os.path.join(str(dataset_root), 'pfnet', 'chainercv', 'models',
                        filename) in message
    assert 'voc0712' in message and 'download' in message


def test_known_weights_load_from_the_model_directory(dataset_root,
                                                    yolo_model):
    model = yolo_model(yolo.YOLOv2Tiny, 20)
    directory = dataset_root / 'pfnet' / 'chainercv' / 'models'
    directory.mkdir(parents=True)
    serializers.save_npz(
        str(directory / 'yolo_v2_tiny_voc0712_converted_2018_10_19.npz'),
        model, compression=False)
    fresh = yolo.YOLOv2Tiny(pretrained_model='voc0712')
    assert fresh.n_fg_class == 20
    x = numpy.random.RandomState(4).uniform(0, 1, (1, 3, 32, 32)).astype(
        numpy.float32)
    _assert_same_outputs(model, fresh, x)


def test_known_weights_fix_n_fg_class():
    with pytest.raises(ValueError, match='n_fg_class'):
        yolo.YOLOv2Tiny(n_fg_class=10, pretrained_model='voc0712')


def test_n_fg_class_is_required():
    with pytest.raises(ValueError, match='n_fg_class'):
        yolo.YOLOv2Tiny()


def test_missing_weight_file(tmp_path):
    with pytest.raises(FileNotFoundError, match='voc0712'):
        yolo.YOLOv2Tiny(n_fg_class=3,
                        pretrained_model=str(tmp_path / 'none.npz'))
