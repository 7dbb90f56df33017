import numpy

from chainer_cv.links.model.resnet._classifier import BottleneckClassifier

# RGB means of ILSVRC2012, as the converted SENet weights expect.
_imagenet_mean = numpy.array([123.15163084, 115.90288257, 103.0626238],
                             dtype=numpy.float32)[:, None, None]

_blocks = {50: (3, 4, 6, 3), 101: (3, 4, 23, 3), 152: (3, 8, 36, 3)}


def _models(filename):
    return {'imagenet': {
        'param': {'n_class': 1000, 'mean': _imagenet_mean},
        'overwritable': ('mean',), 'file': filename}}


class SEResNet(BottleneckClassifier):
    """SE-ResNet (`Hu et al. <https://arxiv.org/abs/1709.01507>`_): ResNet
    bottlenecks (the stride in the first 1x1 convolution) each ending in a
    :class:`~chainercv.links.SEBlock`.

    The layers are ``conv1, pool1, res2, res3, res4, res5, pool5, fc6,
    prob``.

    Args:
        n_layer (int): 50, 101 or 152.
        n_class (int): classes; by default those of the pretrained model,
            else 1000.
        pretrained_model (str): ``'imagenet'`` (the converted weights,
            looked for in ChainerCV's model directory), the path of an npz
            file, or None for random weights.
        mean (numpy.ndarray): the mean of the images, ``(3, 1, 1)``.
        initialW (callable): initializer of the convolutions.
        fc_kwargs (dict): keyword arguments of ``fc6``.
    """

    def __init__(self, n_layer, n_class=None, pretrained_model=None,
                 mean=None, initialW=None, fc_kwargs={}):
        if n_layer not in _blocks:
            raise ValueError('SEResNet: n_layer must be one of {}, got {!r}'
                             .format(sorted(_blocks), n_layer))
        super().__init__(
            'SEResNet{}'.format(n_layer), _blocks[n_layer],
            (64, 128, 256, 512), {'n_class': n_class, 'mean': mean},
            pretrained_model, _models(
                'se_resnet{}_imagenet_converted_2018_06_25.npz'.format(
                    n_layer)),
            {'n_class': 1000, 'mean': _imagenet_mean}, initialW=initialW,
            fc_kwargs=fc_kwargs, stride_first=True, add_seblock=True)


class SEResNet50(SEResNet):
    """SE-ResNet-50: :class:`SEResNet` with ``n_layer=50``."""

    def __init__(self, n_class=None, pretrained_model=None, mean=None,
                 initialW=None, fc_kwargs={}):
        super().__init__(50, n_class, pretrained_model, mean, initialW,
                         fc_kwargs)


class SEResNet101(SEResNet):
    """SE-ResNet-101: :class:`SEResNet` with ``n_layer=101``."""

    def __init__(self, n_class=None, pretrained_model=None, mean=None,
                 initialW=None, fc_kwargs={}):
        super().__init__(101, n_class, pretrained_model, mean, initialW,
                         fc_kwargs)


class SEResNet152(SEResNet):
    """SE-ResNet-152: :class:`SEResNet` with ``n_layer=152``."""

    def __init__(self, n_class=None, pretrained_model=None, mean=None,
                 initialW=None, fc_kwargs={}):
        super().__init__(152, n_class, pretrained_model, mean, initialW,
                         fc_kwargs)
