"""PickableSequentialChain, FeaturePredictor and the connection links."""
import numpy
import pytest

import chainer_core.functions as F
import chainer_core.links as L

from chainer_cv import links


class _Net(links.PickableSequentialChain):

    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.l1 = L.Linear(3, 4)
            self.double = lambda x: x * 2
            self.l2 = L.Linear(4, 2)
        self.mean = numpy.zeros((3, 1, 1), numpy.float32)


def test_pick_and_layers():
    net = _Net()
    assert net.layer_names == ['l1', 'double', 'l2']
    x = numpy.ones((2, 3), numpy.float32)
    assert net.pick == 'l2'
    assert net(x).shape == (2, 2)
    net.pick = ('double', 'l1')
    h2, h1 = net(x)
    numpy.testing.assert_array_equal(h2.array, h1.array * 2)
    with pytest.raises(ValueError, match='pick'):
        net.pick = 'l3'


def test_remove_unused():
    net = _Net()
    net.pick = 'l1'
    net.remove_unused()
    assert net.layer_names == ['l1']
    assert not hasattr(net, 'l2')
    assert sorted(name for name, _ in net.namedparams()) == ['/l1/W',
                                                             '/l1/b']


class _Flatten(links.PickableSequentialChain):

    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.conv = links.Conv2DBNActiv(3, 4, 3, pad=1)
            self.se = links.SEBlock(4, ratio=2)
            self.pool = lambda x: F.average(x, axis=(2, 3))
        self.mean = numpy.full((3, 1, 1), 100, numpy.float32)


@pytest.mark.parametrize('crop,scale_size', [('center', 20), ('10', None),
                                             ('center', (16, 24))])
def test_feature_predictor(device, crop, scale_size):
    model = _Flatten()
    model.to_device(device)
    predictor = links.FeaturePredictor(model, 16, scale_size, crop)
    predictor.to_device(device)
    imgs = [numpy.random.uniform(0, 255, (3, 30, 40)).astype('f'),
            numpy.random.uniform(0, 255, (3, 23, 17)).astype('f')]
    out = predictor.predict(imgs)
    assert out.shape == (2, 4)
    assert predictor.mean is model.mean


def test_feature_predictor_checks_crop():
    with pytest.raises(ValueError, match='crop'):
        links.FeaturePredictor(_Flatten(), 16, crop='corner')


def test_conv_activ_infers_in_channels():
    link = links.Conv2DActiv(5, 3, activ=None)
    y = link(numpy.ones((1, 2, 6, 6), numpy.float32))
    assert y.shape == (1, 5, 4, 4)
    assert link.conv.W.shape == (5, 2, 3, 3)
    assert link.conv.b is not None
    bn = links.Conv2DBNActiv(5, 3, bn_kwargs={'eps': 1e-3})
    assert bn.conv.b is None and bn.bn.eps == 1e-3


def test_seblock_scales_channels():
    block = links.SEBlock(8, ratio=4)
    x = numpy.random.uniform(1, 2, (2, 8, 3, 3)).astype(numpy.float32)
    y = block(x).array
    ratio = y / x
    # One factor in (0, 1) per sample and channel.
    numpy.testing.assert_allclose(
        ratio, numpy.broadcast_to(ratio[:, :, :1, :1], ratio.shape),
        rtol=1e-5)
    assert ((ratio > 0) & (ratio < 1)).all()
    assert block.down.W.shape == (2, 8) and block.up.W.shape == (8, 2)
