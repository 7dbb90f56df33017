import chainer_core as chainer
import chainer_core.functions as F

from chainer_cv.links.connection import Conv2DBNActiv
from chainer_cv.links.connection import SeparableConv2DBNActiv


class SeparableASPP(chainer.Chain):
    """Atrous spatial pyramid pooling with separable convolutions
    (DeepLab v3+).

    Five branches see the input: the image pooling (the spatial mean,
    ``image_pooling_conv``, broadcast back), the 1x1 convolution
    ``conv1x1`` and the dilated separable convolutions ``atrous1`` ...
    ``atrous3``; their concatenation goes through ``proj`` and, in
    training, dropout.

    Args:
        in_channels (int): input channels.
        out_channels (int): channels of each branch and of the output.
        dilate_list (tuple of ints): the dilations of the three atrous
            branches.
        bn_kwargs (dict): keyword arguments of the normalizations.
    """

    def __init__(self, in_channels, out_channels=256,
                 dilate_list=(12, 24, 36), bn_kwargs={}):
        super().__init__()
        with self.init_scope():
            self.image_pooling_conv = Conv2DBNActiv(
                in_channels, out_channels, 1, bn_kwargs=bn_kwargs)
            self.conv1x1 = Conv2DBNActiv(
                in_channels, out_channels, 1, bn_kwargs=bn_kwargs)
            for i, dilate in enumerate(dilate_list, 1):
                setattr(self, 'atrous{}'.format(i), SeparableConv2DBNActiv(
                    in_channels, out_channels, 3, 1, dilate, dilate,
                    nobias=True, dw_activ=F.relu, pw_activ=F.relu,
                    bn_kwargs=bn_kwargs))
            self.proj = Conv2DBNActiv(
                out_channels * (2 + len(dilate_list)), out_channels, 1,
                bn_kwargs=bn_kwargs)
        self.n_atrous = len(dilate_list)

    def image_pooling(self, x):
        """The image-level features broadcast to the size of ``x``."""
        h = self.image_pooling_conv(F.average(x, axis=(2, 3), keepdims=True))
        return F.broadcast_to(h, h.shape[:2] + x.shape[2:])

    def forward(self, x):
        hs = [self.image_pooling(x), self.conv1x1(x)]
        hs += [self['atrous{}'.format(i)](x)
               for i in range(1, self.n_atrous + 1)]
        return F.dropout(self.proj(F.concat(hs, axis=1)))
