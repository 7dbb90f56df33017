import chainer_core as chainer
import chainer_core.functions as F
from chainer_core.links import Convolution2D

from chainer_cv.links.model.yolo._darknet import darknet_conv
from chainer_cv.links.model.yolo.yolo_base import _sigmoid
from chainer_cv.links.model.yolo.yolo_base import YOLOBase


class ResidualBlock(chainer.ChainList):
    """Links applied in turn, their input added to their output.

    Args:
        links: the links (children ``0``, ``1``, ...).
    """

    def forward(self, x):
        h = x
        for link in self:
            h = link(h)
        return h + x


class Darknet53Extractor(chainer.ChainList):
    """The Darknet-53 feature extractor of :class:`YOLOv3`.

    Darknet-53's 52 convolutions (children ``0`` to ``28``: the stem, and
    per stage a strided 3 x 3 convolution and its :class:`ResidualBlock` s
    of a 1 x 1 and a 3 x 3 convolution) and YOLOv3's necks (``29`` to
    ``45``): for each of the strides 32, 16 and 8, five convolutions
    alternating 1 x 1 and 3 x 3; before the second and third, a 1 x 1
    convolution of the previous neck's output, upsampled twice and
    concatenated with Darknet-53's map of that stride. Every convolution is
    a :class:`~chainer_cv.links.Conv2DBNActiv` with leaky ReLU. A call on
    images ``(B, 3, 416, 416)`` returns the three neck outputs, ``(B, 512,
    13, 13)``, ``(B, 256, 26, 26)`` and ``(B, 128, 52, 52)``.
    """

    insize = 416
    grids = (13, 26, 52)

    def __init__(self):
        super().__init__()
        self.append(darknet_conv(3, 32, 3))
        stage_ends = []
        for k, n_block in enumerate((1, 2, 8, 8, 4)):
            self.append(darknet_conv(32 << k, 64 << k, 3, stride=2))
            for _ in range(n_block):
                self.append(ResidualBlock(darknet_conv(64 << k, 32 << k, 1),
                                          darknet_conv(32 << k, 64 << k, 3)))
            stage_ends.append(len(self) - 1)
        # The maps of strides 8 and 16 join the second and third necks.
        self._skips = tuple(stage_ends[2:4])
        self._upsamples = []
        self._outputs = []
        in_channels = 1024
        for i, n in enumerate((512, 256, 128)):
            if i > 0:
                self.append(darknet_conv(in_channels, n, 1))
                self._upsamples.append(len(self) - 1)
                in_channels = n + 2 * n
            for _ in range(2):
                self.append(darknet_conv(in_channels, n, 1))
                self.append(darknet_conv(n, 2 * n, 3))
                in_channels = 2 * n
            self.append(darknet_conv(in_channels, n, 1))
            self._outputs.append(len(self) - 1)
            in_channels = n

    def forward(self, x):
        """The three neck outputs for images ``(B, 3, H, W)`` (H and W
        multiples of 32), of strides 32, 16 and 8."""
        ys = []
        skips = []
        h = x
        for i, link in enumerate(self):
            h = link(h)
            if i in self._skips:
                skips.append(h)
            elif i in self._outputs:
                ys.append(h)
            elif i in self._upsamples:
                h = F.concat((F.unpooling_2d(h, 2, cover_all=False),
                              skips.pop()))
        return ys


class YOLOv3(YOLOBase):
    """YOLOv3 (`YOLOv3: An Incremental Improvement
    <https://arxiv.org/abs/1804.02767>`_) over :class:`Darknet53Extractor`.

    The children are ``extractor`` and ``subnet``, a
    :class:`~chainer.ChainList` of three :class:`~chainer.Sequential` heads,
    one per neck output: a 3 x 3 :class:`~chainer_cv.links.Conv2DBNActiv`
    doubling the channels and a 1 x 1 convolution (with bias) predicting,
    for each cell and each of the grid's three anchors (``_anchors``,
    ``(height, width)`` in pixels), the box offsets, the objectness and the
    class scores.

    Known weights: ``'voc0712'`` (20 classes, converted from Darknet), the
    file ``yolo_v3_voc0712_converted_2018_05_01.npz`` of ChainerCV's model
    directory.

    Args:
        n_fg_class (int): the number of classes, the background excluded;
            may be None with a known ``pretrained_model``.
        pretrained_model (str): ``'voc0712'``, whose file must be in
            ChainerCV's model directory (nothing is downloaded), the path
            of an npz file, or None for random weights.
    """

    _models = {
        'voc0712': {
            'param': {'n_fg_class': 20},
            'overwritable': (),
            'file': 'yolo_v3_voc0712_converted_2018_05_01.npz',
        },
    }

    _anchors = (
        ((90, 116), (198, 156), (326, 373)),
        ((61, 30), (45, 62), (119, 59)),
        ((13, 10), (30, 16), (23, 33)))

    def __init__(self, n_fg_class=None, pretrained_model=None):
        super().__init__()
        path = self._prepare(n_fg_class, pretrained_model)
        with self.init_scope():
            self.extractor = Darknet53Extractor()
            self.subnet = chainer.ChainList()
        for n, anchors in zip((512, 256, 128), self._anchors):
            self.subnet.append(chainer.Sequential(
                darknet_conv(n, 2 * n, 3),
                Convolution2D(2 * n, len(anchors) * (5 + self.n_fg_class),
                              1)))
        self._set_default_bbox(self.extractor.grids, self._anchors)
        self._load(path)

    def forward(self, x):
        """The raw outputs for images ``x`` ``(B, 3, 416, 416)``, RGB in
        ``[0, 1]``.

        Returns:
            tuple of chainer.Variable: ``locs`` ``(B, K, 4)``, ``objs``
            ``(B, K)`` and ``confs`` ``(B, K, n_fg_class)`` over the ``K``
            default boxes of the three grids, coarsest first, as
            :meth:`YOLOv2Base.forward`.
        """
        ys = [self._flatten(head(h))
              for head, h in zip(self.subnet, self.extractor(x))]
        return self._split(F.concat(ys))

    @staticmethod
    def _class_probability(conf):
        return _sigmoid(conf)
