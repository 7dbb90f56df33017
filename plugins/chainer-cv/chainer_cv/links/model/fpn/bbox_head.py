import numpy

import chainer_core as chainer
import chainer_core.functions as F
from chainer_core import initializers
import chainer_core.links as L

from chainer_cv.links.model.faster_rcnn.utils._host import like
from chainer_cv.links.model.faster_rcnn.utils._host import to_host
from chainer_cv.links.model.faster_rcnn.utils.bbox2loc import bbox2loc
from chainer_cv.links.model.fpn import _misc
from chainer_cv.utils import bbox_iou
from chainer_cv.utils import non_maximum_suppression_batched


class BboxHead(chainer.Chain):
    """The box head of FPN: each RoI is pooled (RoI align, 7x7) from the
    level :meth:`distribute` gives it, then two fully connected layers of
    1024 units (``fc1``, ``fc2``, with ReLU) feed class-wise offsets
    (``loc``) and class logits (``conf``).

    Args:
        n_class (int): Classes including the background.
        scales (tuple of floats): Feature cells per input pixel of each
            level, finest first.
    """

    roi_size = 7
    # The offsets the head predicts are the box offsets divided by these
    # (centre, size), so that both have about unit variance.
    std = (0.1, 0.2)

    def __init__(self, n_class, scales):
        super().__init__()
        # Caffe2's default for fully connected layers (uniform, variance
        # 1 / fan_in, zero bias), which Detectron trains FPN with.
        fc_init = {'initialW': initializers.LeCunUniform(),
                   'initial_bias': initializers.Zero()}
        with self.init_scope():
            self.fc1 = L.Linear(256 * self.roi_size ** 2, 1024, **fc_init)
            self.fc2 = L.Linear(1024, 1024, **fc_init)
            self.loc = L.Linear(1024, n_class * 4,
                                initialW=initializers.Normal(0.001))
            self.conf = L.Linear(1024, n_class,
                                 initialW=initializers.Normal(0.01))
        self._n_class = n_class
        self._scales = scales

    def forward(self, hs, rois, roi_indices):
        """Offsets :math:`(R, L, 4)` and logits :math:`(R, L)` of the
        RoIs, level by level.

        Args:
            hs (list of ~chainer.Variable): The pyramid.
            rois, roi_indices (lists of arrays): Per level, as
                :meth:`distribute` gives them.
        """
        h = _misc.pool(hs, rois, roi_indices, self.roi_size, self._scales)
        if h is None:
            xp = self.xp
            return (chainer.Variable(xp.zeros((0, self._n_class, 4),
                                              numpy.float32)),
                    chainer.Variable(xp.zeros((0, self._n_class),
                                              numpy.float32)))
        h = F.relu(self.fc1(h))
        h = F.relu(self.fc2(h))
        return (self.loc(h).reshape((h.shape[0], self._n_class, 4)),
                self.conf(h))

    def distribute(self, rois, roi_indices):
        """The RoIs and their image indices split by level, as lists: a box
        of side 224 goes to the third level (``1 / 16``), each doubling of
        the side one level coarser, the coarsest level excepted."""
        rois, roi_indices, _ = _misc.distribute(rois, roi_indices,
                                                len(self._scales))
        return rois, roi_indices

    def decode(self, rois, roi_indices, locs, confs, scales, sizes,
               nms_thresh, score_thresh):
        """Detections of each image.

        Args:
            rois, roi_indices (lists of arrays): Per level, as given to
                :meth:`forward`.
            locs, confs (~chainer.Variable): From :meth:`forward`.
            scales (list of floats): How much :meth:`FasterRCNN.prepare`
                scaled each image.
            sizes (list of tuples of ints): ``(H, W)`` of each original
                image.
            nms_thresh (float): IoU threshold of the per-class
                suppression.
            score_thresh (float): Lowest class probability kept.

        Returns:
            three lists of arrays: boxes :math:`(R, 4)` in the original
            images' pixels, labels :math:`(R,)` in :math:`[0, L - 2]` and
            scores :math:`(R,)`, on the host; ordered by label, then by
            descending score.
        """
        rois, roi_indices, _ = _misc.flatten_levels(rois, roi_indices)
        locs = to_host(locs) * _per_coordinate(self.std)
        probs = to_host(F.softmax(confs))
        n_class = self._n_class
        bboxes = []
        labels = []
        scores = []
        for i, (scale, (H, W)) in enumerate(zip(scales, sizes)):
            mask = roi_indices == i
            bbox = _misc.decode_clipped(
                rois[mask] / scale, locs[mask].reshape((-1, n_class * 4)))
            bbox = bbox.reshape((-1, n_class, 4))[:, 1:].reshape((-1, 4))
            bbox[:, 0::2] = numpy.clip(bbox[:, 0::2], 0, H)
            bbox[:, 1::2] = numpy.clip(bbox[:, 1::2], 0, W)
            score = probs[mask][:, 1:].ravel()
            label = numpy.tile(numpy.arange(n_class - 1, dtype=numpy.int32),
                               int(mask.sum()))
            kept = numpy.flatnonzero(score >= score_thresh)
            keep = kept[non_maximum_suppression_batched(
                bbox[kept], nms_thresh, label[kept], score[kept])]
            # By class, then by descending score, as ChainerCV orders them.
            keep = keep[numpy.argsort(label[keep], kind='stable')]
            bboxes.append(bbox[keep].astype(numpy.float32))
            labels.append(label[keep])
            scores.append(score[keep].astype(numpy.float32))
        return bboxes, labels, scores


def bbox_head_loss_pre(rois, roi_indices, std, bboxes, labels):
    """Samples the RoIs :class:`BboxHead` is trained on, with their
    targets.

    A RoI whose best IoU with a ground-truth box of its image reaches 0.5
    takes that box's label plus one, the others are background (0). Per
    image, up to 128 foreground RoIs are drawn at random
    (``numpy.random``) and background ones fill 512; the rest are
    dropped. The target offsets are those of :func:`bbox2loc` divided by
    ``std``. Ground-truth boxes are usually added to the proposals first.

    Args:
        rois, roi_indices (lists of arrays): Per level, as
            :meth:`BboxHead.distribute` gives them.
        std (tuple of floats): :attr:`BboxHead.std`.
        bboxes (list of arrays): Ground-truth boxes of each image,
            :math:`(R_n, 4)`, in input pixels.
        labels (list of arrays): Their labels, in :math:`[0, L - 2]`.

    Returns:
        four lists, per level: the sampled RoIs, their image indices,
        their target offsets :math:`(R'_l, 4)` and labels :math:`(R'_l,)`
        (0: background); on the RoIs' device.
    """
    reference = rois[0]
    n_level = len(rois)
    rois, roi_indices, levels = _misc.flatten_levels(rois, roi_indices)
    std = _per_coordinate(std)
    gt_locs = numpy.zeros((len(rois), 4), numpy.float32)
    gt_labels = numpy.full((len(rois),), -1, numpy.int32)
    for i in numpy.unique(roi_indices):
        index = numpy.flatnonzero(roi_indices == i)
        bbox = to_host(bboxes[i]).reshape((-1, 4))
        label = numpy.zeros((len(index),), numpy.int32)
        if len(bbox):
            iou = bbox_iou(rois[index], bbox)
            gt_index = iou.argmax(axis=1)
            fg = iou.max(axis=1) >= 0.5
            label[fg] = to_host(labels[i])[gt_index[fg]] + 1
            gt_locs[index] = bbox2loc(rois[index], bbox[gt_index]) / std
        fg_index = numpy.flatnonzero(label > 0)
        fg_index = numpy.random.choice(fg_index, min(len(fg_index), 128),
                                       replace=False)
        bg_index = numpy.flatnonzero(label == 0)
        bg_index = numpy.random.choice(
            bg_index, min(len(bg_index), 512 - len(fg_index)), replace=False)
        gt_labels[index[fg_index]] = label[fg_index]
        gt_labels[index[bg_index]] = 0
    keep = gt_labels >= 0
    return _misc.split_levels(levels[keep], n_level, reference,
                              rois[keep], roi_indices[keep], gt_locs[keep],
                              gt_labels[keep])


def bbox_head_loss_post(locs, confs, roi_indices, gt_locs, gt_labels,
                        batchsize):
    """The losses of :class:`BboxHead` on the RoIs
    :func:`bbox_head_loss_pre` sampled.

    Per image, the smooth L1 loss (:math:`\\beta = 1`) of the offsets of
    the foreground RoIs' own classes, summed and divided by the sample's
    size, and the mean softmax cross entropy of the logits; both summed
    over the images and divided by ``batchsize``.

    Args:
        locs, confs (~chainer.Variable): :meth:`BboxHead.forward` on the
            sampled RoIs.
        roi_indices, gt_locs, gt_labels (lists of arrays): From
            :func:`bbox_head_loss_pre`.
        batchsize (int): Images in the batch.

    Returns:
        two Variables: the localization and the confidence losses.
    """
    ref = locs.array
    roi_indices = numpy.concatenate([to_host(r) for r in roi_indices])
    gt_locs = numpy.concatenate([to_host(g).reshape((-1, 4))
                                 for g in gt_locs])
    gt_labels = numpy.concatenate([to_host(g) for g in gt_labels]) \
        .astype(numpy.int32)
    loc_loss = 0
    conf_loss = 0
    for i in numpy.unique(roi_indices):
        index = numpy.flatnonzero(roi_indices == i)
        fg = index[gt_labels[index] > 0]
        loc = locs[like(fg, ref), like(gt_labels[fg], ref)]
        loc_loss += F.sum(_misc.smooth_l1(loc, like(gt_locs[fg], ref),
                                          1)) / len(index)
        conf_loss += F.softmax_cross_entropy(confs[like(index, ref)],
                                             like(gt_labels[index], ref))
    return loc_loss / batchsize, conf_loss / batchsize


def _per_coordinate(std):
    # (centre, size) to (y, x, h, w).
    return numpy.repeat(numpy.asarray(std, numpy.float32), 2)
