"""Box coding, anchors and the target and proposal creators of Faster
R-CNN."""
from chainer_cv.links.model.faster_rcnn.utils.anchor_target_creator import AnchorTargetCreator  # NOQA
from chainer_cv.links.model.faster_rcnn.utils.bbox2loc import bbox2loc  # NOQA
from chainer_cv.links.model.faster_rcnn.utils.generate_anchor_base import generate_anchor_base  # NOQA
from chainer_cv.links.model.faster_rcnn.utils.loc2bbox import loc2bbox  # NOQA
from chainer_cv.links.model.faster_rcnn.utils.proposal_creator import ProposalCreator  # NOQA
from chainer_cv.links.model.faster_rcnn.utils.proposal_target_creator import ProposalTargetCreator  # NOQA
