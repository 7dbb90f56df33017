"""InceptionBN: the inception module with batch normalization."""
from chainer_core.functions.activation.relu import relu
from chainer_core.functions.array.concat import concat
from chainer_core.functions.pooling.average_pooling_2d import (
    average_pooling_2d)
from chainer_core.functions.pooling.max_pooling_2d import max_pooling_2d
from chainer_core.link import Chain
from chainer_core.links.connection.convolution_2d import Convolution2D
from chainer_core.links.normalization.batch_normalization import (
    BatchNormalization)


class InceptionBN(Chain):
    """Inception module with batch normalization (Ioffe and Szegedy,
    2015): branches of 1x1 (optional), 1x1 then 3x3, 1x1 then two 3x3
    convolutions, and 3x3 max or average pooling (optionally projected by
    a 1x1 convolution), each convolution followed by batch normalization
    and relu; the branches are concatenated along the channels.

    Args:
        in_channels (int or None): input channels.
        out1 (int): output channels of the 1x1 branch (0: no such branch).
        proj3 (int): channels of the projection before the 3x3 branch.
        out3 (int): output channels of the 3x3 branch.
        proj33 (int): channels of the projection before the double 3x3
            branch.
        out33 (int): output channels of the double 3x3 branch.
        pooltype (str): ``'max'`` or ``'avg'``.
        proj_pool (int or None): output channels of the 1x1 projection of
            the pooling branch (None: the pooled input itself).
        stride (int): stride of the 3x3 convolutions and of the pooling;
            must be 1 when there is a 1x1 branch.
        conv_init: initializer of the convolution weights.
        dtype: dtype of the batch normalization parameters.
    """

    def __init__(self, in_channels, out1, proj3, out3, proj33, out33,
                 pooltype, proj_pool=None, stride=1, conv_init=None,
                 dtype=None):
        super().__init__()
        if pooltype not in ('max', 'avg'):
            raise NotImplementedError(
                "InceptionBN: pooltype must be 'max' or 'avg', got {!r}"
                .format(pooltype))
        if out1 > 0 and (stride != 1 or proj_pool is None):
            raise ValueError('InceptionBN: a 1x1 branch (out1 > 0) needs '
                             'stride 1 and proj_pool')
        self.out1 = out1
        self.proj_pool = proj_pool
        self.stride = stride
        self.pooltype = pooltype
        conv = dict(nobias=True, initialW=conv_init)
        with self.init_scope():
            self.proj3 = Convolution2D(in_channels, proj3, 1, **conv)
            self.conv3 = Convolution2D(proj3, out3, 3, pad=1, stride=stride,
                                       **conv)
            self.proj33 = Convolution2D(in_channels, proj33, 1, **conv)
            self.conv33a = Convolution2D(proj33, out33, 3, pad=1, **conv)
            self.conv33b = Convolution2D(out33, out33, 3, pad=1,
                                         stride=stride, **conv)
            self.proj3n = BatchNormalization(proj3, dtype=dtype)
            self.conv3n = BatchNormalization(out3, dtype=dtype)
            self.proj33n = BatchNormalization(proj33, dtype=dtype)
            self.conv33an = BatchNormalization(out33, dtype=dtype)
            self.conv33bn = BatchNormalization(out33, dtype=dtype)
            if out1 > 0:
                self.conv1 = Convolution2D(in_channels, out1, 1,
                                           stride=stride, **conv)
                self.conv1n = BatchNormalization(out1, dtype=dtype)
            if proj_pool is not None:
                self.poolp = Convolution2D(in_channels, proj_pool, 1, **conv)
                self.poolpn = BatchNormalization(proj_pool, dtype=dtype)

    def forward(self, x):
        """Apply the module to ``x`` of shape ``(N, C, H, W)``."""
        outs = []
        if self.out1 > 0:
            outs.append(relu(self.conv1n(self.conv1(x))))
        h3 = relu(self.proj3n(self.proj3(x)))
        outs.append(relu(self.conv3n(self.conv3(h3))))
        h33 = relu(self.proj33n(self.proj33(x)))
        h33 = relu(self.conv33an(self.conv33a(h33)))
        outs.append(relu(self.conv33bn(self.conv33b(h33))))
        if self.pooltype == 'max':
            p = max_pooling_2d(x, 3, stride=self.stride, pad=1,
                               cover_all=False)
        else:
            p = average_pooling_2d(x, 3, stride=self.stride, pad=1)
        if self.proj_pool is not None:
            p = relu(self.poolpn(self.poolp(p)))
        outs.append(p)
        return concat(outs, axis=1)
