"""The classification models: ChainerCV's parameter counts and names,
prediction on every device, npz round trips and the weight names."""
import os

import numpy
import pytest

import chainer_core
from chainer_core import serializers

from chainer_cv import links


def _initialize_lazy(model, fc_in_size):
    """Shape the parameters as a first call on 224 x 224 RGB images would:
    the convolutions by a call on a small image stopping before ``fc6``,
    ``fc6`` for ``fc_in_size`` features."""
    pick = model.pick
    model.pick = 'pool5'
    with chainer_core.no_backprop_mode(), \
            chainer_core.using_config('train', False):
        model(numpy.zeros((1, 3, 32, 32), numpy.float32))
    model.pick = pick
    model.fc6._initialize_params(fc_in_size)
    for name in ('fc7', 'fc8'):
        if hasattr(model, name):
            getattr(model, name)._initialize_params(4096)


def _zero_init(cls, **kwargs):
    """A model with zero initializers: sampling 100M weights is slow."""
    zero = chainer_core.initializers.Zero()
    if cls is links.VGG16:
        return cls(initialW=zero, **kwargs)
    return cls(initialW=zero, fc_kwargs={'initialW': zero}, **kwargs)


def _n_params(model):
    return sum(p.size for p in model.params())


# The sizes of the published architectures (1000 classes).
@pytest.mark.parametrize('cls,fc_in_size,expected', [
    (links.VGG16, 512 * 7 * 7, 138357544),
    (links.ResNet50, 2048, 25557032),
    (links.ResNet101, 2048, 44549160),
    (links.ResNet152, 2048, 60192808),
    (links.SEResNet50, 2048, 28088024),
    (links.SEResNet101, 2048, 49326872),
    (links.SEResNet152, 2048, 66821848),
    (links.SEResNeXt50, 2048, 27559896),
    (links.SEResNeXt101, 2048, 48955416),
])
def test_parameter_count(cls, fc_in_size, expected):
    model = _zero_init(cls)
    _initialize_lazy(model, fc_in_size)
    assert _n_params(model) == expected


def test_resnet_he_has_a_bias_in_conv1():
    model = _zero_init(links.ResNet50, arch='he')
    _initialize_lazy(model, 2048)
    assert _n_params(model) == 25557032 + 64
    # The stride sits in the first 1x1 convolution.
    assert model.res3.a.conv1.conv.stride == (2, 2)
    assert links.ResNet50().res3.a.conv2.conv.stride == (2, 2)


def test_resnet50_parameter_names():
    model = _zero_init(links.ResNet50)
    _initialize_lazy(model, 2048)
    names = {name: p.shape for name, p in model.namedparams()}
    assert names['/conv1/conv/W'] == (64, 3, 7, 7)
    assert '/conv1/conv/b' not in names
    assert names['/conv1/bn/gamma'] == (64,)
    assert names['/res2/a/conv1/conv/W'] == (64, 64, 1, 1)
    assert names['/res2/a/residual_conv/conv/W'] == (256, 64, 1, 1)
    assert names['/res2/b2/conv3/bn/beta'] == (256,)
    assert names['/res5/a/conv2/conv/W'] == (512, 512, 3, 3)
    assert names['/fc6/W'] == (1000, 2048)
    assert names['/fc6/b'] == (1000,)
    assert model.layer_names == ['conv1', 'pool1', 'res2', 'res3', 'res4',
                                 'res5', 'pool5', 'fc6', 'prob']


def test_se_resnext_parameter_names():
    model = _zero_init(links.SEResNeXt50)
    _initialize_lazy(model, 2048)
    names = {name: p.shape for name, p in model.namedparams()}
    assert names['/res2/a/conv2/conv/W'] == (128, 4, 3, 3)
    assert names['/res2/a/se/down/W'] == (16, 256)
    assert names['/res2/a/se/up/W'] == (256, 16)


def test_vgg16_layers():
    model = _zero_init(links.VGG16)
    names = {name for name, _ in model.namedparams()}
    assert {'/conv1_1/conv/W', '/conv5_3/conv/b', '/fc6/W', '/fc8/b'} <= \
        names
    assert model.layer_names[-4:] == ['fc7_relu', 'fc7_dropout', 'fc8',
                                      'prob']


def _images():
    rng = numpy.random.RandomState(0)
    return [rng.uniform(0, 255, (3, 70, 90)).astype(numpy.float32),
            rng.uniform(0, 255, (3, 61, 53)).astype(numpy.float32)]


_FAST = [links.VGG16, links.ResNet50, links.SEResNet50, links.SEResNeXt50]
_SLOW = [links.ResNet101, links.ResNet152, links.SEResNet101,
         links.SEResNet152, links.SEResNeXt101]


def _check_predict(cls, device):
    model = cls(n_class=7)
    model.to_device(device)
    predictor = links.FeaturePredictor(model, crop_size=32, scale_size=40)
    predictor.to_device(device)
    prob = predictor.predict(_images())
    assert isinstance(prob, numpy.ndarray)
    assert prob.shape == (2, 7)
    numpy.testing.assert_allclose(prob.sum(axis=1), 1, rtol=1e-5)


@pytest.mark.parametrize('cls', _FAST)
def test_predict(cls, device):
    _check_predict(cls, device)


@pytest.mark.slow
@pytest.mark.parametrize('cls', _SLOW)
def test_predict_large(cls, device):
    _check_predict(cls, device)


@pytest.mark.parametrize('cls', [
    pytest.param(links.VGG16, marks=pytest.mark.slow), links.ResNet50,
    links.SEResNeXt50])
def test_npz_round_trip(cls, tmp_path):
    x = numpy.random.RandomState(1).uniform(
        -50, 50, (2, 3, 32, 32)).astype(numpy.float32)
    model = cls(n_class=5)
    with chainer_core.using_config('train', False):
        expected = model(x).array
    path = str(tmp_path / 'model.npz')
    serializers.save_npz(path, model)
    fresh = cls(n_class=5, pretrained_model=path)
    with chainer_core.using_config('train', False):
        numpy.testing.assert_array_equal(fresh(x).array, expected)


@pytest.mark.parametrize('cls', [links.VGG16, links.ResNet50,
                                 links.SEResNet101, links.SEResNeXt50])
def test_known_weights_are_not_downloaded(cls, tmp_path):
    root = chainer_core.dataset.get_dataset_root()
    chainer_core.dataset.set_dataset_root(str(tmp_path))
    try:
        with pytest.raises(FileNotFoundError) as e:
            cls(pretrained_model='imagenet')
    finally:
        chainer_core.dataset.set_dataset_root(root)
    message = str(e.value)
    assert os.path.join(str(tmp_path), 'pfnet', 'chainercv', 'models') in \
        message
    assert 'imagenet' in message and 'download' in message


def test_known_weights_fix_n_class(tmp_path):
    with pytest.raises(ValueError, match='n_class'):
        links.ResNet50(n_class=10, pretrained_model='imagenet')


def test_default_mean_and_classes():
    model = links.ResNet50()
    assert model.mean.shape == (3, 1, 1)
    assert model.fc6.out_size == 1000
    mean = numpy.zeros((3, 1, 1), numpy.float32)
    assert links.VGG16(mean=mean).mean is mean


def test_bad_arch():
    with pytest.raises(ValueError, match='arch'):
        links.ResNet50(arch='caffe')
