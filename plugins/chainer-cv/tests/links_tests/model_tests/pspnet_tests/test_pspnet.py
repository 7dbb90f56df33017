"""PSPNetResNet50/101: ChainerCV's layer names and size, prediction (the
windows over large images, the canvas for small ones, scales) on every
device, npz round trips, the weight names and convolution_crop."""
import os

import numpy
import pytest

import chainer_core
from chainer_core import serializers

from chainer_cv.links.model.pspnet import convolution_crop
from chainer_cv.links.model.pspnet import PSPNetResNet101
from chainer_cv.links.model.pspnet import PSPNetResNet50

_N_CLASS = 5


def _images():
    # With 48 x 48 windows: the first is covered by two windows, the
    # second fits on the canvas.
    rng = numpy.random.RandomState(0)
    return [rng.uniform(0, 255, (3, 37, 53)).astype(numpy.float32),
            rng.uniform(0, 255, (3, 31, 25)).astype(numpy.float32)]


def _model(cls=PSPNetResNet50, n_class=_N_CLASS, **kwargs):
    chainer_core.config.seed = 0
    numpy.random.seed(0)
    kwargs.setdefault('input_size', 48)
    return cls(n_class, **kwargs)


@pytest.fixture(scope='module')
def model():
    return _model()


def _check_labels(labels, imgs):
    assert len(labels) == len(imgs)
    for label, img in zip(labels, imgs):
        assert isinstance(label, numpy.ndarray)
        assert label.shape == img.shape[1:]
        assert label.dtype == numpy.int32
        assert label.min() >= 0 and label.max() < _N_CLASS


def test_predict_gives_a_label_map_per_image(model, device):
    model.to_device(device)
    try:
        _check_labels(model.predict(_images()), _images())
    finally:
        model.to_device('@numpy')


def test_one_scale_is_the_plain_prediction(model):
    img = _images()[1]
    expected = model.predict([img])[0]
    model.scales = (1.0,)
    try:
        numpy.testing.assert_array_equal(model.predict([img])[0], expected)
    finally:
        model.scales = None


def test_input_size():
    assert _model(input_size=(48, 64)).input_size == (48, 64)
    model = _model(input_size=49)
    assert model.input_size == (49, 49)
    # The grids 6, 3, 2 and 1 of the 6 x 6 feature the window makes.
    assert model.ppm.ksizes == [(1, 1), (2, 2), (3, 3), (6, 6)]
    with pytest.raises(ValueError, match='input_size'):
        _model(input_size=40)


def _conv_bn(in_ch, out_ch, ksize=1):
    return ksize * ksize * in_ch * out_ch + 2 * out_ch


def _resnet_stages(blocks):
    n, in_ch = 0, 128
    for n_block, mid in zip(blocks, (64, 128, 256, 512)):
        out = 4 * mid
        n += _conv_bn(in_ch, out)
        for i in range(n_block):
            n += _conv_bn(in_ch if i == 0 else out, mid) + \
                _conv_bn(mid, mid, 3) + _conv_bn(mid, out)
        in_ch = out
    return n


def _expected_size(blocks, n_class):
    stem = _conv_bn(3, 64, 3) + _conv_bn(64, 64, 3) + _conv_bn(64, 128, 3)
    head = 4 * _conv_bn(2048, 512) + _conv_bn(4096, 512, 3) + \
        512 * n_class + n_class
    return stem + _resnet_stages(blocks) + head


def test_parameter_names_and_count(model):
    if model.extractor.conv1_1.conv.W.array is None:
        model.predict(_images()[1:])
    names = {name: p.shape for name, p in model.namedparams()}
    assert names['/extractor/conv1_1/conv/W'] == (64, 3, 3, 3)
    assert '/extractor/conv1_1/conv/b' not in names
    assert names['/extractor/conv1_3/bn/gamma'] == (128,)
    assert names['/extractor/res2/a/residual_conv/conv/W'] == \
        (256, 128, 1, 1)
    assert names['/extractor/res4/b5/conv2/conv/W'] == (256, 256, 3, 3)
    assert '/extractor/res4/b6/conv1/conv/W' not in names
    assert names['/extractor/res5/b2/conv3/bn/beta'] == (2048,)
    assert names['/ppm/0/conv/W'] == (512, 2048, 1, 1)
    assert names['/ppm/3/bn/gamma'] == (512,)
    assert names['/head_conv1/conv/W'] == (512, 4096, 3, 3)
    assert names['/head_conv2/W'] == (_N_CLASS, 512, 1, 1)
    assert names['/head_conv2/b'] == (_N_CLASS,)
    assert model.extractor.res4.a.conv2.conv.dilate == (2, 2)
    assert model.extractor.res5.b1.conv2.conv.dilate == (4, 4)
    assert model.extractor.res3.a.conv2.conv.stride == (2, 2)
    assert model.extractor.res4.a.conv2.conv.stride == (1, 1)
    assert model.n_class == _N_CLASS
    assert sum(p.size for p in model.params()) == \
        _expected_size((3, 4, 6, 3), _N_CLASS) == 46708165


def test_npz_round_trip(model, tmp_path):
    imgs = _images()
    expected = model.predict(imgs)
    path = str(tmp_path / 'pspnet.npz')
    serializers.save_npz(path, model, compression=False)
    loaded = PSPNetResNet50(_N_CLASS, pretrained_model=path, input_size=48)
    for got, want in zip(loaded.predict(imgs), expected):
        numpy.testing.assert_array_equal(got, want)


def test_missing_weights_name_the_expected_path(tmp_path):
    root = chainer_core.dataset.get_dataset_root()
    chainer_core.dataset.set_dataset_root(str(tmp_path))
    directory = os.path.join(str(tmp_path), 'pfnet', 'chainercv', 'models')
    try:
        for cls, depth in ((PSPNetResNet50, 50), (PSPNetResNet101, 101)):
            for name, date in (('cityscapes', '2018_12_19'),
                               ('ade20k', '2018_12_23')):
                with pytest.raises(FileNotFoundError) as info:
                    cls(pretrained_model=name)
                assert os.path.join(
                    directory, 'pspnet_resnet{}_{}_trained_{}.npz'.format(
                        depth, name, date)) in str(info.value)
            with pytest.raises(FileNotFoundError) as info:
                cls(3, pretrained_model='imagenet')
            assert os.path.join(
                directory, 'pspnet_resnet{}_imagenet_trained_2018_11_26.npz'
                .format(depth)) in str(info.value)
    finally:
        chainer_core.dataset.set_dataset_root(root)
    with pytest.raises(ValueError, match='n_class'):
        PSPNetResNet101()
    with pytest.raises(ValueError, match='n_class'):
        PSPNetResNet101(21, pretrained_model='cityscapes')
    with pytest.raises(ValueError, match='input_size'):
        PSPNetResNet50(pretrained_model='ade20k', input_size=(713, 713))


def test_convolution_crop_covers_the_image():
    img = numpy.arange(2 * 7 * 10, dtype=numpy.float32).reshape(2, 7, 10) + 1
    crops, param = convolution_crop(img, (4, 6), (3, 4), return_param=True)
    assert crops.shape == (2 * 2, 2, 4, 6)
    count = numpy.zeros((7, 10))
    for crop, y, x, cy, cx in zip(crops, param['y_slices'],
                                  param['x_slices'], param['crop_y_slices'],
                                  param['crop_x_slices']):
        numpy.testing.assert_array_equal(crop[:, cy, cx], img[:, y, x])
        outside = numpy.ones(crop.shape[1:], bool)
        outside[cy, cx] = False
        assert (crop[:, outside] == 0).all()
        count[y, x] += 1
    assert (count >= 1).all()
    # The overhang (4 + 3 - 7 = 0 rows, 6 + 4 - 10 = 0 columns) is split
    # between the sides.
    assert param['y_slices'][0] == slice(0, 4)
    assert param['x_slices'][-1] == slice(4, 10)
    numpy.testing.assert_array_equal(
        convolution_crop(img, (4, 6), (3, 4)), crops)
    centred = convolution_crop(img, (9, 10), (6, 6), return_param=True)[1]
    assert centred['y_slices'] == [slice(0, 7)]
    assert centred['crop_y_slices'] == [slice(1, 8)]


@pytest.mark.slow
def test_resnet101_predict_and_size(device):
    model = _model(PSPNetResNet101)
    model.to_device(device)
    _check_labels(model.predict(_images()), _images())
    model.scales = (0.5, 1.25)
    _check_labels(model.predict(_images()), _images())
    names = {name: p.shape for name, p in model.namedparams()}
    assert names['/extractor/res4/b22/conv3/conv/W'] == (1024, 256, 1, 1)
    assert '/extractor/res4/b23/conv1/conv/W' not in names
    assert sum(p.size for p in model.params()) == \
        _expected_size((3, 4, 23, 3), _N_CLASS) == 65700293
