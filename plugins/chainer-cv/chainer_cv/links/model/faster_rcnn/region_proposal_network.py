import numpy

import chainer_core as chainer
import chainer_core.functions as F
import chainer_core.links as L

from chainer_cv.links.model.faster_rcnn.utils._host import to_host
from chainer_cv.links.model.faster_rcnn.utils.generate_anchor_base import \
    generate_anchor_base
from chainer_cv.links.model.faster_rcnn.utils.proposal_creator import \
    ProposalCreator


class RegionProposalNetwork(chainer.Chain):
    """The region proposal network of `Faster R-CNN
    <https://arxiv.org/abs/1506.01497>`_.

    A 3x3 convolution (``conv1``) followed by two 1x1 convolutions predicts,
    for every anchor of every cell of the feature map, offsets (``loc``)
    and background/foreground scores (``score``); a
    :class:`~chainercv.links.model.faster_rcnn.ProposalCreator` turns them
    into proposals.

    Args:
        in_channels (int): Channels of the features.
        mid_channels (int): Channels of the intermediate layer.
        ratios (sequence of floats): Height-to-width ratios of the anchors.
        anchor_scales (sequence of numbers): Sides of the anchors as
            multiples of ``feat_stride``.
        feat_stride (int): Input pixels per feature-map cell.
        initialW (callable): Weight initializer (default: Chainer's).
        proposal_creator_params (dict): Keyword arguments of the
            :class:`ProposalCreator`.
    """

    def __init__(self, in_channels=512, mid_channels=512,
                 ratios=(0.5, 1, 2), anchor_scales=(8, 16, 32),
                 feat_stride=16, initialW=None, proposal_creator_params={}):
        self.anchor_base = generate_anchor_base(
            anchor_scales=anchor_scales, ratios=ratios)
        self.feat_stride = feat_stride
        self.proposal_layer = ProposalCreator(**proposal_creator_params)
        n_anchor = len(self.anchor_base)
        super().__init__()
        with self.init_scope():
            self.conv1 = L.Convolution2D(in_channels, mid_channels, 3, 1, 1,
                                         initialW=initialW)
            self.score = L.Convolution2D(mid_channels, n_anchor * 2, 1, 1, 0,
                                         initialW=initialW)
            self.loc = L.Convolution2D(mid_channels, n_anchor * 4, 1, 1, 0,
                                       initialW=initialW)

    def forward(self, x, img_size, scales=1.):
        """Predictions and proposals for a batch of features.

        Args:
            x (~chainer.Variable): Features, :math:`(N, C, H, W)`.
            img_size (tuple of ints): ``(H, W)`` of the scaled images.
            scales (float or sequence of floats): How much each image was
                scaled from the original.

        Returns:
            Variable, Variable, array, array, array: the offsets
            :math:`(N, H W A, 4)` and scores :math:`(N, H W A, 2)` of the
            :math:`A` anchors per cell, the proposals :math:`(R, 4)` of
            all images together, the image index of each proposal
            :math:`(R,)` ``int32``, and the anchors :math:`(H W A, 4)`.
        """
        n, _, hh, ww = x.shape
        if numpy.ndim(scales) == 0:
            scales = (scales,) * n
        n_anchor = len(self.anchor_base)
        anchor = _enumerate_shifted_anchor(self.anchor_base,
                                           self.feat_stride, hh, ww)

        h = F.relu(self.conv1(x))
        rpn_locs = self.loc(h).transpose((0, 2, 3, 1)).reshape((n, -1, 4))
        rpn_scores = self.score(h).transpose((0, 2, 3, 1))
        rpn_fg_scores = rpn_scores.reshape(
            (n, hh, ww, n_anchor, 2))[:, :, :, :, 1].reshape((n, -1))
        rpn_scores = rpn_scores.reshape((n, -1, 2))

        host_locs = to_host(rpn_locs.array)
        host_fg_scores = to_host(rpn_fg_scores.array)
        rois = []
        roi_indices = []
        for i in range(n):
            roi = self.proposal_layer(host_locs[i], host_fg_scores[i],
                                      anchor, img_size, scale=scales[i])
            rois.append(roi)
            roi_indices.append(numpy.full((len(roi),), i, numpy.int32))
        rois = numpy.concatenate(rois, axis=0).astype(numpy.float32)
        roi_indices = numpy.concatenate(roi_indices, axis=0)
        device = self.device
        return (rpn_locs, rpn_scores, device.send(rois),
                device.send(roi_indices), device.send(anchor))


def _enumerate_shifted_anchor(anchor_base, feat_stride, height, width):
    # Cells vary slowest and the base anchors fastest, the order of the
    # (H, W, A) layout the 1x1 convolutions' outputs are reshaped into.
    shift_y = numpy.arange(0, height * feat_stride, feat_stride)
    shift_x = numpy.arange(0, width * feat_stride, feat_stride)
    shift_x, shift_y = numpy.meshgrid(shift_x, shift_y)
    shift = numpy.stack((shift_y.ravel(), shift_x.ravel(),
                         shift_y.ravel(), shift_x.ravel()), axis=1)
    anchor = anchor_base[None, :, :] + shift[:, None, :]
    return anchor.reshape((-1, 4)).astype(numpy.float32)
