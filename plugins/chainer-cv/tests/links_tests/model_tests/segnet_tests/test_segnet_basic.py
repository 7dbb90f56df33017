"""SegNetBasic: ChainerCV's layer names and size, prediction on every
device, npz round trips, the weight names and a training step."""
import os

import numpy
import pytest

import chainer_core
from chainer_core import serializers
import chainer_core.functions as F

from chainer_cv.links.model.segnet import SegNetBasic

_N_CLASS = 5


def _images():
    rng = numpy.random.RandomState(0)
    return [rng.uniform(0, 255, (3, 23, 37)).astype(numpy.float32),
            rng.uniform(0, 255, (3, 18, 15)).astype(numpy.float32)]


def _model(n_class=_N_CLASS):
    chainer_core.config.seed = 0
    numpy.random.seed(0)
    return SegNetBasic(n_class)


def test_predict_gives_a_label_map_per_image(device):
    model = _model()
    model.to_device(device)
    labels = model.predict(_images())
    assert len(labels) == 2
    for label, img in zip(labels, _images()):
        assert isinstance(label, numpy.ndarray)
        assert label.shape == img.shape[1:]
        assert label.dtype == numpy.int32
        assert label.min() >= 0 and label.max() < _N_CLASS


def test_devices_agree_with_numpy(device):
    model = _model()
    x = _images()[0][None]
    with chainer_core.using_config('train', False):
        expected = model(x).array
        model.to_device(device)
        score = model(model.device.send(x))
    cpu = chainer_core.backend.CpuDevice()
    numpy.testing.assert_allclose(numpy.asarray(cpu.send(score.array)),
                                  expected, rtol=1e-3, atol=1e-3)


def test_odd_sides_come_back_at_the_image_size():
    model = _model()
    with chainer_core.using_config('train', False):
        score = model(_images()[0][None])
    # Each unpooling is cropped to its pooling's input (rounded up to
    # even by the pooling covering every pixel): 23 x 37 comes back as
    # 24 x 38, which predict resizes.
    assert score.shape == (1, _N_CLASS, 24, 38)


def test_npz_round_trip(tmp_path):
    model = _model()
    imgs = _images()
    expected = model.predict(imgs)
    path = str(tmp_path / 'segnet.npz')
    serializers.save_npz(path, model)
    loaded = SegNetBasic(_N_CLASS, pretrained_model=path)
    for got, want in zip(loaded.predict(imgs), expected):
        numpy.testing.assert_array_equal(got, want)
    with chainer_core.using_config('train', False):
        numpy.testing.assert_array_equal(loaded(imgs[0][None]).array,
                                         model(imgs[0][None]).array)


def test_parameter_names_and_count():
    model = _model(11)
    model.predict(_images()[:1])
    names = {name: p.shape for name, p in model.namedparams()}
    assert names['/conv1/W'] == (64, 3, 7, 7)
    assert '/conv1/b' not in names
    assert names['/conv1_bn/gamma'] == (64,)
    assert names['/conv_decode1/W'] == (64, 64, 7, 7)
    assert names['/conv_decode4_bn/beta'] == (64,)
    assert names['/conv_classifier/W'] == (11, 64, 1, 1)
    assert names['/conv_classifier/b'] == (11,)
    assert len(names) == 8 * 3 + 2
    # 3*64*49 + 7*64*64*49 convolutions, 8*2*64 normalizations and a
    # 64*11 + 11 classifier.
    assert sum(p.size for p in model.params()) == 1416075
    assert model.conv1_bn.beta.array[0] == numpy.float32(0.001)


def test_known_weights_load_from_chainercv_model_directory(tmp_path):
    root = chainer_core.dataset.get_dataset_root()
    chainer_core.dataset.set_dataset_root(str(tmp_path))
    try:
        with pytest.raises(FileNotFoundError,
                           match='segnet_camvid_trained_2018_12_05.npz'):
            SegNetBasic(pretrained_model='camvid')
        model = _model(11)
        model.predict(_images()[:1])
        directory = tmp_path / 'pfnet' / 'chainercv' / 'models'
        os.makedirs(str(directory))
        serializers.save_npz(
            str(directory / 'segnet_camvid_trained_2018_12_05.npz'), model)
        loaded = SegNetBasic(pretrained_model='camvid')
    finally:
        chainer_core.dataset.set_dataset_root(root)
    assert loaded.n_class == 11
    numpy.testing.assert_array_equal(loaded.conv3.W.array,
                                     model.conv3.W.array)


def test_arguments_are_checked(tmp_path):
    with pytest.raises(ValueError, match='n_class'):
        SegNetBasic()
    with pytest.raises(ValueError, match='n_class'):
        SegNetBasic(12, pretrained_model='camvid')
    with pytest.raises(FileNotFoundError, match='nothing.npz'):
        SegNetBasic(3, pretrained_model=str(tmp_path / 'nothing.npz'))


def test_training_steps_reduce_the_loss(device):
    model = _model(3)
    model.to_device(device)
    rng = numpy.random.RandomState(1)
    x = rng.uniform(0, 255, (2, 3, 16, 16)).astype(numpy.float32)
    t = numpy.zeros((2, 16, 16), numpy.int32)
    t[:, :, 8:] = 1
    t[:, 8:, :4] = 2
    x, t = model.device.send(x), model.device.send(t)
    optimizer = chainer_core.optimizers.Adam(alpha=1e-3)
    optimizer.setup(model)
    losses = []
    for _ in range(5):
        loss = F.softmax_cross_entropy(model(x), t)
        model.cleargrads()
        loss.backward()
        optimizer.update()
        losses.append(float(chainer_core.backend.CpuDevice().send(
            loss.array)))
    assert losses[-1] < losses[0]
