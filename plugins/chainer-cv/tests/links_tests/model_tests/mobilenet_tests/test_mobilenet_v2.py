import numpy
import pytest

import chainer_core
from chainer_core import serializers

from chainer_cv.links import FeaturePredictor
from chainer_cv.links.model.mobilenet import ExpandedConv2D
from chainer_cv.links.model.mobilenet import MobileNetV2
from chainer_cv.links.model.mobilenet import TFConv2DBNActiv
from chainer_cv.links.model.mobilenet import TFConvolution2D


def _count(link):
    return sum(p.size for p in link.params())


@pytest.mark.parametrize('depth_multiplier,n_class,expected', [
    # torchvision's mobilenet_v2 (the same layers, 1000 classes) has
    # 3,504,872 parameters; TensorFlow's 1001-class classifier adds a
    # row of 1280 weights and a bias.
    (1.0, 1000, 3504872),
    (1.0, 1001, 3504872 + 1281),
    (1.4, 1001, 6110569),
    (0.5, 1001, 1969961),
])
def test_parameter_count(depth_multiplier, n_class, expected):
    model = MobileNetV2(n_class=n_class, depth_multiplier=depth_multiplier)
    assert _count(model) == expected


def test_channels_follow_the_multiplier():
    model = MobileNetV2(depth_multiplier=0.5)
    assert model.conv.conv.conv.W.shape == (16, 3, 3, 3)
    assert model.expanded_conv_16.project.conv.conv.W.shape[0] == 160
    # Below 1, the last convolution keeps its 1280 channels.
    assert model.conv1.conv.conv.W.shape == (1280, 160, 1, 1)
    model = MobileNetV2(depth_multiplier=1.4)
    assert model.conv.conv.conv.W.shape[0] == 48
    assert model.conv1.conv.conv.W.shape[0] == 1792


def test_layout():
    model = MobileNetV2(n_class=1001)
    assert model.layer_names == (
        ['conv', 'expanded_conv'] +
        ['expanded_conv_{}'.format(i) for i in range(1, 17)] +
        ['conv1', 'global_average_pool', 'logits_conv', 'squeeze',
         'softmax'])
    names = {name for name, _ in model.namedparams()}
    assert {'/conv/conv/conv/W', '/conv/bn/gamma', '/conv/bn/beta',
            '/expanded_conv/depthwise/conv/conv/W',
            '/expanded_conv/project/conv/conv/W',
            '/expanded_conv_1/expand/conv/conv/W',
            '/logits_conv/conv/W', '/logits_conv/conv/b'} <= names
    # The first block does not expand.
    assert not hasattr(model.expanded_conv, 'expand')
    assert model.expanded_conv_1.depthwise.conv.conv.W.shape == \
        (96, 1, 3, 3)
    assert model.conv.bn.eps == 0.001 and model.conv.bn.decay == 0.999


def test_predict_with_feature_predictor(device):
    model = MobileNetV2(n_class=10, depth_multiplier=0.35)
    predictor = FeaturePredictor(model, crop_size=96, scale_size=110)
    predictor.to_device(device)
    rng = numpy.random.RandomState(0)
    imgs = [rng.uniform(0, 255, (3, 120, 97)).astype(numpy.float32),
            rng.uniform(0, 255, (3, 99, 131)).astype(numpy.float32)]
    prob = predictor.predict(imgs)
    assert prob.shape == (2, 10) and prob.dtype == numpy.float32
    numpy.testing.assert_allclose(prob.sum(axis=1), 1, rtol=1e-5)


def test_odd_input_sizes_give_ceil_sized_outputs():
    model = MobileNetV2(depth_multiplier=0.35)
    model.pick = ['conv', 'expanded_conv_2', 'conv1']
    with chainer_core.using_config('train', False):
        conv, block2, conv1 = model(numpy.zeros((1, 3, 75, 61),
                                                numpy.float32))
    assert conv.shape[2:] == (38, 31)
    assert block2.shape[2:] == (19, 16)
    assert conv1.shape[2:] == (3, 2)


def test_npz_round_trip(tmp_path):
    model = MobileNetV2(n_class=1001, depth_multiplier=0.5)
    for _, param in model.namedparams():
        param.array[...] = numpy.random.uniform(size=param.shape)
    path = str(tmp_path / 'mobilenet.npz')
    serializers.save_npz(path, model)
    other = MobileNetV2(n_class=1001, depth_multiplier=0.5,
                        pretrained_model=path)
    for (name, a), (_, b) in zip(sorted(model.namedparams()),
                                 sorted(other.namedparams())):
        numpy.testing.assert_array_equal(a.array, b.array, err_msg=name)


def test_thousand_categories_mode(tmp_path):
    model = MobileNetV2(n_class=1001, depth_multiplier=0.5)
    path = str(tmp_path / 'mobilenet.npz')
    serializers.save_npz(path, model)
    other = MobileNetV2(n_class=1001, depth_multiplier=0.5,
                        pretrained_model=path, thousand_categories_mode=True)
    numpy.testing.assert_array_equal(other.logits_conv.W.array,
                                     model.logits_conv.W.array[1:])
    assert other.logits_conv.b.shape == (1000,)


@pytest.mark.parametrize('depth_multiplier', [1.0, 1.4])
def test_known_weights_are_not_downloaded(tmp_path, depth_multiplier):
    root = chainer_core.dataset.get_dataset_root()
    chainer_core.dataset.set_dataset_root(str(tmp_path))
    try:
        with pytest.raises(FileNotFoundError) as e:
            MobileNetV2(pretrained_model='imagenet',
                        depth_multiplier=depth_multiplier)
    finally:
        chainer_core.dataset.set_dataset_root(root)
    assert str(tmp_path) in str(e.value)


def test_tf_weights_fix_n_class_mean_and_scale(tmp_path):
    with pytest.raises(ValueError):
        MobileNetV2(n_class=1000, pretrained_model='imagenet')


def test_defaults_and_bad_arguments():
    model = MobileNetV2()
    assert model.n_class == 1000
    numpy.testing.assert_array_equal(model.scale, 1)
    with pytest.raises(ValueError):
        MobileNetV2(depth_multiplier=0)
    with pytest.raises(ValueError):
        MobileNetV2(arch='caffe')


@pytest.mark.parametrize('in_size,ksize,stride,pad', [
    # Along x TensorFlow pads one pixel, after (right), not before.
    ((7, 8), 3, 2, (1, 1, 0, 1)),
    ((8, 8), 3, 1, (1, 1, 1, 1)),
    ((8, 9), 1, 2, (0, 0, 0, 0)),
])
def test_tf_convolution_same_padding(in_size, ksize, stride, pad):
    rng = numpy.random.RandomState(0)
    x = rng.uniform(size=(1, 2) + in_size).astype(numpy.float32)
    conv = TFConvolution2D(2, 3, ksize, stride)
    y = conv(x).array
    expected_shape = tuple(-(-s // stride) for s in in_size)
    assert y.shape == (1, 3) + expected_shape
    top, bottom, left, right = pad
    padded = numpy.pad(x, ((0, 0), (0, 0), (top, bottom), (left, right)))
    plain = TFConvolution2D(2, 3, ksize, stride, pad=0)
    plain.conv.W.array[...] = conv.W.array
    numpy.testing.assert_allclose(y, plain(padded).array, rtol=1e-5,
                                  atol=1e-6)


def test_tf_convolution_valid_and_int_pads():
    x = numpy.zeros((1, 2, 7, 7), numpy.float32)
    assert TFConvolution2D(2, 3, 3, 2, pad='VALID')(x).shape == (1, 3, 3, 3)
    assert TFConvolution2D(2, 3, 3, 1, pad=1)(x).shape == (1, 3, 7, 7)
    with pytest.raises(ValueError):
        TFConvolution2D(2, 3, 3, pad='FULL')


def test_tf_conv_2d_bn_activ_infers_in_channels():
    link = TFConv2DBNActiv(4, 3, stride=2)
    assert link(numpy.zeros((1, 5, 9, 9), numpy.float32)).shape == \
        (1, 4, 5, 5)
    assert link.conv.W.shape == (4, 5, 3, 3)


def test_expanded_conv_residual():
    block = ExpandedConv2D(out_channels=8, in_channels=8)
    assert block.inner_size == 48
    x = numpy.random.RandomState(0).uniform(
        size=(1, 8, 6, 6)).astype(numpy.float32)
    with chainer_core.using_config('train', False):
        y = block(x).array
        body = block.project(block.depthwise(block.expand(x))).array
    numpy.testing.assert_allclose(y, body + x, rtol=1e-5)
    strided = ExpandedConv2D(out_channels=8, in_channels=8,
                             depthwise_stride=2)
    assert strided(x).shape == (1, 8, 3, 3)
