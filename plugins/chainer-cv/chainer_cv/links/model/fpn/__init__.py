"""Feature pyramid network detectors, Faster R-CNN and Mask R-CNN
(`Lin et al. <https://arxiv.org/abs/1612.03144>`_, `He et al.
<https://arxiv.org/abs/1703.06870>`_), with ChainerCV's API and parameter
layout."""
from chainer_cv.links.model.fpn.bbox_head import bbox_head_loss_post  # NOQA
from chainer_cv.links.model.fpn.bbox_head import bbox_head_loss_pre  # NOQA
from chainer_cv.links.model.fpn.bbox_head import BboxHead  # NOQA
from chainer_cv.links.model.fpn.faster_rcnn import FasterRCNN  # NOQA
from chainer_cv.links.model.fpn.faster_rcnn import GeneralizedRCNN  # NOQA
from chainer_cv.links.model.fpn.faster_rcnn_fpn_resnet import FasterRCNNFPNResNet  # NOQA
from chainer_cv.links.model.fpn.faster_rcnn_fpn_resnet import FasterRCNNFPNResNet101  # NOQA
from chainer_cv.links.model.fpn.faster_rcnn_fpn_resnet import FasterRCNNFPNResNet50  # NOQA
from chainer_cv.links.model.fpn.faster_rcnn_fpn_resnet import MaskRCNNFPNResNet  # NOQA
from chainer_cv.links.model.fpn.faster_rcnn_fpn_resnet import MaskRCNNFPNResNet101  # NOQA
from chainer_cv.links.model.fpn.faster_rcnn_fpn_resnet import MaskRCNNFPNResNet50  # NOQA
from chainer_cv.links.model.fpn.fpn import FPN  # NOQA
from chainer_cv.links.model.fpn.mask_head import mask_head_loss_post  # NOQA
from chainer_cv.links.model.fpn.mask_head import mask_head_loss_pre  # NOQA
from chainer_cv.links.model.fpn.mask_head import MaskHead  # NOQA
from chainer_cv.links.model.fpn.mask_utils import mask_to_segm  # NOQA
from chainer_cv.links.model.fpn.mask_utils import segm_to_mask  # NOQA
from chainer_cv.links.model.fpn.rpn import RPN  # NOQA
from chainer_cv.links.model.fpn.rpn import rpn_loss  # NOQA
