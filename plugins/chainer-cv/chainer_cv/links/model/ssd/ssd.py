import numpy

import chainer_core as chainer
from chainer_core.backend import CpuDevice

from chainer_cv import transforms
from chainer_cv.links.model.ssd.multibox_coder import MultiboxCoder

_PRESETS = {
    'visualize': {'nms_thresh': 0.45, 'score_thresh': 0.6},
    'evaluate': {'nms_thresh': 0.45, 'score_thresh': 0.01},
}


class SSD(chainer.Chain):
    """A single shot multibox detector
    (`Liu et al. <https://arxiv.org/abs/1512.02325>`_).

    The ``extractor`` maps a batch of ``insize x insize`` images to
    feature maps; the ``multibox`` heads predict, for each default box of
    each map, offsets and class scores; a :class:`MultiboxCoder` turns
    them into boxes.

    Args:
        extractor (chainer.Link): has ``insize`` (the input side) and
            ``grids`` (the side of each feature map it returns).
        multibox (chainer.Link): has ``n_class`` and ``aspect_ratios``
            (like :class:`Multibox`); called on the feature maps it
            returns ``(mb_locs, mb_confs)``.
        steps (iterable of floats): the default box strides of the maps.
        sizes (iterable of floats): the default box scales, one more than
            the maps.
        variance (tuple of floats): the variances of the coding.
        mean (float or numpy.ndarray): subtracted from the resized
            images, ``(3, 1, 1)`` or a scalar.

    The children are ``extractor`` and ``multibox``. :meth:`use_preset`
    sets :obj:`nms_thresh` and :obj:`score_thresh` (``'visualize'`` at
    construction).
    """

    def __init__(self, extractor, multibox, steps, sizes,
                 variance=(0.1, 0.2), mean=0):
        self.mean = mean
        self.use_preset('visualize')
        super().__init__()
        with self.init_scope():
            self.extractor = extractor
            self.multibox = multibox
        self.coder = MultiboxCoder(extractor.grids, multibox.aspect_ratios,
                                   steps, sizes, variance)

    @property
    def insize(self):
        return self.extractor.insize

    @property
    def n_fg_class(self):
        return self.multibox.n_class - 1

    def forward(self, x):
        """``(mb_locs, mb_confs)`` of a batch ``(B, 3, insize, insize)``
        of prepared images: ``(B, K, 4)`` offsets and ``(B, K,
        n_fg_class + 1)`` class scores of the ``K`` default boxes."""
        return self.multibox(self.extractor(x))

    def use_preset(self, preset):
        """Set :obj:`nms_thresh` and :obj:`score_thresh` for
        :meth:`predict`: ``'visualize'`` (0.45, 0.6) or ``'evaluate'``
        (0.45, 0.01)."""
        if preset not in _PRESETS:
            raise ValueError('preset must be visualize or evaluate')
        for name, value in _PRESETS[preset].items():
            setattr(self, name, value)

    def _prepare(self, img):
        img = img.astype(numpy.float32)
        img = transforms.resize(img, (self.insize, self.insize))
        img -= self.mean
        return img

    def predict(self, imgs):
        """Detect objects in images.

        Each image is resized to ``insize x insize``; the boxes come back
        in the coordinates of the original image.

        Args:
            imgs (iterable of numpy.ndarray): CHW RGB images in [0, 255],
                of any sizes.

        Returns:
            tuple of three lists: per image, ``bbox`` float32 ``(R, 4)``,
            ``label`` int32 ``(R,)`` in ``[0, n_fg_class - 1]`` and
            ``score`` float32 ``(R,)``.
        """
        x = []
        sizes = []
        for img in imgs:
            _, H, W = img.shape
            x.append(self._prepare(CpuDevice().send(img)))
            sizes.append((H, W))

        with chainer.using_config('train', False), \
                chainer.no_backprop_mode():
            mb_locs, mb_confs = self.forward(
                self.device.send(numpy.stack(x)))
        mb_locs = CpuDevice().send(mb_locs.array)
        mb_confs = CpuDevice().send(mb_confs.array)

        bboxes, labels, scores = [], [], []
        for mb_loc, mb_conf, size in zip(mb_locs, mb_confs, sizes):
            bbox, label, score = self.coder.decode(
                mb_loc, mb_conf, self.nms_thresh, self.score_thresh)
            bboxes.append(transforms.resize_bbox(
                bbox, (self.insize, self.insize), size))
            labels.append(label)
            scores.append(score)
        return bboxes, labels, scores
