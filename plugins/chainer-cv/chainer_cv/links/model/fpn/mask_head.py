import numpy

import chainer_core as chainer
import chainer_core.functions as F
from chainer_core import initializers
import chainer_core.links as L

from chainer_cv.links.connection.conv_2d_activ import Conv2DActiv
from chainer_cv.links.model.faster_rcnn.utils._host import like
from chainer_cv.links.model.faster_rcnn.utils._host import to_host
from chainer_cv.links.model.fpn import _misc
from chainer_cv.links.model.fpn.mask_utils import mask_to_segm
from chainer_cv.links.model.fpn.mask_utils import segm_to_mask
from chainer_cv.utils import bbox_iou


class MaskHead(chainer.Chain):
    """The mask head of Mask R-CNN: each RoI is pooled (RoI align, 14x14)
    from its level, passes four 3x3 convolutions of 256 channels
    (``conv1`` to ``conv4``, each a :class:`~chainercv.links.Conv2DActiv`),
    a 2x2 stride-2 deconvolution (``conv5``, with ReLU) and a 1x1
    convolution (``seg``) to one 28x28 mask logit map per class.

    Args:
        n_class (int): Classes including the background.
        scales (tuple of floats): Feature cells per input pixel of each
            level, finest first.
    """

    roi_size = 14
    segm_size = roi_size * 2

    def __init__(self, n_class, scales):
        super().__init__()
        init = initializers.HeNormal(1, fan_option='fan_out')
        with self.init_scope():
            for i in range(1, 5):
                setattr(self, 'conv{}'.format(i), Conv2DActiv(
                    256, 256, 3, pad=1, initialW=init))
            self.conv5 = L.Deconvolution2D(256, 256, 2, stride=2, pad=0,
                                           initialW=init)
            self.seg = L.Convolution2D(256, n_class, 1, initialW=init)
        self._n_class = n_class
        self._scales = scales

    def forward(self, hs, rois, roi_indices):
        """Mask logits :math:`(R, L, M, M)` of the RoIs, level by level.

        Args:
            hs (list of ~chainer.Variable): The pyramid.
            rois, roi_indices (lists of arrays): Per level, as
                :meth:`distribute` gives them.
        """
        h = _misc.pool(hs, rois, roi_indices, self.roi_size, self._scales)
        if h is None:
            return chainer.Variable(self.xp.zeros(
                (0, self._n_class, self.segm_size, self.segm_size),
                numpy.float32))
        h = self.conv4(self.conv3(self.conv2(self.conv1(h))))
        return self.seg(F.relu(self.conv5(h)))

    def distribute(self, rois, roi_indices):
        """As :meth:`BboxHead.distribute`, with the order that maps the
        concatenated output back: ``concatenate(out_rois)[order[i]]`` is
        ``rois[i]``."""
        return _misc.distribute(rois, roi_indices, len(self._scales))

    def decode(self, segms, bboxes, labels, sizes):
        """Image masks of the detections.

        Args:
            segms (list of numpy.ndarray): Foreground probabilities of
                each image's boxes, :math:`(R_n, L, M, M)`.
            bboxes (list of numpy.ndarray): The boxes, in image pixels.
            labels (list of numpy.ndarray): Their labels, in
                :math:`[0, L - 2]`; the map of ``label + 1`` is pasted.
            sizes (list of tuples of ints): ``(H, W)`` of each image.

        Returns:
            list of numpy.ndarray: :math:`(R_n, H_n, W_n)` ``bool``.
        """
        return [segm_to_mask(
            to_host(segm)[numpy.arange(len(label)), to_host(label) + 1],
            to_host(bbox), size)
            for segm, bbox, label, size in zip(segms, bboxes, labels, sizes)]


def mask_head_loss_pre(rois, roi_indices, gt_masks, gt_bboxes,
                       gt_head_labels, segm_size):
    """Picks the foreground RoIs of :func:`bbox_head_loss_pre` and makes
    their target segms: the mask of the ground-truth box each overlaps
    most, cut out by :func:`mask_to_segm`.

    Args:
        rois, roi_indices (lists of arrays): Per level, from
            :func:`bbox_head_loss_pre`.
        gt_masks (list of arrays): The ground-truth masks of each image,
            :math:`(R_n, H, W)`, in input pixels.
        gt_bboxes (list of arrays): Their boxes, :math:`(R_n, 4)`.
        gt_head_labels (list of arrays): Per level, the labels from
            :func:`bbox_head_loss_pre` (0: background).
        segm_size (int): :attr:`MaskHead.segm_size`.

    Returns:
        four lists, per level: the foreground RoIs, their image indices,
        their target segms :math:`(R'_l, M, M)` ``float32`` and labels
        :math:`(R'_l,)` ``int32``; on the RoIs' device.
    """
    reference = rois[0]
    n_level = len(rois)
    rois, roi_indices, levels = _misc.flatten_levels(rois, roi_indices)
    labels = numpy.concatenate([to_host(g) for g in gt_head_labels]) \
        .astype(numpy.int32)
    fg = labels > 0
    rois, roi_indices, levels, labels = \
        rois[fg], roi_indices[fg], levels[fg], labels[fg]
    gt_segms = numpy.zeros((len(rois), segm_size, segm_size), numpy.float32)
    for i in numpy.unique(roi_indices):
        index = numpy.flatnonzero(roi_indices == i)
        gt_bbox = to_host(gt_bboxes[i]).reshape((-1, 4))
        gt_index = bbox_iou(rois[index], gt_bbox).argmax(axis=1)
        gt_segms[index] = mask_to_segm(to_host(gt_masks[i]), rois[index],
                                       segm_size, gt_index)
    return _misc.split_levels(levels, n_level, reference, rois, roi_indices,
                              gt_segms, labels)


def mask_head_loss_post(segms, mask_roi_indices, gt_segms, gt_mask_labels,
                        batchsize):
    """The mask loss: the mean sigmoid cross entropy of each RoI's map of
    its own class against its target segm.

    Args:
        segms (~chainer.Variable): :meth:`MaskHead.forward` on the RoIs of
            :func:`mask_head_loss_pre`.
        mask_roi_indices, gt_segms, gt_mask_labels (lists of arrays): From
            :func:`mask_head_loss_pre`.
        batchsize (int): Images in the batch; the mean over all RoIs needs
            no more, the argument keeps ChainerCV's signature.

    Returns:
        ~chainer.Variable: The loss.
    """
    ref = segms.array
    gt_segms = numpy.concatenate(
        [to_host(g).reshape((-1,) + segms.shape[2:]) for g in gt_segms])
    labels = numpy.concatenate([to_host(g) for g in gt_mask_labels]) \
        .astype(numpy.int32)
    if len(labels) == 0:
        return F.sum(segms) * 0
    picked = segms[like(numpy.arange(len(labels)), ref), like(labels, ref)]
    return F.sigmoid_cross_entropy(picked,
                                   like(gt_segms.astype(numpy.int32), ref))
