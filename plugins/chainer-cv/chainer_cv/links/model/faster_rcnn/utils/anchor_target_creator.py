import numpy

from chainer_cv.links.model.faster_rcnn.utils._host import like
from chainer_cv.links.model.faster_rcnn.utils._host import to_host
from chainer_cv.links.model.faster_rcnn.utils.bbox2loc import bbox2loc
from chainer_cv.utils import bbox_iou


class AnchorTargetCreator(object):
    """The targets of the region proposal network: a label and offsets per
    anchor.

    Only anchors wholly inside the image take part. An anchor is positive
    (1) when its IoU with some ground-truth box reaches ``pos_iou_thresh``
    or when it is (one of) the best anchor of a ground-truth box; negative
    (0) when its best IoU is under ``neg_iou_thresh`` and it is not
    positive; otherwise ignored (-1). At most ``n_sample * pos_ratio``
    positives are kept and negatives fill ``n_sample``; the surplus is
    drawn at random (``numpy.random``) and ignored.

    Args:
        n_sample (int): Labelled anchors per image.
        pos_iou_thresh (float): IoU at or above which an anchor is
            positive.
        neg_iou_thresh (float): IoU under which an anchor is negative.
        pos_ratio (float): Largest fraction of positives in the sample.
    """

    def __init__(self, n_sample=256, pos_iou_thresh=0.7,
                 neg_iou_thresh=0.3, pos_ratio=0.5):
        self.n_sample = n_sample
        self.pos_iou_thresh = pos_iou_thresh
        self.neg_iou_thresh = neg_iou_thresh
        self.pos_ratio = pos_ratio

    def __call__(self, bbox, anchor, img_size):
        """Labels and offsets of the anchors of one image.

        Args:
            bbox (array): Ground-truth boxes, :math:`(R, 4)`.
            anchor (array): Anchors, :math:`(S, 4)`.
            img_size (tuple of ints): ``(H, W)`` of the image.

        Returns:
            (array, array): The offsets from each anchor to its best
            ground-truth box, :math:`(S, 4)` ``float32`` (zero outside the
            image), and the labels, :math:`(S,)` ``int32`` (1, 0 or -1); on
            ``anchor``'s device.
        """
        host_bbox = to_host(bbox)
        host_anchor = to_host(anchor)
        H, W = img_size
        inside = numpy.flatnonzero(
            (host_anchor[:, 0] >= 0) & (host_anchor[:, 1] >= 0) &
            (host_anchor[:, 2] <= H) & (host_anchor[:, 3] <= W))
        inner = host_anchor[inside]
        argmax_iou, inner_label = self._label(inner, host_bbox)

        loc = numpy.zeros((len(host_anchor), 4), dtype=numpy.float32)
        label = numpy.full((len(host_anchor),), -1, dtype=numpy.int32)
        if len(inner):
            loc[inside] = bbox2loc(inner, host_bbox[argmax_iou])
            label[inside] = inner_label
        return like(loc, anchor), like(label, anchor)

    def _label(self, anchor, bbox):
        label = numpy.full((len(anchor),), -1, dtype=numpy.int32)
        if len(anchor) == 0:
            return numpy.zeros((0,), dtype=numpy.int64), label
        iou = bbox_iou(anchor, bbox)
        argmax_iou = iou.argmax(axis=1)
        max_iou = iou[numpy.arange(len(anchor)), argmax_iou]
        # Every anchor that ties for a ground-truth box's best IoU is
        # positive, so each box gets an anchor even when all IoUs are low.
        best_of_gt = numpy.flatnonzero((iou == iou.max(axis=0)).any(axis=1))

        label[max_iou < self.neg_iou_thresh] = 0
        label[best_of_gt] = 1
        label[max_iou >= self.pos_iou_thresh] = 1

        _subsample(label, 1, int(self.pos_ratio * self.n_sample))
        _subsample(label, 0, self.n_sample - numpy.sum(label == 1))
        return argmax_iou, label


def _subsample(label, value, n_keep):
    index = numpy.flatnonzero(label == value)
    if len(index) > n_keep:
        label[numpy.random.choice(index, size=len(index) - n_keep,
                                  replace=False)] = -1
