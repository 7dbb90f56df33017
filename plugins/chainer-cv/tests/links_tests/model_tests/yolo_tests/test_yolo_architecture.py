"""The YOLO models' architecture: parameter counts against Darknet's
published files, ChainerCV's parameter names, the extractors' output
shapes, and Darknet's reorg and stride-1 pooling."""
import numpy
import pytest

import chainer_core
from chainer_core import serializers

from chainer_cv.links.model import yolo
from chainer_cv.links.model.yolo import yolo_v2


def _n_params(model):
    return sum(p.size for p in model.params())


def _n_darknet_floats(model):
    """The floats of Darknet's weight file of the model: the parameters
    and each batch normalization's running mean and variance."""
    return _n_params(model) + sum(
        2 * link.avg_mean.size for link in model.links()
        if isinstance(link, chainer_core.links.BatchNormalization))


# Darknet's COCO files (80 classes): yolov2.weights is 203,934,260 bytes
# and yolov3.weights 248,007,048, after headers of 16 and 20 bytes (format
# 0.1 counts the images seen in an int, 0.2 in a size_t). The Darknet
# models' trainable count of YOLOv3, 61,949,149, is the one PyTorch ports
# print.
@pytest.mark.parametrize('cls,darknet_floats,trainable', [
    (yolo.YOLOv2, (203934260 - 16) // 4, None),
    (yolo.YOLOv3, (248007048 - 20) // 4, 61949149),
])
def test_parameter_count_coco(yolo_model, cls, darknet_floats, trainable):
    model = yolo_model(cls, 80)
    assert _n_darknet_floats(model) == darknet_floats
    if trainable is not None:
        assert _n_params(model) == trainable


def test_parameter_count_voc(yolo_model):
    # Only the heads' output convolutions depend on the classes: 5 anchors
    # x (5 + C) outputs on 1024 channels for YOLOv2, 3 x (5 + C) on 1024,
    # 512 and 256 channels for YOLOv3.
    assert _n_params(yolo_model(yolo.YOLOv2, 80)) - \
        _n_params(yolo_model(yolo.YOLOv2, 20)) == 5 * 60 * (1024 + 1)
    assert _n_params(yolo_model(yolo.YOLOv3, 80)) - \
        _n_params(yolo_model(yolo.YOLOv3, 20)) == \
        3 * 60 * (1024 + 1 + 512 + 1 + 256 + 1)
    assert _n_params(yolo_model(yolo.YOLOv2, 20)) == 50655389
    assert _n_params(yolo_model(yolo.YOLOv3, 20)) == 61626049


def test_parameter_count_tiny(yolo_model):
    # yolov2-tiny-voc.cfg: 3 x 3 convolutions 3 > 16 > 32 > ... > 1024 >
    # 1024, each with a batch normalization (scale and shift), and the
    # 1 x 1 output convolution with bias.
    channels = [3, 16, 32, 64, 128, 256, 512, 1024, 1024]
    convs = sum(9 * c_in * c_out + 2 * c_out
                for c_in, c_out in zip(channels, channels[1:]))
    head = 1024 * 125 + 125
    assert convs + head == 15861773
    assert _n_params(yolo_model(yolo.YOLOv2Tiny, 20)) == 15861773


def _npz_keys(model):
    """The keys and shapes save_npz writes."""
    serializer = serializers.DictionarySerializer()
    serializer.save(model)
    return {key: numpy.shape(value)
            for key, value in serializer.target.items()}


def _conv_bn_keys(prefix):
    return ['{}/conv/W'.format(prefix)] + [
        '{}/bn/{}'.format(prefix, name)
        for name in ('gamma', 'beta', 'avg_mean', 'avg_var', 'N')]


def test_yolov2_npz_keys_are_chainercvs(yolo_model):
    keys = _npz_keys(yolo_model(yolo.YOLOv2, 20))
    expected = {'subnet/W', 'subnet/b'}
    for i in range(22):
        expected.update(_conv_bn_keys('extractor/{}'.format(i)))
    assert set(keys) == expected
    assert keys['extractor/0/conv/W'] == (32, 3, 3, 3)
    assert keys['extractor/2/conv/W'] == (128, 64, 3, 3)
    assert keys['extractor/3/conv/W'] == (64, 128, 1, 1)
    assert keys['extractor/17/bn/gamma'] == (1024,)
    assert keys['extractor/20/conv/W'] == (64, 512, 1, 1)
    assert keys['extractor/21/conv/W'] == (1024, 1280, 3, 3)
    assert keys['subnet/W'] == (125, 1024, 1, 1)
    assert keys['subnet/b'] == (125,)


def test_yolov2_tiny_npz_keys_are_chainercvs(yolo_model):
    keys = _npz_keys(yolo_model(yolo.YOLOv2Tiny, 20))
    expected = {'subnet/W', 'subnet/b'}
    for i in range(8):
        expected.update(_conv_bn_keys('extractor/{}'.format(i)))
    assert set(keys) == expected
    assert keys['extractor/6/conv/W'] == (1024, 512, 3, 3)
    assert keys['extractor/7/conv/W'] == (1024, 1024, 3, 3)


def test_yolov3_npz_keys_are_chainercvs(yolo_model):
    keys = _npz_keys(yolo_model(yolo.YOLOv3, 20))
    # Darknet-53: the stem, then per stage a strided convolution and its
    # residual blocks (children 0 and 1), then 17 neck convolutions.
    residual = set()
    index = 1
    for n_block in (1, 2, 8, 8, 4):
        residual.update(range(index + 1, index + 1 + n_block))
        index += 1 + n_block
    assert index == 29
    expected = set()
    for i in range(46):
        prefix = 'extractor/{}'.format(i)
        if i in residual:
            expected.update(_conv_bn_keys(prefix + '/0'))
            expected.update(_conv_bn_keys(prefix + '/1'))
        else:
            expected.update(_conv_bn_keys(prefix))
    for k in range(3):
        expected.update(_conv_bn_keys('subnet/{}/0'.format(k)))
        expected.update({'subnet/{}/1/W'.format(k), 'subnet/{}/1/b'.format(k)})
    assert set(keys) == expected
    assert keys['extractor/1/conv/W'] == (64, 32, 3, 3)
    assert keys['extractor/2/0/conv/W'] == (32, 64, 1, 1)
    assert keys['extractor/2/1/conv/W'] == (64, 32, 3, 3)
    assert keys['extractor/28/1/bn/beta'] == (1024,)
    assert keys['extractor/34/conv/W'] == (256, 512, 1, 1)
    assert keys['extractor/35/conv/W'] == (256, 768, 1, 1)
    assert keys['extractor/41/conv/W'] == (128, 384, 1, 1)
    assert keys['subnet/0/0/conv/W'] == (1024, 512, 3, 3)
    assert keys['subnet/0/1/W'] == (75, 1024, 1, 1)
    assert keys['subnet/2/1/W'] == (75, 256, 1, 1)
    assert keys['subnet/2/1/b'] == (75,)


def test_convolutions_are_darknets(yolo_model):
    for model in (yolo_model(yolo.YOLOv2Tiny, 20),
                  yolo_model(yolo.YOLOv3, 20)):
        for link in model.links():
            if hasattr(link, 'bn'):
                assert link.conv.b is None
                x = numpy.array([-10., 10.], numpy.float32)
                numpy.testing.assert_allclose(link.activ(x).array, [-1, 10])


def _features(extractor, shape):
    x = numpy.random.RandomState(0).uniform(0, 1, shape).astype(
        numpy.float32)
    with chainer_core.using_config('train', False), \
            chainer_core.no_backprop_mode():
        return extractor(x)


def test_darknet_tiny_extractor_shape(yolo_model):
    extractor = yolo_model(yolo.YOLOv2Tiny, 20).extractor
    assert isinstance(extractor, yolo.DarknetTinyExtractor)
    assert extractor.insize == 416 and extractor.grid == 13
    assert _features(extractor, (2, 3, 416, 416)).shape == \
        (2, 1024, 13, 13)
    assert _features(extractor, (1, 3, 96, 160)).shape == (1, 1024, 3, 5)


# The full-size calls are in test_yolo_predict's forward and predict tests.
def test_darknet19_extractor_shape(yolo_model):
    extractor = yolo_model(yolo.YOLOv2, 20).extractor
    assert isinstance(extractor, yolo.Darknet19Extractor)
    assert extractor.insize == 416 and extractor.grid == 13
    assert _features(extractor, (2, 3, 96, 160)).shape == (2, 1024, 3, 5)


def test_darknet53_extractor_shape(yolo_model):
    extractor = yolo_model(yolo.YOLOv3, 20).extractor
    assert isinstance(extractor, yolo.Darknet53Extractor)
    assert extractor.insize == 416 and extractor.grids == (13, 26, 52)
    ys = _features(extractor, (2, 3, 64, 96))
    assert [y.shape for y in ys] == [
        (2, 512, 2, 3), (2, 256, 4, 6), (2, 128, 8, 12)]


def test_chainercv_names():
    assert yolo.DarknetExtractor is yolo.DarknetTinyExtractor
    assert issubclass(yolo.YOLOv2, yolo.YOLOv2Base)
    assert issubclass(yolo.YOLOv2Tiny, yolo.YOLOv2Base)
    assert issubclass(yolo.YOLOv3, yolo.YOLOBase)
    assert issubclass(yolo.ResidualBlock, chainer_core.ChainList)


def test_residual_block_adds_its_input():
    link = chainer_core.links.Linear(3, 3)
    block = yolo.ResidualBlock(link)
    x = numpy.arange(6, dtype=numpy.float32).reshape(2, 3)
    numpy.testing.assert_allclose(block(x).array, link(x).array + x,
                                  rtol=1e-6)


def _darknet_reorg(x):
    """Darknet's reorg_cpu (stride 2, as its reorg layer calls it): output
    element (b, k, j, i) of the (C, H, W) index space is input element
    (b, c2, h2, w2) of the same memory read as (C/4, 2H, 2W)."""
    batch, c, h, w = x.shape
    out_c = c // 4
    flat = x.reshape(batch, out_c, 2 * h, 2 * w)
    b, k, j, i = numpy.meshgrid(numpy.arange(batch), numpy.arange(c),
                                numpy.arange(h), numpy.arange(w),
                                indexing='ij')
    offset = k // out_c
    out = flat[b, k % out_c, j * 2 + offset // 2, i * 2 + offset % 2]
    return out.reshape(batch, 4 * c, h // 2, w // 2)


def test_reorg_is_darknets():
    x = numpy.random.RandomState(0).uniform(size=(2, 64, 6, 4)).astype(
        numpy.float32)
    numpy.testing.assert_array_equal(yolo_v2._reorg(x).array,
                                     _darknet_reorg(x))


def test_stride_one_pooling_is_darknets():
    # Darknet pads its 2 x 2 window on the right and bottom only.
    x = numpy.random.RandomState(0).uniform(-1, 0, (1, 2, 5, 4)).astype(
        numpy.float32)
    padded = numpy.pad(x, ((0, 0), (0, 0), (0, 1), (0, 1)),
                       constant_values=-numpy.inf)
    expected = numpy.maximum.reduce([
        padded[:, :, dy:dy + 5, dx:dx + 4] for dy in (0, 1) for dx in (0, 1)])
    numpy.testing.assert_array_equal(
        yolo_v2._maxpool(x, stride=1).array, expected)
