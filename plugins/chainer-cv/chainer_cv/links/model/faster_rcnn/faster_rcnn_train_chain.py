import numpy

import chainer_core as chainer
import chainer_core.functions as F

from chainer_cv.links.model.faster_rcnn.utils._host import to_host
from chainer_cv.links.model.faster_rcnn.utils.anchor_target_creator import \
    AnchorTargetCreator
from chainer_cv.links.model.faster_rcnn.utils.proposal_target_creator \
    import ProposalTargetCreator


class FasterRCNNTrainChain(chainer.Chain):
    """The losses of Faster R-CNN, for training (one image per batch).

    The total is the sum of four losses, each reported under its name:
    ``rpn_loc_loss`` and ``rpn_cls_loss`` of the region proposal network
    against the targets of ``anchor_target_creator``, and
    ``roi_loc_loss`` and ``roi_cls_loss`` of the head on the proposals
    sampled by ``proposal_target_creator``. The offsets' losses are smooth
    L1 (with :math:`\\sigma`), averaged over the labelled samples; the
    classification losses are softmax cross entropies.

    Args:
        faster_rcnn (FasterRCNN): The detector trained.
        rpn_sigma (float): :math:`\\sigma` of the RPN's offset loss.
        roi_sigma (float): :math:`\\sigma` of the head's offset loss.
        anchor_target_creator: An :class:`AnchorTargetCreator`.
        proposal_target_creator: A :class:`ProposalTargetCreator`.
    """

    def __init__(self, faster_rcnn, rpn_sigma=3., roi_sigma=1.,
                 anchor_target_creator=None, proposal_target_creator=None):
        super().__init__()
        with self.init_scope():
            self.faster_rcnn = faster_rcnn
        self.rpn_sigma = rpn_sigma
        self.roi_sigma = roi_sigma
        self.anchor_target_creator = AnchorTargetCreator() \
            if anchor_target_creator is None else anchor_target_creator
        self.proposal_target_creator = ProposalTargetCreator() \
            if proposal_target_creator is None else proposal_target_creator
        self.loc_normalize_mean = faster_rcnn.loc_normalize_mean
        self.loc_normalize_std = faster_rcnn.loc_normalize_std

    def forward(self, imgs, bboxes, labels, scales):
        """The total loss.

        Args:
            imgs (~chainer.Variable): Prepared images, :math:`(1, 3, H, W)`.
            bboxes (array): Ground-truth boxes, :math:`(1, R, 4)`.
            labels (array): Their labels, :math:`(1, R)`, in
                :math:`[0, L - 2]`.
            scales (float or array): How much the image was scaled.

        Returns:
            ~chainer.Variable: The sum of the four losses.
        """
        bboxes = to_host(bboxes)
        labels = to_host(labels)
        scales = numpy.ravel(to_host(scales))
        if len(bboxes) != 1:
            raise ValueError('FasterRCNNTrainChain: only batches of one '
                             'image are supported; got {}'.format(
                                 len(bboxes)))
        img_size = imgs.shape[2:]
        frcnn = self.faster_rcnn
        features = frcnn.extractor(imgs)
        rpn_locs, rpn_scores, rois, _, anchor = frcnn.rpn(
            features, img_size, scales)
        bbox = bboxes[0]
        label = labels[0]

        sample_roi, gt_roi_loc, gt_roi_label = self.proposal_target_creator(
            rois, bbox, label, self.loc_normalize_mean,
            self.loc_normalize_std)
        sample_roi_index = numpy.zeros((len(sample_roi),), numpy.int32)
        roi_cls_loc, roi_score = frcnn.head(features, sample_roi,
                                            sample_roi_index)

        gt_rpn_loc, gt_rpn_label = self.anchor_target_creator(
            bbox, anchor, img_size)
        rpn_loc_loss = self._loc_loss(rpn_locs[0], gt_rpn_loc, gt_rpn_label,
                                      self.rpn_sigma)
        rpn_cls_loss = F.softmax_cross_entropy(rpn_scores[0], gt_rpn_label)

        n_sample = roi_cls_loc.shape[0]
        roi_cls_loc = roi_cls_loc.reshape((n_sample, -1, 4))
        # Only the offsets of each sample's own class are trained; a
        # one-hot weighting picks them on any device.
        host_label = to_host(gt_roi_label)
        one_hot = numpy.zeros(roi_cls_loc.shape[:2], numpy.float32)
        one_hot[numpy.arange(n_sample), host_label] = 1
        roi_loc = F.sum(roi_cls_loc * self.device.send(one_hot)[:, :, None],
                        axis=1)
        roi_loc_loss = self._loc_loss(roi_loc, gt_roi_loc, gt_roi_label,
                                      self.roi_sigma)
        roi_cls_loss = F.softmax_cross_entropy(roi_score, gt_roi_label)

        loss = rpn_loc_loss + rpn_cls_loss + roi_loc_loss + roi_cls_loss
        chainer.reporter.report({'rpn_loc_loss': rpn_loc_loss,
                                 'rpn_cls_loss': rpn_cls_loss,
                                 'roi_loc_loss': roi_loc_loss,
                                 'roi_cls_loss': roi_cls_loss,
                                 'loss': loss}, self)
        return loss

    def _loc_loss(self, pred_loc, gt_loc, gt_label, sigma):
        """Smooth L1 over the positives, divided by the labelled count."""
        host_label = to_host(gt_label)
        weight = numpy.zeros(pred_loc.shape, numpy.float32)
        weight[host_label > 0] = 1
        weight = self.device.send(weight)
        sigma2 = sigma ** 2
        # sigma2 * huber(delta=1/sigma2) is the smooth L1 of Fast R-CNN:
        # sigma2/2 d^2 near zero, |d| - 1/(2 sigma2) beyond.
        loss = sigma2 * F.sum(F.huber_loss(
            pred_loc * weight, gt_loc * weight, delta=1. / sigma2,
            reduce='no'))
        return loss / max(int(numpy.sum(host_label >= 0)), 1)
