import numpy

from chainer_cv.links.model.faster_rcnn.utils._host import like
from chainer_cv.links.model.faster_rcnn.utils._host import to_host
from chainer_cv.links.model.faster_rcnn.utils.bbox2loc import bbox2loc
from chainer_cv.utils import bbox_iou


class ProposalTargetCreator(object):
    """Samples the proposals the head is trained on, with their targets.

    The ground-truth boxes join the proposals. A proposal whose best IoU
    with a ground-truth box reaches ``pos_iou_thresh`` is foreground and
    takes that box's label plus one; one whose best IoU lies in
    ``[neg_iou_thresh_lo, neg_iou_thresh_hi)`` is background (label 0).
    Up to ``round(n_sample * pos_ratio)`` foreground proposals are drawn
    at random (``numpy.random``), then background ones fill ``n_sample``.

    Args:
        n_sample (int): Sampled proposals per image.
        pos_ratio (float): Largest fraction of foreground in the sample.
        pos_iou_thresh (float): IoU at or above which a proposal is
            foreground.
        neg_iou_thresh_hi (float): IoU under which a proposal may be
            background.
        neg_iou_thresh_lo (float): IoU at or above which a proposal may be
            background.
    """

    def __init__(self, n_sample=128, pos_ratio=0.25, pos_iou_thresh=0.5,
                 neg_iou_thresh_hi=0.5, neg_iou_thresh_lo=0.0):
        self.n_sample = n_sample
        self.pos_ratio = pos_ratio
        self.pos_iou_thresh = pos_iou_thresh
        self.neg_iou_thresh_hi = neg_iou_thresh_hi
        self.neg_iou_thresh_lo = neg_iou_thresh_lo

    def __call__(self, roi, bbox, label,
                 loc_normalize_mean=(0., 0., 0., 0.),
                 loc_normalize_std=(0.1, 0.1, 0.2, 0.2)):
        """Sampled proposals and their targets, for one image.

        Args:
            roi (array): Proposals, :math:`(R, 4)`.
            bbox (array): Ground-truth boxes, :math:`(R', 4)`.
            label (array): Their labels in :math:`[0, L - 1]`,
                :math:`(R',)`.
            loc_normalize_mean (tuple of floats): Subtracted from the
                offsets.
            loc_normalize_std (tuple of floats): The offsets are divided
                by it.

        Returns:
            (array, array, array): The sampled proposals
            :math:`(S, 4)` ``float32``, the normalized offsets to their
            ground-truth boxes :math:`(S, 4)` ``float32`` and their labels
            :math:`(S,)` ``int32`` in :math:`[0, L]` (0: background),
            foreground first; on ``roi``'s device.
        """
        host_bbox = to_host(bbox)
        host_label = to_host(label)
        host_roi = numpy.concatenate(
            (to_host(roi).astype(numpy.float32, copy=False),
             host_bbox.astype(numpy.float32, copy=False)), axis=0)

        iou = bbox_iou(host_roi, host_bbox)
        gt_assignment = iou.argmax(axis=1)
        max_iou = iou.max(axis=1)

        pos_index = numpy.flatnonzero(max_iou >= self.pos_iou_thresh)
        n_pos = int(min(round(self.n_sample * self.pos_ratio),
                        len(pos_index)))
        pos_index = numpy.random.choice(pos_index, size=n_pos, replace=False)
        neg_index = numpy.flatnonzero(
            (max_iou < self.neg_iou_thresh_hi) &
            (max_iou >= self.neg_iou_thresh_lo))
        n_neg = int(min(self.n_sample - n_pos, len(neg_index)))
        neg_index = numpy.random.choice(neg_index, size=n_neg, replace=False)

        keep = numpy.concatenate((pos_index, neg_index))
        sample_roi = host_roi[keep]
        gt_roi_label = (host_label[gt_assignment[keep]] + 1).astype(
            numpy.int32)
        gt_roi_label[n_pos:] = 0
        gt_roi_loc = bbox2loc(sample_roi, host_bbox[gt_assignment[keep]])
        gt_roi_loc = ((gt_roi_loc - numpy.asarray(loc_normalize_mean,
                                                  numpy.float32)) /
                      numpy.asarray(loc_normalize_std, numpy.float32))
        return (like(sample_roi, roi),
                like(gt_roi_loc.astype(numpy.float32), roi),
                like(gt_roi_label, roi))
