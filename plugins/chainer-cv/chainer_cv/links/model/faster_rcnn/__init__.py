"""Faster R-CNN (`Ren et al. <https://arxiv.org/abs/1506.01497>`_) with
ChainerCV's API and parameter layout."""
from chainer_cv.links.model.faster_rcnn.faster_rcnn import FasterRCNN  # NOQA
from chainer_cv.links.model.faster_rcnn.faster_rcnn_train_chain import FasterRCNNTrainChain  # NOQA
from chainer_cv.links.model.faster_rcnn.faster_rcnn_vgg import FasterRCNNVGG16  # NOQA
from chainer_cv.links.model.faster_rcnn.faster_rcnn_vgg import VGG16RoIHead  # NOQA
from chainer_cv.links.model.faster_rcnn.region_proposal_network import RegionProposalNetwork  # NOQA
from chainer_cv.links.model.faster_rcnn.utils import AnchorTargetCreator  # NOQA
from chainer_cv.links.model.faster_rcnn.utils import bbox2loc  # NOQA
from chainer_cv.links.model.faster_rcnn.utils import generate_anchor_base  # NOQA
from chainer_cv.links.model.faster_rcnn.utils import loc2bbox  # NOQA
from chainer_cv.links.model.faster_rcnn.utils import ProposalCreator  # NOQA
from chainer_cv.links.model.faster_rcnn.utils import ProposalTargetCreator  # NOQA
