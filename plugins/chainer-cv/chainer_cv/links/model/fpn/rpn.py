import numpy

import chainer_core as chainer
import chainer_core.functions as F
from chainer_core import initializers
import chainer_core.links as L

from chainer_cv.links.model.faster_rcnn.utils._host import like
from chainer_cv.links.model.faster_rcnn.utils._host import to_host
from chainer_cv.links.model.faster_rcnn.utils.anchor_target_creator import \
    AnchorTargetCreator
from chainer_cv.links.model.fpn._misc import decode_clipped
from chainer_cv.links.model.fpn._misc import smooth_l1
from chainer_cv.utils import non_maximum_suppression


class RPN(chainer.Chain):
    """The region proposal network of FPN, shared by all levels.

    A 3x3 convolution (``conv``, with ReLU) and two 1x1 convolutions give,
    for each of the three anchors (height-to-width ratios 0.5, 1 and 2) of
    each cell, offsets (``loc``) and an objectness logit (``conf``). The
    anchors of level :math:`l` have the area of a square of side
    :math:`32 \\cdot 2^l` pixels.

    Args:
        scales (tuple of floats): Feature cells per input pixel of each
            level, finest first.
    """

    anchor_size = 32
    anchor_ratios = (0.5, 1, 2)
    nms_thresh = 0.7
    train_nms_limit_pre = 2000
    train_nms_limit_post = 2000
    test_nms_limit_pre = 1000
    test_nms_limit_post = 1000

    def __init__(self, scales):
        super().__init__()
        init = initializers.Normal(0.01)
        n_anchor = len(self.anchor_ratios)
        with self.init_scope():
            self.conv = L.Convolution2D(256, 256, 3, pad=1, initialW=init)
            self.loc = L.Convolution2D(256, n_anchor * 4, 1, initialW=init)
            self.conf = L.Convolution2D(256, n_anchor, 1, initialW=init)
        self._scales = scales

    def forward(self, hs):
        """Offsets and logits of the anchors of each level.

        Args:
            hs (list of ~chainer.Variable): The pyramid, :math:`(N, C,
                H_l, W_l)` per level.

        Returns:
            two lists of Variables: offsets :math:`(N, H_l W_l A, 4)` and
            logits :math:`(N, H_l W_l A)` per level, anchors ordered as
            :meth:`anchors` orders them.
        """
        locs = []
        confs = []
        for h in hs:
            h = F.relu(self.conv(h))
            n = h.shape[0]
            locs.append(self.loc(h).transpose((0, 2, 3, 1))
                        .reshape((n, -1, 4)))
            confs.append(self.conf(h).transpose((0, 2, 3, 1))
                         .reshape((n, -1)))
        return locs, confs

    def anchors(self, sizes):
        """The anchors of each level.

        Args:
            sizes (iterable of tuples): ``(H_l, W_l)`` of each level.

        Returns:
            list of arrays: :math:`(H_l W_l A, 4)` boxes
            :math:`(y_{min}, x_{min}, y_{max}, x_{max})` in input pixels,
            cells row by row and the ratios fastest; on the link's device.
        """
        anchors = []
        ratio = numpy.asarray(self.anchor_ratios, numpy.float64)
        for l, (H, W) in enumerate(sizes):
            stride = 1 / self._scales[l]
            # The sides of a stride-sized box of each ratio are rounded to
            # whole pixels, then scaled to the level's size (Detectron's
            # anchors, which the trained weights expect).
            w = numpy.round(stride / numpy.sqrt(ratio))
            h = numpy.round(w * ratio)
            half = numpy.stack((h, w), axis=1) * \
                (self.anchor_size * 2 ** l / stride) / 2
            y, x = numpy.meshgrid((numpy.arange(H) + 0.5) * stride,
                                  (numpy.arange(W) + 0.5) * stride,
                                  indexing='ij')
            centre = numpy.stack((y.ravel(), x.ravel()), axis=1)[:, None]
            anchor = numpy.concatenate((centre - half, centre + half),
                                       axis=2).reshape((-1, 4))
            anchors.append(self.device.send(anchor.astype(numpy.float32)))
        return anchors

    def decode(self, locs, confs, anchors, in_shape):
        """Proposals from the predictions.

        On each level of each image the boxes are decoded, clipped to the
        input, the best ``nms_limit_pre`` non-empty ones suppressed at
        ``nms_thresh`` down to ``nms_limit_post``; the image keeps the
        ``nms_limit_post`` best of all levels. The limits are the
        ``train_*`` ones under ``chainer.config.train``.

        Args:
            locs, confs (lists of ~chainer.Variable): From :meth:`forward`.
            anchors (list of arrays): From :meth:`anchors`.
            in_shape (tuple of ints): ``(N, C, H, W)`` of the input.

        Returns:
            two arrays: the proposals :math:`(R, 4)` ``float32`` and their
            image indices :math:`(R,)` ``int32``, on the link's device.
        """
        if chainer.config.train:
            limit_pre = self.train_nms_limit_pre
            limit_post = self.train_nms_limit_post
        else:
            limit_pre = self.test_nms_limit_pre
            limit_post = self.test_nms_limit_post
        H, W = in_shape[2:]
        locs = [to_host(loc) for loc in locs]
        confs = [to_host(conf) for conf in confs]
        anchors = [to_host(anchor) for anchor in anchors]
        rois = []
        roi_indices = []
        for i in range(in_shape[0]):
            roi = []
            conf = []
            for loc_l, conf_l, anchor in zip(locs, confs, anchors):
                roi_l = decode_clipped(anchor, loc_l[i])
                roi_l[:, 0::2] = numpy.clip(roi_l[:, 0::2], 0, H)
                roi_l[:, 1::2] = numpy.clip(roi_l[:, 1::2], 0, W)
                order = numpy.argsort(-conf_l[i], kind='stable')[:limit_pre]
                roi_l = roi_l[order]
                conf_l = conf_l[i][order]
                keep = (roi_l[:, 2:] > roi_l[:, :2]).all(axis=1)
                roi_l = roi_l[keep]
                conf_l = conf_l[keep]
                keep = non_maximum_suppression(roi_l, self.nms_thresh,
                                               limit=limit_post)
                roi.append(roi_l[keep])
                conf.append(conf_l[keep])
            order = numpy.argsort(-numpy.concatenate(conf),
                                  kind='stable')[:limit_post]
            rois.append(numpy.concatenate(roi)[order])
            roi_indices.append(numpy.full((len(order),), i, numpy.int32))
        return (self.device.send(numpy.concatenate(rois)
                                 .astype(numpy.float32)),
                self.device.send(numpy.concatenate(roi_indices)))


def rpn_loss(locs, confs, anchors, sizes, bboxes):
    """The losses of :class:`RPN`.

    In each image, 256 anchors lying inside the image are sampled: up to
    a quarter positive (IoU with a ground-truth box at least 0.7, or the
    best anchor of a box), the others negative (best IoU under 0.3). The
    offsets of the positives are trained with the smooth L1 loss
    (:math:`\\beta = 1 / 9`), the logits of all sampled anchors with the
    sigmoid cross entropy; each is summed over the sample, divided by its
    size and averaged over the images.

    Args:
        locs, confs (lists of ~chainer.Variable): From
            :meth:`RPN.forward`.
        anchors (list of arrays): From :meth:`RPN.anchors`.
        sizes (list of tuples of ints): ``(H, W)`` of each (scaled) image.
        bboxes (list of arrays): The ground-truth boxes of each image,
            :math:`(R_n, 4)`, in input pixels.

    Returns:
        two Variables: the localization and the confidence losses.
    """
    locs = F.concat(locs, axis=1)
    confs = F.concat(confs, axis=1)
    anchors = numpy.concatenate([to_host(a) for a in anchors])
    creator = AnchorTargetCreator(n_sample=256, pos_iou_thresh=0.7,
                                  neg_iou_thresh=0.3, pos_ratio=0.25)
    loc_loss = 0
    conf_loss = 0
    for i, size in enumerate(sizes):
        bbox = to_host(bboxes[i]).reshape((-1, 4))
        if len(bbox):
            gt_loc, gt_label = creator(bbox, anchors, size)
        else:
            gt_loc, gt_label = _negatives_only(anchors, size,
                                               creator.n_sample)
        pos = numpy.flatnonzero(gt_label == 1)
        sample = numpy.flatnonzero(gt_label >= 0)
        # An image too small to hold an anchor samples nothing.
        n_sample = max(len(sample), 1)
        ref = locs.array
        loc_loss += F.sum(smooth_l1(
            locs[i][like(pos, ref)], like(gt_loc[pos], ref), 1 / 9)) / n_sample
        conf_loss += F.sum(F.sigmoid_cross_entropy(
            confs[i][like(sample, ref)], like(gt_label[sample], ref),
            reduce='no')) / n_sample
    return loc_loss / len(sizes), conf_loss / len(sizes)


def _negatives_only(anchors, size, n_sample):
    H, W = size
    inside = numpy.flatnonzero(
        (anchors[:, 0] >= 0) & (anchors[:, 1] >= 0) &
        (anchors[:, 2] <= H) & (anchors[:, 3] <= W))
    label = numpy.full((len(anchors),), -1, numpy.int32)
    label[numpy.random.choice(inside, min(n_sample, len(inside)),
                              replace=False)] = 0
    return numpy.zeros((len(anchors), 4), numpy.float32), label
