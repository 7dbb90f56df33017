"""DeepLabV3plusXception65: ChainerCV's layer names and size, prediction
(padding, scales, flips) on every device, npz round trips and the weight
names."""
import os

import numpy
import pytest

import chainer_core
from chainer_core import serializers

from chainer_cv.links.model.deeplab import DeepLabV3plusXception65
from chainer_cv.links.connection import SeparableConv2DBNActiv

_N_CLASS = 5
_VOC_FILE = 'deeplabv3plus_xception65_voc_converted_2019_02_15.npz'


def _images():
    rng = numpy.random.RandomState(0)
    return [rng.uniform(0, 255, (3, 29, 41)).astype(numpy.float32),
            rng.uniform(0, 255, (3, 35, 21)).astype(numpy.float32)]


def _model(n_class=_N_CLASS, **kwargs):
    chainer_core.config.seed = 0
    numpy.random.seed(0)
    kwargs.setdefault('min_input_size', 33)
    return DeepLabV3plusXception65(n_class, **kwargs)


@pytest.fixture(scope='module')
def model():
    return _model()


def _check_labels(labels, imgs, n_class=_N_CLASS):
    assert len(labels) == len(imgs)
    for label, img in zip(labels, imgs):
        assert isinstance(label, numpy.ndarray)
        assert label.shape == img.shape[1:]
        assert label.dtype == numpy.int32
        assert label.min() >= 0 and label.max() < n_class


def test_predict_gives_a_label_map_per_image(model, device):
    model.to_device(device)
    try:
        _check_labels(model.predict(_images()), _images())
    finally:
        model.to_device('@numpy')


def test_scales_and_flip(model):
    model.scales, model.flip = (0.75, 1.25), True
    try:
        img = _images()[0]
        labels = model.predict([img, img[:, :, ::-1]])
    finally:
        model.scales, model.flip = (1.0,), False
    _check_labels(labels, [img, img])
    # The mirror image averages the same probabilities, mirrored.
    numpy.testing.assert_array_equal(labels[1], labels[0][:, ::-1])


def test_prepare_pads_small_images_with_the_mean(model):
    img = numpy.full((3, 20, 40), 255, numpy.float32)
    x = model.prepare(img)
    assert x.shape == (3, 33, 40)
    assert x.dtype == numpy.float32
    numpy.testing.assert_array_equal(x[:, :20], 1)
    numpy.testing.assert_array_equal(x[:, 20:], 0)
    assert model.prepare(numpy.zeros((3, 50, 60), numpy.float32)).shape == \
        (3, 50, 60)


def test_predict_is_independent_of_the_other_images(model):
    imgs = _images()
    alone = model.predict(imgs[1:])
    numpy.testing.assert_array_equal(model.predict(imgs)[1], alone[0])


def test_options_and_defaults(model):
    assert model.min_input_size == (33, 33)
    assert model.scales == (1.0,) and model.flip is False
    default = DeepLabV3plusXception65(
        3, extractor_kwargs={'bn_kwargs': {'eps': 1e-3}})
    assert default.min_input_size == (513, 513)
    assert default.feature_extractor.entryflow_conv1.bn.eps == 1e-3
    assert default.aspp.proj.bn.eps == 2e-5


def _separable(in_ch, out_ch):
    return 9 * in_ch + in_ch * out_ch + 2 * (in_ch + out_ch)


def _conv_bn(in_ch, out_ch, ksize=1):
    return ksize * ksize * in_ch * out_ch + 2 * out_ch


def _block(in_ch, depths, shortcut):
    channels = (in_ch,) + depths
    n = sum(_separable(channels[i], channels[i + 1]) for i in range(3))
    return n + (_conv_bn(in_ch, depths[2]) if shortcut else 0)


def test_parameter_names_and_count(model):
    names = {name: p.shape for name, p in model.namedparams()}
    assert names['/feature_extractor/entryflow_conv1/conv/W'] == \
        (32, 3, 3, 3)
    assert names['/feature_extractor/entryflow_block1/conv/conv/W'] == \
        (128, 64, 1, 1)
    assert names[
        '/feature_extractor/middleflow_block16/separable3/depthwise/W'] == \
        (728, 1, 3, 3)
    assert '/feature_extractor/middleflow_block1/conv/conv/W' not in names
    assert '/feature_extractor/middleflow_block17/separable1/depthwise/W' \
        not in names
    assert names[
        '/feature_extractor/exitflow_block2/separable3/pointwise/W'] == \
        (2048, 1536, 1, 1)
    assert names['/feature_extractor/exitflow_block2/separable3/pw_bn/beta'] \
        == (2048,)
    assert names['/aspp/image_pooling_conv/conv/W'] == (256, 2048, 1, 1)
    assert names['/aspp/atrous3/dw_bn/gamma'] == (2048,)
    assert names['/aspp/proj/conv/W'] == (256, 1280, 1, 1)
    assert names['/decoder/feature_proj/conv/W'] == (48, 256, 1, 1)
    assert names['/decoder/conv1/depthwise/W'] == (304, 1, 3, 3)
    assert names['/decoder/conv_logits/W'] == (_N_CLASS, 256, 1, 1)
    assert names['/decoder/conv_logits/b'] == (_N_CLASS,)
    assert model.aspp.atrous2.depthwise.dilate == (24, 24)
    # The size, layer by layer, of TensorFlow DeepLab's Xception-65 with
    # its ASPP and decoder (depthwise 3x3, pointwise 1x1, each
    # normalized; no convolution biases but the logits').
    extractor = (_conv_bn(3, 32, 3) + _conv_bn(32, 64, 3) +
                 _block(64, (128,) * 3, True) +
                 _block(128, (256,) * 3, True) +
                 _block(256, (728,) * 3, True) +
                 16 * _block(728, (728,) * 3, False) +
                 _block(728, (728, 1024, 1024), True) +
                 _block(1024, (1536, 1536, 2048), False))
    aspp = 2 * _conv_bn(2048, 256) + 3 * _separable(2048, 256) + \
        _conv_bn(1280, 256)
    decoder = _conv_bn(256, 48) + _separable(304, 256) + \
        _separable(256, 256) + 256 * _N_CLASS + _N_CLASS
    expected = extractor + aspp + decoder
    assert sum(p.size for p in model.params()) == expected
    # About 41.06M parameters for the 21 classes of VOC.
    assert expected + 257 * 16 == 41055413


def test_separable_conv_2d_bn_activ():
    link = SeparableConv2DBNActiv(4, 6, 3, 2, 2, 2, nobias=True)
    assert link.depthwise.W.shape == (4, 1, 3, 3)
    assert link.depthwise.b is None and link.pointwise.b is None
    assert link.pointwise.W.shape == (6, 4, 1, 1)
    assert link.dw_bn.gamma.shape == (4,) and link.pw_bn.beta.shape == (6,)
    with chainer_core.using_config('train', False):
        y = link(numpy.ones((2, 4, 9, 9), numpy.float32))
    assert y.shape == (2, 6, 5, 5)
    assert (y.array >= 0).all()


def test_npz_round_trip_and_voc_weights(tmp_path):
    model = _model(21)
    imgs = _images()
    expected = model.predict(imgs)
    directory = tmp_path / 'pfnet' / 'chainercv' / 'models'
    os.makedirs(str(directory))
    path = str(directory / _VOC_FILE)
    serializers.save_npz(path, model, compression=False)
    loaded = DeepLabV3plusXception65(pretrained_model=path, n_class=21,
                                     min_input_size=33)
    for got, want in zip(loaded.predict(imgs), expected):
        numpy.testing.assert_array_equal(got, want)
    root = chainer_core.dataset.get_dataset_root()
    chainer_core.dataset.set_dataset_root(str(tmp_path))
    try:
        voc = DeepLabV3plusXception65(pretrained_model='voc', flip=True)
        with pytest.raises(ValueError, match='min_input_size'):
            DeepLabV3plusXception65(pretrained_model='voc',
                                    min_input_size=33)
    finally:
        chainer_core.dataset.set_dataset_root(root)
    assert voc.min_input_size == (513, 513) and voc.flip is True
    assert voc.feature_extractor.entryflow_conv1.bn.eps == 1e-3
    assert voc.feature_extractor.entryflow_conv1.bn.decay == 0.9997
    assert voc.aspp.atrous1.dw_bn.eps == 1e-5
    assert voc.decoder.conv1.pw_bn.eps == 1e-5
    numpy.testing.assert_array_equal(
        voc.decoder.conv_logits.W.array, model.decoder.conv_logits.W.array)


def test_missing_weights_name_the_expected_path(tmp_path):
    root = chainer_core.dataset.get_dataset_root()
    chainer_core.dataset.set_dataset_root(str(tmp_path))
    try:
        for name, file in (
                ('voc', _VOC_FILE),
                ('cityscapes', 'deeplabv3plus_xception65_cityscapes_'
                               'converted_2019_02_15.npz'),
                ('ade20k', 'deeplabv3plus_xception65_ade20k_converted_'
                           '2019_03_08.npz')):
            with pytest.raises(FileNotFoundError) as info:
                DeepLabV3plusXception65(pretrained_model=name)
            assert os.path.join(str(tmp_path), 'pfnet', 'chainercv',
                                'models', file) in str(info.value)
    finally:
        chainer_core.dataset.set_dataset_root(root)
    with pytest.raises(ValueError, match='n_class'):
        DeepLabV3plusXception65()
    with pytest.raises(ValueError, match='n_class'):
        DeepLabV3plusXception65(19, pretrained_model='voc')
