import numpy

import chainer_core as chainer

from chainer_cv.links.model.faster_rcnn.utils._host import like
from chainer_cv.links.model.faster_rcnn.utils._host import to_host
from chainer_cv.links.model.faster_rcnn.utils.loc2bbox import loc2bbox
from chainer_cv.utils import non_maximum_suppression


class ProposalCreator(object):
    """Turns the anchors and the RPN's predictions into regions of
    interest.

    The anchors are moved by the predicted offsets, clipped to the image
    and those with a side under ``min_size`` (times the image's scale) are
    dropped; the ``n_pre_nms`` best-scoring remain, non-maximum
    suppression at ``nms_thresh`` thins them and the first ``n_post_nms``
    are the proposals. The counts differ in training and in testing
    (``chainer.config.train``).

    Args:
        nms_thresh (float): IoU threshold of the suppression.
        n_train_pre_nms (int): Boxes kept before suppression in training.
        n_train_post_nms (int): Proposals in training.
        n_test_pre_nms (int): Boxes kept before suppression in testing.
        n_test_post_nms (int): Proposals in testing.
        force_cpu_nms (bool): Accepted for compatibility: the suppression
            always runs on the host here.
        min_size (int): The smallest side kept, in input-image pixels.
    """

    def __init__(self, nms_thresh=0.7, n_train_pre_nms=12000,
                 n_train_post_nms=2000, n_test_pre_nms=6000,
                 n_test_post_nms=300, force_cpu_nms=False, min_size=16):
        self.nms_thresh = nms_thresh
        self.n_train_pre_nms = n_train_pre_nms
        self.n_train_post_nms = n_train_post_nms
        self.n_test_pre_nms = n_test_pre_nms
        self.n_test_post_nms = n_test_post_nms
        self.force_cpu_nms = force_cpu_nms
        self.min_size = min_size

    def __call__(self, loc, score, anchor, img_size, scale=1.):
        """The proposals of one image.

        Args:
            loc (array): Offsets of the anchors, :math:`(R, 4)`.
            score (array): Foreground scores of the anchors, :math:`(R,)`.
            anchor (array): Anchors, :math:`(R, 4)`.
            img_size (tuple of ints): ``(H, W)`` of the scaled image.
            scale (float): How much the image was scaled from the
                original; ``min_size`` is scaled with it.

        Returns:
            array: Proposals :math:`(S, 4)`, on ``loc``'s device.
        """
        if chainer.config.train:
            n_pre_nms = self.n_train_pre_nms
            n_post_nms = self.n_train_post_nms
        else:
            n_pre_nms = self.n_test_pre_nms
            n_post_nms = self.n_test_post_nms
        host_loc = to_host(loc)
        score = to_host(score).ravel()

        roi = loc2bbox(to_host(anchor), host_loc)
        roi[:, 0::2] = numpy.clip(roi[:, 0::2], 0, img_size[0])
        roi[:, 1::2] = numpy.clip(roi[:, 1::2], 0, img_size[1])

        min_size = self.min_size * scale
        keep = numpy.flatnonzero(
            (roi[:, 2] - roi[:, 0] >= min_size) &
            (roi[:, 3] - roi[:, 1] >= min_size))
        roi = roi[keep]
        score = score[keep]

        order = numpy.argsort(-score, kind='stable')
        if n_pre_nms > 0:
            order = order[:n_pre_nms]
        roi = roi[order]
        keep = non_maximum_suppression(
            roi, self.nms_thresh,
            limit=n_post_nms if n_post_nms > 0 else None)
        return like(roi[keep], loc)
