"""SSD300, SSD512 and TinySSD: parameter counts and names, prediction on
every device, npz round trips, weight names, and training."""
import os

import numpy
import pytest

import chainer_core
from chainer_core import serializers

from chainer_cv.links.model.ssd import MultiboxTrainChain
from chainer_cv.links.model.ssd import SSD300
from chainer_cv.links.model.ssd import SSD512
from chainer_cv.links.model.ssd import TinySSD
from chainer_cv.links.model.ssd import VGG16Extractor300
from chainer_cv.links.model.ssd import VGG16Extractor512


def _initialized(model):
    """The model after a call, which shapes the lazy parameters."""
    with chainer_core.no_backprop_mode(), \
            chainer_core.using_config('train', False):
        model(numpy.zeros((1, 3, model.insize, model.insize),
                          numpy.float32))
    return model


# SSD300 and SSD512 on VOC (20 classes) as published with the paper's
# Caffe models and ChainerCV's conversions; SSD300 with COCO's 90 classes
# (91 scores) is the size torchvision publishes for ssd300_vgg16.
@pytest.mark.parametrize('cls,n_fg_class,expected', [
    (SSD300, 20, 26285486),
    (SSD300, 90, 35641826),
    pytest.param(SSD512, 20, 27188676, marks=pytest.mark.slow),
])
def test_parameter_count(cls, n_fg_class, expected):
    model = _initialized(cls(n_fg_class=n_fg_class))
    assert sum(p.size for p in model.params()) == expected


def test_ssd300_parameter_names():
    model = _initialized(SSD300(n_fg_class=20))
    names = {name: p.shape for name, p in model.namedparams()}
    assert names['/extractor/conv1_1/W'] == (64, 3, 3, 3)
    assert names['/extractor/norm4/scale'] == (512,)
    assert names['/extractor/conv6/W'] == (1024, 512, 3, 3)
    assert names['/extractor/conv7/W'] == (1024, 1024, 1, 1)
    assert names['/extractor/conv8_2/W'] == (512, 256, 3, 3)
    assert names['/extractor/conv11_2/b'] == (256,)
    assert names['/multibox/loc/0/W'] == (16, 512, 3, 3)
    assert names['/multibox/conf/1/W'] == (6 * 21, 1024, 3, 3)
    assert names['/multibox/conf/5/b'] == (4 * 21,)
    assert len(names) == 2 * 15 + 1 + 2 * 8 + 2 * 12
    numpy.testing.assert_array_equal(model.extractor.norm4.scale.array, 20)
    assert model.extractor.conv6.dilate == (6, 6)


def test_extractor_grids():
    assert VGG16Extractor300.grids == (38, 19, 10, 5, 3, 1)
    assert VGG16Extractor512.grids == (64, 32, 16, 8, 4, 2, 1)


def _images():
    rng = numpy.random.RandomState(0)
    return [rng.uniform(0, 255, (3, 121, 87)).astype(numpy.float32),
            rng.uniform(0, 255, (3, 53, 199)).astype(numpy.float32)]


def _check_predict(model, device):
    model.to_device(device)
    bboxes, labels, scores = model.predict(_images())
    assert len(bboxes) == len(labels) == len(scores) == 2
    for bbox, label, score, (H, W) in zip(bboxes, labels, scores,
                                          ((121, 87), (53, 199))):
        assert isinstance(bbox, numpy.ndarray)
        assert bbox.dtype == numpy.float32 and bbox.shape[1:] == (4,)
        assert label.dtype == numpy.int32 and len(label) == len(bbox)
        assert score.dtype == numpy.float32 and len(score) == len(bbox)
        assert ((0 <= label) & (label < model.n_fg_class)).all()
        assert (score >= model.score_thresh).all()
    return bboxes, labels, scores


def test_ssd300_predict(device):
    model = _initialized(SSD300(n_fg_class=2))
    model.use_preset('evaluate')
    for conv in model.multibox.loc:
        conv.W.array[...] = 0
        conv.b.array[...] = 0
    bboxes, _, _ = _check_predict(model, device)
    # Zero offsets give default boxes, whose centres span the input (the
    # last ones of the 10 x 10 map at 304 of 300), scaled to each image.
    for bbox, size in zip(bboxes, ((121, 87), (53, 199))):
        center = (bbox[:, :2] + bbox[:, 2:]) / 2
        assert (center > 0).all()
        assert (center.max(axis=0) <=
                numpy.array(size) * 304 / 300 + 1e-3).all()
        assert (center.max(axis=0) >= numpy.array(size) * 0.9).all()


def test_predict_is_the_same_on_every_device(device):
    chainer_core.config.dtype = numpy.float32
    numpy.random.seed(0)
    model = TinySSD(n_fg_class=3, insize=64)
    model.use_preset('evaluate')
    expected = model.predict(_images())
    actual = _check_predict(model, device)
    for e, a in zip(expected, actual):
        for x, y in zip(e, a):
            numpy.testing.assert_allclose(x, y, rtol=1e-3, atol=1e-2)


@pytest.mark.slow
def test_ssd512_predict(device):
    _check_predict(SSD512(n_fg_class=2), device)


def test_use_preset():
    model = TinySSD(n_fg_class=1)
    assert (model.nms_thresh, model.score_thresh) == (0.45, 0.6)
    model.use_preset('evaluate')
    assert (model.nms_thresh, model.score_thresh) == (0.45, 0.01)
    model.use_preset('visualize')
    assert model.score_thresh == 0.6
    with pytest.raises(ValueError):
        model.use_preset('fast')


def _check_npz_round_trip(cls, tmp_path, **kwargs):
    model = _initialized(cls(**kwargs))
    x = numpy.random.RandomState(1).uniform(
        -50, 50, (1, 3, model.insize, model.insize)).astype(numpy.float32)
    with chainer_core.using_config('train', False):
        expected = [v.array for v in model(x)]
    path = str(tmp_path / 'model.npz')
    serializers.save_npz(path, model)
    fresh = cls(**kwargs)
    serializers.load_npz(path, fresh)
    with chainer_core.using_config('train', False):
        for e, a in zip(expected, fresh(x)):
            numpy.testing.assert_array_equal(a.array, e)
    return path


def test_npz_round_trip(tmp_path):
    _check_npz_round_trip(TinySSD, tmp_path, n_fg_class=3)


@pytest.mark.slow
def test_ssd300_npz_round_trip(tmp_path):
    path = _check_npz_round_trip(SSD300, tmp_path, n_fg_class=3)
    with numpy.load(path) as npz:
        assert 'extractor/norm4/scale' in npz.files
        assert 'multibox/conf/5/W' in npz.files
    SSD300(n_fg_class=3, pretrained_model=path)


def test_imagenet_weights_leave_the_heads(tmp_path, monkeypatch):
    model = _initialized(SSD300(n_fg_class=3))
    extractor = {'extractor/' + name.lstrip('/'): p.array
                 for name, p in model.extractor.namedparams()}
    models = tmp_path / 'pfnet' / 'chainercv' / 'models'
    models.mkdir(parents=True)
    numpy.savez(str(models / 'ssd_vgg16_imagenet_converted_2017_06_09.npz'),
                **extractor)
    monkeypatch.setattr(chainer_core.dataset, 'get_dataset_root',
                        lambda: str(tmp_path))
    fresh = SSD300(n_fg_class=5, pretrained_model='imagenet')
    numpy.testing.assert_array_equal(fresh.extractor.conv1_1.W.array,
                                     model.extractor.conv1_1.W.array)


@pytest.mark.parametrize('cls,name', [
    (SSD300, 'voc0712'), (SSD300, 'imagenet'), (SSD512, 'voc0712')])
def test_known_weights_are_not_downloaded(cls, name, tmp_path, monkeypatch):
    monkeypatch.setattr(chainer_core.dataset, 'get_dataset_root',
                        lambda: str(tmp_path))
    with pytest.raises(FileNotFoundError) as e:
        cls(n_fg_class=20, pretrained_model=name)
    message = str(e.value)
    assert os.path.join(str(tmp_path), 'pfnet', 'chainercv', 'models') in \
        message
    assert name in message and 'download' in message


def test_n_fg_class_is_needed():
    with pytest.raises(ValueError, match='n_fg_class'):
        SSD300()


def test_voc0712_fixes_n_fg_class():
    with pytest.raises(ValueError, match='n_fg_class'):
        SSD300(n_fg_class=3, pretrained_model='voc0712')


def test_training_reduces_the_loss():
    numpy.random.seed(0)
    model = TinySSD(n_fg_class=2, insize=64)
    rng = numpy.random.RandomState(0)
    imgs = rng.uniform(-50, 50, (4, 3, 64, 64)).astype(numpy.float32)
    locs, labels = [], []
    for i in range(4):
        bbox = numpy.array([[8 + 4 * i, 10, 40, 44 + 2 * i]], numpy.float32)
        loc, label = model.coder.encode(bbox, numpy.array([i % 2]))
        locs.append(loc)
        labels.append(label)
    batch = (imgs, numpy.stack(locs), numpy.stack(labels))

    chain = MultiboxTrainChain(model)
    optimizer = chainer_core.optimizers.MomentumSGD(lr=1e-3)
    optimizer.setup(chain)
    first = float(chain(*batch).array)
    for _ in range(20):
        optimizer.update(chain, *batch)
    assert float(chain(*batch).array) < 0.5 * first
