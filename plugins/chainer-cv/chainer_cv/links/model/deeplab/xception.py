import numpy

import chainer_core as chainer
import chainer_core.functions as F

from chainer_cv.links.connection import Conv2DBNActiv
from chainer_cv.links.connection import SeparableConv2DBNActiv


class XceptionBlock(chainer.Chain):
    """A block of Xception: three separable convolutions ``separable1``
    ... ``separable3`` and a shortcut.

    A call returns the output and the second separable convolution's
    output before its activation (DeepLab v3+'s low-level feature).

    Args:
        in_channels (int): input channels.
        depthlist (sequence of 3 ints): output channels of the three
            separable convolutions.
        stride (int or pair of ints): stride of the third one (and of the
            shortcut's convolution).
        dilate (int or pair of ints): dilation of the three.
        skip_type ({'conv', 'sum', 'none'}): the shortcut: a 1x1
            convolution with normalization ``conv``, the input itself, or
            none.
        activ_first (bool): ReLU on the input (the usual pre-activation);
            when False, ReLU on the output instead.
        bn_kwargs (dict): keyword arguments of the normalizations.
        dw_activ_list (sequence of 3 callables): activations after the
            depthwise halves (None: none).
        pw_activ_list (sequence of 3 callables): activations after the
            pointwise halves; the second one is applied after the
            low-level feature is taken.
    """

    def __init__(self, in_channels, depthlist, stride=1, dilate=1,
                 skip_type='conv', activ_first=True, bn_kwargs={},
                 dw_activ_list=(None, None, None),
                 pw_activ_list=(F.relu, F.relu, None)):
        if skip_type not in ('conv', 'sum', 'none'):
            raise ValueError("XceptionBlock: skip_type must be 'conv', 'sum' "
                             "or 'none', got {!r}".format(skip_type))
        super().__init__()
        self.skip_type = skip_type
        self.activ_first = activ_first
        self.separable2_activ = pw_activ_list[1] or F.identity
        channels = (in_channels,) + tuple(depthlist)
        pw_activs = (pw_activ_list[0], None, pw_activ_list[2])
        with self.init_scope():
            for i in range(3):
                setattr(self, 'separable{}'.format(i + 1),
                        SeparableConv2DBNActiv(
                            channels[i], channels[i + 1], 3,
                            stride if i == 2 else 1, dilate, dilate,
                            nobias=True, dw_activ=dw_activ_list[i],
                            pw_activ=pw_activs[i], bn_kwargs=bn_kwargs))
            if skip_type == 'conv':
                self.conv = Conv2DBNActiv(
                    in_channels, depthlist[2], 1, stride, activ=None,
                    nobias=True, bn_kwargs=bn_kwargs)

    def forward(self, x):
        h = F.relu(x) if self.activ_first else x
        separable2 = self.separable2(self.separable1(h))
        h = self.separable3(self.separable2_activ(separable2))
        if self.skip_type == 'conv':
            h = h + self.conv(x)
        elif self.skip_type == 'sum':
            h = h + x
        if not self.activ_first:
            h = F.relu(h)
        return h, separable2


class Xception65(chainer.Chain):
    """Xception-65 as DeepLab v3+ uses it (the TensorFlow DeepLab
    variant), with an output stride of 8.

    The children are ``entryflow_conv1``, ``entryflow_conv2``,
    ``entryflow_block1`` ... ``entryflow_block3``, ``middleflow_block1``
    ... ``middleflow_block16``, ``exitflow_block1`` and
    ``exitflow_block2``. A call returns ``(lowlevel, highlevel)``: the
    low-level feature of ``entryflow_block2`` (256 channels, stride 4)
    and the output (2048 channels, stride 8).

    Args:
        bn_kwargs (dict): keyword arguments of the normalizations.
    """

    # Inputs are scaled to [-1, 1] around this value.
    mean = numpy.array([127.5, 127.5, 127.5],
                       dtype=numpy.float32)[:, None, None]

    def __init__(self, bn_kwargs={}):
        super().__init__()
        with self.init_scope():
            self.entryflow_conv1 = Conv2DBNActiv(
                3, 32, 3, 2, 1, bn_kwargs=bn_kwargs)
            self.entryflow_conv2 = Conv2DBNActiv(
                32, 64, 3, 1, 1, bn_kwargs=bn_kwargs)
            for i, (in_ch, out_ch, stride) in enumerate(
                    ((64, 128, 2), (128, 256, 2), (256, 728, 1)), 1):
                setattr(self, 'entryflow_block{}'.format(i), XceptionBlock(
                    in_ch, (out_ch,) * 3, stride=stride, bn_kwargs=bn_kwargs))
            for i in range(1, 17):
                setattr(self, 'middleflow_block{}'.format(i), XceptionBlock(
                    728, (728, 728, 728), dilate=2, skip_type='sum',
                    bn_kwargs=bn_kwargs))
            self.exitflow_block1 = XceptionBlock(
                728, (728, 1024, 1024), dilate=2, bn_kwargs=bn_kwargs)
            self.exitflow_block2 = XceptionBlock(
                1024, (1536, 1536, 2048), dilate=4, skip_type='none',
                activ_first=False, bn_kwargs=bn_kwargs,
                dw_activ_list=(F.relu,) * 3, pw_activ_list=(F.relu,) * 3)

    def forward(self, x):
        h = self.entryflow_conv2(self.entryflow_conv1(x))
        h, _ = self.entryflow_block1(h)
        h, lowlevel = self.entryflow_block2(h)
        h, _ = self.entryflow_block3(h)
        for i in range(1, 17):
            h, _ = self['middleflow_block{}'.format(i)](h)
        h, _ = self.exitflow_block1(h)
        highlevel, _ = self.exitflow_block2(h)
        return lowlevel, highlevel
