import numpy

import chainer_core as chainer
import chainer_core.functions as F
from chainer_core import initializers
import chainer_core.links as L
from chainer_core import serializers

from chainer_cv.links.model import _pretrained
from chainer_cv.links.model.ssd.multibox import Multibox
from chainer_cv.links.model.ssd.normalize import Normalize
from chainer_cv.links.model.ssd.ssd import SSD

# The RGB mean the converted Caffe weights of SSD expect.
_imagenet_mean = numpy.array((123, 117, 104)).reshape((-1, 1, 1))


class VGG16(chainer.Chain):
    """VGG-16 as SSD reshapes it: ``pool5`` is 3x3 with stride 1 and
    ``fc6``, ``fc7`` become the convolutions ``conv6`` (3x3, dilation 6)
    and ``conv7`` (1x1). A call returns ``[norm4(conv4_3), conv7]``, the
    first scaled by :class:`Normalize` (initial scale 20)."""

    def __init__(self):
        super().__init__()
        with self.init_scope():
            for stage, (n_conv, channels) in enumerate(
                    ((2, 64), (2, 128), (3, 256), (3, 512), (3, 512)), 1):
                for i in range(1, n_conv + 1):
                    setattr(self, 'conv{}_{}'.format(stage, i),
                            L.Convolution2D(channels, 3, pad=1))
            self.norm4 = Normalize(512, initial=initializers.Constant(20))
            self.conv6 = L.DilatedConvolution2D(1024, 3, pad=6, dilate=6)
            self.conv7 = L.Convolution2D(1024, 1)

    def _stage(self, h, stage, n_conv):
        for i in range(1, n_conv + 1):
            h = F.relu(self['conv{}_{}'.format(stage, i)](h))
        return h

    def forward(self, x):
        h = x
        for stage, n_conv in ((1, 2), (2, 2), (3, 3)):
            # Pooling covers the borders (75 -> 38 at 300 pixels).
            h = F.max_pooling_2d(self._stage(h, stage, n_conv), 2)
        h = self._stage(h, 4, 3)
        ys = [self.norm4(h)]
        h = self._stage(F.max_pooling_2d(h, 2), 5, 3)
        h = F.max_pooling_2d(h, 3, stride=1, pad=1)
        h = F.relu(self.conv6(h))
        ys.append(F.relu(self.conv7(h)))
        return ys


class _VGG16Extractor(VGG16):
    """VGG16 followed by the extra pairs ``conv{i}_1`` (1x1, 128 or 256
    channels) and ``conv{i}_2`` (3x3) of SSD, each pair adding a smaller
    feature map."""

    # (index, out channels of conv_1, of conv_2, kwargs of conv_2)
    _extras = ()

    def __init__(self):
        init = {'initialW': initializers.LeCunUniform(),
                'initial_bias': initializers.Zero()}
        super().__init__()
        with self.init_scope():
            for i, mid, out, kwargs in self._extras:
                setattr(self, 'conv{}_1'.format(i),
                        L.Convolution2D(mid, 1, **init))
                setattr(self, 'conv{}_2'.format(i),
                        L.Convolution2D(None, out, **kwargs, **init))

    def forward(self, x):
        """The feature maps, of sides :obj:`grids`."""
        ys = super().forward(x)
        for i, _, _, _ in self._extras:
            h = F.relu(self['conv{}_1'.format(i)](ys[-1]))
            ys.append(F.relu(self['conv{}_2'.format(i)](h)))
        return ys


_DOWN = {'ksize': 3, 'stride': 2, 'pad': 1}


class VGG16Extractor300(_VGG16Extractor):
    """The feature extractor of :class:`SSD300`: six maps of sides 38,
    19, 10, 5, 3 and 1 from a 300 x 300 input."""

    insize = 300
    grids = (38, 19, 10, 5, 3, 1)
    _extras = ((8, 256, 512, _DOWN), (9, 128, 256, _DOWN),
               (10, 128, 256, {'ksize': 3}), (11, 128, 256, {'ksize': 3}))


class VGG16Extractor512(_VGG16Extractor):
    """The feature extractor of :class:`SSD512`: seven maps of sides 64,
    32, 16, 8, 4, 2 and 1 from a 512 x 512 input."""

    insize = 512
    grids = (64, 32, 16, 8, 4, 2, 1)
    _extras = ((8, 256, 512, _DOWN), (9, 128, 256, _DOWN),
               (10, 128, 256, _DOWN), (11, 128, 256, _DOWN),
               (12, 128, 256, {'ksize': 4, 'pad': 1}))


class _SSDVGG16(SSD):

    _extractor = None
    _aspect_ratios = ()
    _steps = ()
    _sizes = ()
    _models = {}

    def __init__(self, n_fg_class=None, pretrained_model=None):
        name = type(self).__name__
        param, path = _pretrained.prepare(
            name, {'n_fg_class': n_fg_class}, pretrained_model,
            self._models, {})
        if param['n_fg_class'] is None:
            raise ValueError('{}: n_fg_class must be given unless the '
                             'pretrained model fixes it'.format(name))
        super().__init__(
            extractor=self._extractor(),
            multibox=Multibox(n_class=param['n_fg_class'] + 1,
                              aspect_ratios=self._aspect_ratios),
            steps=self._steps, sizes=self._sizes, mean=_imagenet_mean)
        if path:
            # ImageNet weights cover the extractor only: the heads keep
            # their initial values.
            serializers.load_npz(path, self,
                                 strict=pretrained_model != 'imagenet')


_VOC0712 = {'param': {'n_fg_class': 20}, 'overwritable': ()}
_IMAGENET = {'param': {}, 'overwritable': (),
             'file': 'ssd_vgg16_imagenet_converted_2017_06_09.npz'}


class SSD300(_SSDVGG16):
    """SSD of VGG-16 on 300 x 300 inputs (8732 default boxes).

    Args:
        n_fg_class (int): foreground classes; 20 with ``'voc0712'``, to
            give otherwise.
        pretrained_model (str): ``'voc0712'`` (the weights converted from
            the authors' Caffe model, 20 classes), ``'imagenet'`` (the
            VGG-16 of the extractor only), the path of an npz file, or
            None. A known name reads ChainerCV's file from its model
            directory under the data set root (``$CHAINER_DATASET_ROOT/
            pfnet/chainercv/models``) and is never downloaded: a missing
            file raises :class:`FileNotFoundError` naming that path.
    """

    _extractor = VGG16Extractor300
    _aspect_ratios = ((2,), (2, 3), (2, 3), (2, 3), (2,), (2,))
    _steps = (8, 16, 32, 64, 100, 300)
    _sizes = (30, 60, 111, 162, 213, 264, 315)
    _models = {
        'voc0712': dict(_VOC0712,
                        file='ssd300_voc0712_converted_2017_06_06.npz'),
        'imagenet': _IMAGENET,
    }


class SSD512(_SSDVGG16):
    """SSD of VGG-16 on 512 x 512 inputs (24564 default boxes).

    The arguments are those of :class:`SSD300` (``'voc0712'`` reads
    ``ssd512_voc0712_converted_2017_06_06.npz``).
    """

    _extractor = VGG16Extractor512
    _aspect_ratios = ((2,), (2, 3), (2, 3), (2, 3), (2, 3), (2,), (2,))
    _steps = (8, 16, 32, 64, 128, 256, 512)
    _sizes = (35.84, 76.8, 153.6, 230.4, 307.2, 384.0, 460.8, 537.6)
    _models = {
        'voc0712': dict(_VOC0712,
                        file='ssd512_voc0712_converted_2017_06_06.npz'),
        'imagenet': _IMAGENET,
    }
