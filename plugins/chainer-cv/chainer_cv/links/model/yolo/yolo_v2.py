import numpy

import chainer_core as chainer
import chainer_core.functions as F
from chainer_core.links import Convolution2D

from chainer_cv.links.model.yolo._darknet import darknet_conv
from chainer_cv.links.model.yolo.yolo_base import YOLOBase


def _maxpool(x, stride=2):
    """Darknet's 2 x 2 max pooling: the window at each output pixel reaches
    one pixel right and down, past the border at stride 1 (so the size
    stays)."""
    if stride == 2:
        return F.max_pooling_2d(x, 2)
    h = F.max_pooling_2d(x, 2, stride=1, pad=1)
    return h[:, :, 1:, 1:]


def _reorg(x):
    """Darknet's reorg layer (stride 2), (B, C, H, W) to (B, 4C, H/2, W/2).

    Darknet reads the input's memory as if it were (C/4, 2H, 2W) and
    gathers each 2 x 2 block of that view into four channels, the block's
    offset before the channel; the converted weights of the next layer
    expect exactly this order.
    """
    n, c, h, w = x.shape
    x = F.reshape(x, (n, c // 4, h, 2, w, 2))
    x = F.transpose(x, (0, 3, 5, 1, 2, 4))
    return F.reshape(x, (n, c * 4, h // 2, w // 2))


class Darknet19Extractor(chainer.ChainList):
    """The Darknet-19 feature extractor of :class:`YOLOv2`.

    Darknet-19's 18 convolutions (children ``0`` to ``17``, each a
    :class:`~chainer_cv.links.Conv2DBNActiv` with leaky ReLU) and YOLOv2's
    four (``18`` to ``21``): two 3 x 3 convolutions on the 1/32 map, and
    the passthrough, a 1 x 1 convolution of the 1/16 map reorganised to
    1/32 and concatenated before the last 3 x 3 convolution. A call on
    images ``(B, 3, 416, 416)`` returns ``(B, 1024, 13, 13)``.
    """

    insize = 416
    grid = 13

    _pool_after = (0, 1, 4, 7, 12)
    _fine = 12

    def __init__(self):
        super().__init__()
        in_channels = 3
        # Stage k: 3 x 3 convolutions to 32 << k channels alternating with
        # 1 x 1 ones halving them.
        for k, n_conv in enumerate((1, 1, 3, 3, 5, 5)):
            for i in range(n_conv):
                out_channels = 32 << k if i % 2 == 0 else 16 << k
                self.append(darknet_conv(in_channels, out_channels,
                                         1 + 2 * (i % 2 == 0)))
                in_channels = out_channels
        self.append(darknet_conv(1024, 1024, 3))
        self.append(darknet_conv(1024, 1024, 3))
        self.append(darknet_conv(512, 64, 1))
        self.append(darknet_conv(64 * 4 + 1024, 1024, 3))

    def forward(self, x):
        """The feature map ``(B, 1024, H / 32, W / 32)`` of images
        ``(B, 3, H, W)`` (H and W multiples of 32)."""
        h = x
        for i in range(19):
            h = self[i](h)
            if i == self._fine:
                fine = h
            if i in self._pool_after:
                h = _maxpool(h)
        h = F.concat((_reorg(self[20](fine)), self[19](h)))
        return self[21](h)


class DarknetTinyExtractor(chainer.ChainList):
    """The feature extractor of :class:`YOLOv2Tiny`.

    Seven 3 x 3 convolutions from 16 to 1024 channels, each but the last
    followed by a 2 x 2 max pooling (stride 2 for the first five, 1 for the
    sixth), and one more 3 x 3 convolution (children ``0`` to ``7``). A
    call on images ``(B, 3, 416, 416)`` returns ``(B, 1024, 13, 13)``.
    """

    insize = 416
    grid = 13

    def __init__(self):
        super().__init__()
        in_channels = 3
        for k in range(7):
            self.append(darknet_conv(in_channels, 16 << k, 3))
            in_channels = 16 << k
        self.append(darknet_conv(1024, 1024, 3))

    def forward(self, x):
        """The feature map ``(B, 1024, H / 32, W / 32)`` of images
        ``(B, 3, H, W)`` (H and W multiples of 32)."""
        h = x
        for i, link in enumerate(self):
            h = link(h)
            if i < 5:
                h = _maxpool(h)
            elif i == 5:
                h = _maxpool(h, stride=1)
        return h


# ChainerCV's name of the tiny extractor.
DarknetExtractor = DarknetTinyExtractor


class YOLOv2Base(YOLOBase):
    """A YOLOv2 detector over the extractor ``_extractor``.

    The children are ``extractor`` and ``subnet``, a 1 x 1 convolution (with
    bias) predicting, for each cell of the extractor's grid and each of the
    anchors ``_anchors`` (``(height, width)`` in cells), the box offsets,
    the objectness and the class scores. A subclass names
    ``_extractor``, ``_anchors`` and ``_models`` (the known weight files).

    Args:
        n_fg_class (int): the number of classes, the background excluded;
            may be None with a known ``pretrained_model``.
        pretrained_model (str): a known weight name (``'voc0712'``), whose
            file must be in ChainerCV's model directory (nothing is
            downloaded), the path of an npz file, or None for random
            weights.
    """

    def __init__(self, n_fg_class=None, pretrained_model=None):
        super().__init__()
        path = self._prepare(n_fg_class, pretrained_model)
        with self.init_scope():
            self.extractor = self._extractor()
            self.subnet = Convolution2D(
                1024, len(self._anchors) * (5 + self.n_fg_class), 1)
        step = self.insize / self.extractor.grid
        self._set_default_bbox(
            (self.extractor.grid,),
            (tuple((h * step, w * step) for h, w in self._anchors),))
        self._load(path)

    def forward(self, x):
        """The raw outputs for images ``x`` ``(B, 3, 416, 416)``, RGB in
        ``[0, 1]``.

        Returns:
            tuple of chainer.Variable: ``locs`` ``(B, K, 4)``, the offsets
            ``(y, x, log h, log w)`` of the ``K`` default boxes (before the
            sigmoid of the centres), ``objs`` ``(B, K)``, the objectness
            logits, and ``confs`` ``(B, K, n_fg_class)``, the class logits.
        """
        return self._split(self._flatten(self.subnet(self.extractor(x))))

    @staticmethod
    def _class_probability(conf):
        e = numpy.exp(conf - conf.max(axis=1, keepdims=True))
        return e / e.sum(axis=1, keepdims=True)


class YOLOv2(YOLOv2Base):
    """YOLOv2 (`YOLO9000: Better, Faster, Stronger
    <https://arxiv.org/abs/1612.08242>`_) over :class:`Darknet19Extractor`.

    Known weights: ``'voc0712'`` (20 classes, PASCAL VOC 2007 and 2012
    trainval, converted from Darknet), the file
    ``yolo_v2_voc0712_converted_2018_05_03.npz`` of ChainerCV's model
    directory. See :class:`YOLOv2Base` for the arguments.
    """

    _extractor = Darknet19Extractor

    _models = {
        'voc0712': {
            'param': {'n_fg_class': 20},
            'overwritable': (),
            'file': 'yolo_v2_voc0712_converted_2018_05_03.npz',
        },
    }

    _anchors = (
        (1.73145, 1.3221),
        (4.00944, 3.19275),
        (8.09892, 5.05587),
        (4.84053, 9.47112),
        (10.0071, 11.2364))


class YOLOv2Tiny(YOLOv2Base):
    """Tiny YOLOv2 over :class:`DarknetTinyExtractor`.

    Known weights: ``'voc0712'`` (20 classes, converted from Darknet), the
    file ``yolo_v2_tiny_voc0712_converted_2018_10_19.npz`` of ChainerCV's
    model directory. See :class:`YOLOv2Base` for the arguments.
    """

    _extractor = DarknetTinyExtractor

    _models = {
        'voc0712': {
            'param': {'n_fg_class': 20},
            'overwritable': (),
            'file': 'yolo_v2_tiny_voc0712_converted_2018_10_19.npz',
        },
    }

    _anchors = (
        (1.19, 1.08),
        (4.41, 3.42),
        (11.38, 6.63),
        (5.11, 9.42),
        (10.52, 16.62))
