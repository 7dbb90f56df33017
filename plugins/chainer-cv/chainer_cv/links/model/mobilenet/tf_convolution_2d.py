import chainer_core as chainer
import chainer_core.functions as F
from chainer_core.links import Convolution2D


def _pair(x):
    return tuple(x) if isinstance(x, (tuple, list)) else (x, x)


def _same_pad(in_size, ksize, stride, dilate):
    """(before, after) of TensorFlow's 'SAME' padding along one axis."""
    out_size = -(-in_size // stride)
    extent = (ksize - 1) * dilate + 1
    total = max((out_size - 1) * stride + extent - in_size, 0)
    # TensorFlow puts the odd pixel after, unlike a symmetric pad.
    return total // 2, total - total // 2


class TFConvolution2D(chainer.Chain):
    """A convolution padded as TensorFlow's ``tf.nn.conv2d``.

    Arguments as :class:`chainer.links.Convolution2D`'s, except ``pad``:
    ``'SAME'`` (the default) pads so that the output has
    :math:`\\lceil in / stride \\rceil` pixels, the odd pixel, if any, at
    the end (bottom, right); ``'VALID'`` does not pad; an int pads
    symmetrically as Chainer does. The convolution is the child ``conv``;
    ``W`` and ``b`` are its parameters.
    """

    def __init__(self, in_channels, out_channels, ksize=None, stride=1,
                 pad='SAME', nobias=False, initialW=None, initial_bias=None,
                 **kwargs):
        if ksize is None:
            out_channels, ksize, in_channels = in_channels, out_channels, None
        if pad not in ('SAME', 'VALID') and not isinstance(pad, int):
            raise ValueError("TFConvolution2D: pad must be 'SAME', 'VALID' "
                             "or an int; got {!r}".format(pad))
        self.tf_pad = pad if pad == 'SAME' else None
        super().__init__()
        with self.init_scope():
            self.conv = Convolution2D(
                in_channels, out_channels, ksize, stride,
                pad if isinstance(pad, int) else 0, nobias, initialW,
                initial_bias, **kwargs)

    @property
    def W(self):
        return self.conv.W

    @property
    def b(self):
        return self.conv.b

    def forward(self, x):
        if self.tf_pad is not None:
            ksize = _pair(self.conv.ksize)
            stride = _pair(self.conv.stride)
            dilate = _pair(self.conv.dilate)
            pads = [_same_pad(x.shape[2 + i], ksize[i], stride[i], dilate[i])
                    for i in range(2)]
            if any(p for pair in pads for p in pair):
                x = F.pad(x, ((0, 0), (0, 0)) + tuple(pads), 'constant')
        return self.conv(x)
