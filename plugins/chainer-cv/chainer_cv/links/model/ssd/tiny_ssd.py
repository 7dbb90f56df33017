import chainer_core as chainer
import chainer_core.functions as F

from chainer_cv.links.connection.conv_2d_bn_activ import Conv2DBNActiv
from chainer_cv.links.model.ssd.multibox import Multibox
from chainer_cv.links.model.ssd.ssd import SSD


class TinyExtractor(chainer.Chain):
    """Six 3x3 :class:`~chainercv.links.Conv2DBNActiv` blocks giving four
    feature maps, of strides 4, 8, 16 and 32 (``insize`` a multiple of
    32), of ``width / 2``, ``width`` then ``2 * width`` channels."""

    def __init__(self, insize=64, width=32):
        if insize % 32:
            raise ValueError('insize must be a multiple of 32')
        self.insize = insize
        self.grids = tuple(insize // s for s in (4, 8, 16, 32))
        super().__init__()
        with self.init_scope():
            self.conv1 = Conv2DBNActiv(3, width // 2, 3, pad=1)
            self.conv2 = Conv2DBNActiv(width // 2, width, 3, pad=1)
            self.conv3 = Conv2DBNActiv(width, 2 * width, 3, pad=1)
            self.conv4 = Conv2DBNActiv(2 * width, 2 * width, 3, pad=1)
            self.conv5 = Conv2DBNActiv(2 * width, 2 * width, 3, stride=2,
                                       pad=1)
            self.conv6 = Conv2DBNActiv(2 * width, 2 * width, 3, stride=2,
                                       pad=1)

    def forward(self, x):
        h = F.max_pooling_2d(self.conv1(x), 2)
        h = F.max_pooling_2d(self.conv2(h), 2)
        ys = [self.conv3(h)]
        ys.append(self.conv4(F.max_pooling_2d(ys[-1], 2)))
        ys.append(self.conv5(ys[-1]))
        ys.append(self.conv6(ys[-1]))
        return ys


class TinySSD(SSD):
    """A small SSD for small images (about 200,000 parameters with three classes),
    which trains from scratch on CPUs in minutes: :class:`TinyExtractor`
    with the :class:`Multibox` heads, :class:`MultiboxCoder` and
    :func:`multibox_loss` of SSD.

    The default boxes have the ratios 1, 2 and 1/2 on each of the four
    maps and scales from 1/8 to nearly the whole image.

    Args:
        n_fg_class (int): foreground classes.
        insize (int): the input side, a multiple of 32.
        mean (float or numpy.ndarray): subtracted from the images.
        width (int): the width of :class:`TinyExtractor`.
    """

    def __init__(self, n_fg_class, insize=64, mean=128, width=32):
        extractor = TinyExtractor(insize, width)
        fractions = (0.125, 0.25, 0.45, 0.7, 0.95)
        super().__init__(
            extractor=extractor,
            multibox=Multibox(n_class=n_fg_class + 1,
                              aspect_ratios=((2,),) * 4),
            steps=tuple(insize / grid for grid in extractor.grids),
            sizes=tuple(insize * f for f in fractions),
            mean=mean)
