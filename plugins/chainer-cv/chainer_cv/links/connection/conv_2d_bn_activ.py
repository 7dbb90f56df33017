import chainer_core as chainer
from chainer_core.functions import relu
from chainer_core.links import BatchNormalization
from chainer_core.links import Convolution2D


def normalization(size, bn_kwargs):
    """Batch normalization of ``size`` channels; across processes
    (chainer-mn's MultiNodeBatchNormalization) when ``bn_kwargs`` has a
    ``comm``."""
    if 'comm' in bn_kwargs:
        # ChainerMN is an optional add-on: needed only when asked for.
        from chainer_mn.links import MultiNodeBatchNormalization
        return MultiNodeBatchNormalization(size, **bn_kwargs)
    return BatchNormalization(size, **bn_kwargs)


class ConvBNActiv(chainer.Chain):
    """A convolution link of Convolution2D's arguments, ``_convolution``,
    then batch normalization and an activation: what
    :class:`Conv2DBNActiv` and MobileNet's ``TFConv2DBNActiv`` share."""

    _convolution = None

    def __init__(self, in_channels, out_channels, ksize, stride, pad,
                 dilate, groups, nobias, initialW, initial_bias, activ,
                 bn_kwargs):
        if ksize is None:
            out_channels, ksize, in_channels = in_channels, out_channels, None
        self.activ = activ
        super().__init__()
        with self.init_scope():
            self.conv = self._convolution(
                in_channels, out_channels, ksize, stride, pad, nobias,
                initialW, initial_bias, dilate=dilate, groups=groups)
            self.bn = normalization(out_channels, bn_kwargs)

    def forward(self, x):
        h = self.bn(self.conv(x))
        return h if self.activ is None else self.activ(h)


class Conv2DBNActiv(ConvBNActiv):
    """Convolution2D, batch normalization and an activation.

    The children are ``conv`` (:class:`chainer.links.Convolution2D`) and
    ``bn`` (:class:`chainer.links.BatchNormalization`, or, when
    ``bn_kwargs`` holds a communicator ``comm``, ChainerMN's
    ``MultiNodeBatchNormalization`` over it). ``Conv2DBNActiv(
    out_channels, ksize, ...)`` leaves ``in_channels`` to be inferred.

    Args:
        in_channels (int or None): input channels (None: inferred).
        out_channels (int): output channels.
        ksize (int or pair of ints): kernel size.
        stride (int or pair of ints): stride of the filter.
        pad (int or pair of ints): spatial padding.
        dilate (int or pair of ints): dilation of the filter.
        groups (int): number of groups of channels.
        nobias (bool): no convolution bias when True (the default: the
            normalization has its own shift).
        initialW (callable): initializer of the convolution weight.
        initial_bias (callable): initializer of the convolution bias.
        activ (callable): the activation, :func:`chainer.functions.relu`
            by default, or None for none.
        bn_kwargs (dict): keyword arguments of the normalization link
            (``decay``, ``eps``, ``comm`` ...).
    """

    _convolution = Convolution2D

    def __init__(self, in_channels, out_channels, ksize=None, stride=1,
                 pad=0, dilate=1, groups=1, nobias=True, initialW=None,
                 initial_bias=None, activ=relu, bn_kwargs={}):
        super().__init__(in_channels, out_channels, ksize, stride, pad,
                         dilate, groups, nobias, initialW, initial_bias,
                         activ, bn_kwargs)
