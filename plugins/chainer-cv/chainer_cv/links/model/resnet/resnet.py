import numpy

from chainer_cv.links.model.resnet._classifier import BottleneckClassifier

# RGB means of ILSVRC2012, as ChainerCV's ResNet weights expect.
_imagenet_mean = numpy.array([123.15163084, 115.90288257, 103.0626238],
                             dtype=numpy.float32)[:, None, None]

_blocks = {50: (3, 4, 6, 3), 101: (3, 4, 23, 3), 152: (3, 8, 36, 3)}

_files = {
    'fb': {50: 'resnet50_imagenet_trained_2018_11_26.npz',
           101: 'resnet101_imagenet_trained_2018_11_26.npz',
           152: 'resnet152_imagenet_trained_2018_11_26.npz'},
    'he': {50: 'resnet50_imagenet_converted_2018_03_07.npz',
           101: 'resnet101_imagenet_converted_2018_03_07.npz',
           152: 'resnet152_imagenet_converted_2018_03_07.npz'},
}


class ResNet(BottleneckClassifier):
    """ResNet (`He et al. <https://arxiv.org/abs/1512.03385>`_).

    A :class:`~chainercv.links.PickableSequentialChain` with the layers
    ``conv1, pool1, res2, res3, res4, res5, pool5, fc6, prob``; a call
    returns ``prob`` unless :obj:`pick` says otherwise.

    Args:
        n_layer (int): 50, 101 or 152.
        n_class (int): classes; by default those of the pretrained model,
            else 1000.
        pretrained_model (str): ``'imagenet'`` (ChainerCV's weights for
            the ``arch``, looked for in ChainerCV's model directory), the
            path of an npz file, or None for random weights.
        mean (numpy.ndarray): the mean of the images, ``(3, 1, 1)``.
        initialW (callable): initializer of the convolutions.
        fc_kwargs (dict): keyword arguments of ``fc6``.
        arch (str): ``'fb'`` (Facebook's variant: the stride in the 3x3
            convolution, no bias in ``conv1``) or ``'he'`` (the original:
            the stride in the first 1x1 convolution, a bias in
            ``conv1``).
    """

    def __init__(self, n_layer, n_class=None, pretrained_model=None,
                 mean=None, initialW=None, fc_kwargs={}, arch='fb'):
        if arch not in ('fb', 'he'):
            raise ValueError("ResNet: arch must be 'fb' or 'he', got {!r}"
                             .format(arch))
        if n_layer not in _blocks:
            raise ValueError('ResNet: n_layer must be one of {}, got {!r}'
                             .format(sorted(_blocks), n_layer))
        models = {'imagenet': {
            'param': {'n_class': 1000, 'mean': _imagenet_mean},
            'overwritable': ('mean',), 'file': _files[arch][n_layer]}}
        super().__init__(
            'ResNet{}'.format(n_layer), _blocks[n_layer],
            (64, 128, 256, 512), {'n_class': n_class, 'mean': mean},
            pretrained_model, models,
            {'n_class': 1000, 'mean': _imagenet_mean}, initialW=initialW,
            fc_kwargs=fc_kwargs, conv1_no_bias=arch == 'fb',
            stride_first=arch == 'he')


class ResNet50(ResNet):
    """ResNet-50: :class:`ResNet` with ``n_layer=50``."""

    def __init__(self, n_class=None, pretrained_model=None, mean=None,
                 initialW=None, fc_kwargs={}, arch='fb'):
        super().__init__(50, n_class, pretrained_model, mean, initialW,
                         fc_kwargs, arch)


class ResNet101(ResNet):
    """ResNet-101: :class:`ResNet` with ``n_layer=101``."""

    def __init__(self, n_class=None, pretrained_model=None, mean=None,
                 initialW=None, fc_kwargs={}, arch='fb'):
        super().__init__(101, n_class, pretrained_model, mean, initialW,
                         fc_kwargs, arch)


class ResNet152(ResNet):
    """ResNet-152: :class:`ResNet` with ``n_layer=152``."""

    def __init__(self, n_class=None, pretrained_model=None, mean=None,
                 initialW=None, fc_kwargs={}, arch='fb'):
        super().__init__(152, n_class, pretrained_model, mean, initialW,
                         fc_kwargs, arch)
