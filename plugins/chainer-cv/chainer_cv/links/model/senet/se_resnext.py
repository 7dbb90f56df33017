from chainer_cv.links.model.resnet._classifier import BottleneckClassifier
from chainer_cv.links.model.senet.se_resnet import _imagenet_mean
from chainer_cv.links.model.senet.se_resnet import _models

_blocks = {50: (3, 4, 6, 3), 101: (3, 4, 23, 3)}


class SEResNeXt(BottleneckClassifier):
    """SE-ResNeXt (`Hu et al. <https://arxiv.org/abs/1709.01507>`_):
    ResNeXt bottlenecks (32 groups, twice the bottleneck channels of
    ResNet, the stride in the 3x3 convolution) each ending in a
    :class:`~chainercv.links.SEBlock`.

    The layers are ``conv1, pool1, res2, res3, res4, res5, pool5, fc6,
    prob``.

    Args:
        n_layer (int): 50 or 101.
        n_class, pretrained_model, mean, initialW, fc_kwargs: as
            :class:`SEResNet`.
    """

    def __init__(self, n_layer, n_class=None, pretrained_model=None,
                 mean=None, initialW=None, fc_kwargs={}):
        if n_layer not in _blocks:
            raise ValueError('SEResNeXt: n_layer must be one of {}, got '
                             '{!r}'.format(sorted(_blocks), n_layer))
        super().__init__(
            'SEResNeXt{}'.format(n_layer), _blocks[n_layer],
            (128, 256, 512, 1024), {'n_class': n_class, 'mean': mean},
            pretrained_model, _models(
                'se_resnext{}_imagenet_converted_2018_06_28.npz'.format(
                    n_layer)),
            {'n_class': 1000, 'mean': _imagenet_mean}, initialW=initialW,
            fc_kwargs=fc_kwargs, groups=32, stride_first=False,
            add_seblock=True)


class SEResNeXt50(SEResNeXt):
    """SE-ResNeXt-50: :class:`SEResNeXt` with ``n_layer=50``."""

    def __init__(self, n_class=None, pretrained_model=None, mean=None,
                 initialW=None, fc_kwargs={}):
        super().__init__(50, n_class, pretrained_model, mean, initialW,
                         fc_kwargs)


class SEResNeXt101(SEResNeXt):
    """SE-ResNeXt-101: :class:`SEResNeXt` with ``n_layer=101``."""

    def __init__(self, n_class=None, pretrained_model=None, mean=None,
                 initialW=None, fc_kwargs={}):
        super().__init__(101, n_class, pretrained_model, mean, initialW,
                         fc_kwargs)
