import functools

import numpy

import chainer_core.functions as F

from chainer_cv.links.model import _pretrained
from chainer_cv.links.model.mobilenet.expanded_conv_2d import \
    ExpandedConv2D
from chainer_cv.links.model.mobilenet.tf_conv_2d_bn_activ import \
    TFConv2DBNActiv
from chainer_cv.links.model.mobilenet.tf_convolution_2d import \
    TFConvolution2D
from chainer_cv.links.model.mobilenet.util import _make_divisible
from chainer_cv.links.model.mobilenet.util import expand_input_by_factor
from chainer_cv.links.model.pickable_sequential_chain import \
    PickableSequentialChain


def _multiplied(channels, depth_multiplier):
    return _make_divisible(channels * depth_multiplier, 8, 8)


def _relu6(x):
    return F.clipped_relu(x, 6.)


def _global_average_pool(x):
    return F.average_pooling_2d(x, ksize=x.shape[2:4], stride=1)


# TensorFlow's models see x / 128 - 1: ``(x - mean) * scale``.
_tf_mean = numpy.full((3, 1, 1), 128, dtype=numpy.float32)
_tf_scale = numpy.full((3, 1, 1), 1 / 128., dtype=numpy.float32)
_imagenet_mean = numpy.array([123.68, 116.779, 103.939],
                             dtype=numpy.float32)[:, None, None]
_imagenet_scale = numpy.ones((3, 1, 1), dtype=numpy.float32)

# Output channels of expanded_conv_1 ... expanded_conv_16, and the blocks
# that halve the resolution.
_block_channels = (24,) * 2 + (32,) * 3 + (64,) * 4 + (96,) * 3 + \
    (160,) * 3 + (320,)
_downsampling_blocks = (1, 3, 6, 13)


def _tf_weights(depth_multiplier):
    return {
        'imagenet': {
            # TensorFlow's classifier has 1001 outputs, the first for
            # "background".
            'param': {'n_class': 1001, 'mean': _tf_mean, 'scale': _tf_scale},
            'overwritable': (),
            'file': 'mobilenet_v2_depth_multiplier_{}_imagenet_converted_'
                    '2019_04_01.npz'.format(depth_multiplier),
        },
    }


class MobileNetV2(PickableSequentialChain):
    """MobileNetV2 (`Sandler et al. <https://arxiv.org/abs/1801.04381>`_)
    laid out as TensorFlow-Slim's, whose converted weights it loads.

    A :class:`~chainercv.links.PickableSequentialChain` of the layers
    ``conv``, ``expanded_conv``, ``expanded_conv_1`` ...
    ``expanded_conv_16``, ``conv1``, ``global_average_pool``,
    ``logits_conv``, ``squeeze`` and ``softmax``; a call returns the
    softmax scores unless :obj:`pick` says otherwise. Convolutions pad as
    TensorFlow's 'SAME' and activations are ReLU6.

    The model keeps ``mean`` and ``scale``: inputs are expected as
    ``(img - mean) * scale``; the TensorFlow weights were trained on
    images mapped to :math:`[-1, 1]` (mean 128, scale 1/128).

    Args:
        n_class (int): Classes; 1001 for the TensorFlow weights, else 1000
            by default.
        pretrained_model (str): ``'imagenet'`` (the weights converted from
            TensorFlow, for ``depth_multiplier`` 1.0 or 1.4, read from
            ChainerCV's model directory; nothing is downloaded), the path
            of an npz file, or None.
        mean (numpy.ndarray): Mean of the images, ``(3, 1, 1)``.
        scale (numpy.ndarray): Factor applied after subtracting the mean.
        initialW (callable): Initializer of the convolution weights.
        initial_bias (callable): Initializer of the classifier's bias.
        arch (str): ``'tf'``, the only layout.
        depth_multiplier (float): Width multiplier of every layer; the
            channels are rounded to multiples of 8 as TensorFlow rounds
            them, and the last convolution keeps 1280 channels below 1.
        bn_kwargs (dict): Keyword arguments of the batch normalizations
            (TensorFlow-Slim's decay 0.999 and eps 0.001 by default).
        thousand_categories_mode (bool): With more than 1000 classes, drop
            the first (TensorFlow's background) output, leaving ImageNet's
            1000 classes.
    """

    _bn_tf_default_params = {'decay': 0.999, 'eps': 0.001}

    _models = {
        'tf': {
            1.0: _tf_weights(1.0),
            1.4: _tf_weights(1.4),
        },
    }

    def __init__(self, n_class=None, pretrained_model=None, mean=None,
                 scale=None, initialW=None, initial_bias=None, arch='tf',
                 depth_multiplier=1., bn_kwargs=_bn_tf_default_params,
                 thousand_categories_mode=False):
        if arch not in self._models:
            raise ValueError("MobileNetV2: arch must be 'tf'; got {!r}"
                             .format(arch))
        if depth_multiplier <= 0:
            raise ValueError('MobileNetV2: depth_multiplier must be greater '
                             'than 0; got {}'.format(depth_multiplier))
        param, path = _pretrained.prepare(
            'MobileNetV2', {'n_class': n_class, 'mean': mean, 'scale': scale},
            pretrained_model,
            self._models[arch].get(float(depth_multiplier), {}),
            {'n_class': 1000, 'mean': _imagenet_mean,
             'scale': _imagenet_scale})
        self.mean = param['mean']
        self.scale = param['scale']
        self.n_class = param['n_class']
        kwargs = {'initialW': initialW, 'bn_kwargs': bn_kwargs}

        super().__init__()
        with self.init_scope():
            in_channels = _multiplied(32, depth_multiplier)
            self.conv = TFConv2DBNActiv(3, in_channels, ksize=3, stride=2,
                                        nobias=True, activ=_relu6, **kwargs)
            out_channels = _multiplied(16, depth_multiplier)
            self.expanded_conv = ExpandedConv2D(
                out_channels=out_channels, in_channels=in_channels,
                expansion_size=expand_input_by_factor(1, divisible_by=1),
                **kwargs)
            in_channels = out_channels
            for i, channels in enumerate(_block_channels, 1):
                out_channels = _multiplied(channels, depth_multiplier)
                setattr(self, 'expanded_conv_{}'.format(i), ExpandedConv2D(
                    out_channels=out_channels, in_channels=in_channels,
                    depthwise_stride=2 if i in _downsampling_blocks else 1,
                    **kwargs))
                in_channels = out_channels
            conv1_channels = 1280 if depth_multiplier < 1 else \
                _multiplied(1280, depth_multiplier)
            self.conv1 = TFConv2DBNActiv(in_channels, conv1_channels,
                                         ksize=1, nobias=True, activ=_relu6,
                                         **kwargs)
            self.global_average_pool = _global_average_pool
            self.logits_conv = TFConvolution2D(
                conv1_channels, self.n_class, ksize=1, nobias=False,
                initialW=initialW, initial_bias=initial_bias)
            self.squeeze = functools.partial(F.squeeze, axis=(2, 3))
            self.softmax = F.softmax
        _pretrained.load(path, self)

        if thousand_categories_mode and self.n_class > 1000:
            conv = self.logits_conv.conv
            conv.W.array = conv.W.array[1:]
            conv.b.array = conv.b.array[1:]
            self.n_class -= 1
