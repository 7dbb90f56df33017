import numpy

import chainer_core as chainer
import chainer_core.functions as F
from chainer_core.initializers import constant
from chainer_core.initializers import normal
import chainer_core.links as L

from chainer_cv.links.model import _pretrained
from chainer_cv.links.model.faster_rcnn.faster_rcnn import FasterRCNN
from chainer_cv.links.model.faster_rcnn.region_proposal_network import \
    RegionProposalNetwork
from chainer_cv.links.model.faster_rcnn.utils._host import like
from chainer_cv.links.model.faster_rcnn.utils._host import to_host
from chainer_cv.links.model.vgg import VGG16


class FasterRCNNVGG16(FasterRCNN):
    """Faster R-CNN with a VGG-16 extractor (up to ``conv5_3``, stride 16)
    and :class:`VGG16RoIHead`.

    Args:
        n_fg_class (int): Foreground classes; 20 for the VOC weights.
        pretrained_model (str): ``'voc07'`` or ``'voc0712'`` (ChainerCV's
            trained weights, read from ChainerCV's model directory under
            ``$CHAINER_DATASET_ROOT/pfnet/chainercv/models``; nothing is
            downloaded), ``'imagenet'`` (the extractor and ``fc6``/``fc7``
            copied from :class:`~chainercv.links.VGG16`'s ImageNet
            weights), the path of an npz file, or None (random weights).
        min_size (int): See :class:`FasterRCNN`.
        max_size (int): See :class:`FasterRCNN`.
        ratios (sequence of floats): Height-to-width ratios of the anchors.
        anchor_scales (sequence of numbers): Sides of the anchors as
            multiples of 16.
        vgg_initialW (callable): Initializer of the VGG layers.
        rpn_initialW (callable): Initializer of the RPN (default
            ``Normal(0.01)``).
        loc_initialW (callable): Initializer of the head's offsets
            (default ``Normal(0.001)``).
        score_initialW (callable): Initializer of the head's scores
            (default ``Normal(0.01)``).
        proposal_creator_params (dict): Keyword arguments of the
            :class:`ProposalCreator`.
    """

    _models = {
        'voc07': {
            'param': {'n_fg_class': 20},
            'overwritable': (),
            'file': 'faster_rcnn_vgg16_voc07_trained_2018_06_01.npz',
        },
        'voc0712': {
            'param': {'n_fg_class': 20},
            'overwritable': (),
            'file': 'faster_rcnn_vgg16_voc0712_trained_2017_07_21.npz',
        },
    }
    feat_stride = 16

    def __init__(self, n_fg_class=None, pretrained_model=None,
                 min_size=600, max_size=1000, ratios=(0.5, 1, 2),
                 anchor_scales=(8, 16, 32), vgg_initialW=None,
                 rpn_initialW=None, loc_initialW=None, score_initialW=None,
                 proposal_creator_params={}):
        # 'imagenet' names weights of the parts, copied after building.
        param, path = _pretrained.prepare(
            'FasterRCNNVGG16', {'n_fg_class': n_fg_class},
            None if pretrained_model == 'imagenet' else pretrained_model,
            self._models, {})
        if param['n_fg_class'] is None:
            raise ValueError('FasterRCNNVGG16: n_fg_class must be given '
                             'unless pretrained_model names known weights')
        # Loaded first, so that missing weights fail before the build.
        imagenet_vgg = VGG16(pretrained_model='imagenet') \
            if pretrained_model == 'imagenet' else None
        if rpn_initialW is None:
            rpn_initialW = normal.Normal(0.01)
        if loc_initialW is None:
            loc_initialW = normal.Normal(0.001)
        if score_initialW is None:
            score_initialW = normal.Normal(0.01)
        if vgg_initialW is None and pretrained_model:
            # The weights are overwritten: skip sampling them.
            vgg_initialW = constant.Zero()

        extractor = VGG16(initialW=vgg_initialW)
        extractor.pick = 'conv5_3'
        extractor.remove_unused()
        rpn = RegionProposalNetwork(
            512, 512, ratios=ratios, anchor_scales=anchor_scales,
            feat_stride=self.feat_stride, initialW=rpn_initialW,
            proposal_creator_params=proposal_creator_params)
        head = VGG16RoIHead(
            param['n_fg_class'] + 1, roi_size=7,
            spatial_scale=1. / self.feat_stride, vgg_initialW=vgg_initialW,
            loc_initialW=loc_initialW, score_initialW=score_initialW)
        super().__init__(
            extractor, rpn, head,
            mean=numpy.array([122.7717, 115.9465, 102.9801],
                             dtype=numpy.float32)[:, None, None],
            min_size=min_size, max_size=max_size)

        if imagenet_vgg is None:
            _pretrained.load(path, self)
        else:
            self._copy_imagenet_pretrained_vgg16(imagenet_vgg)

    def _copy_imagenet_pretrained_vgg16(self, vgg):
        for name in self.extractor.layer_names:
            layer = getattr(self.extractor, name)
            if isinstance(layer, chainer.Link):
                layer.copyparams(getattr(vgg, name))
        self.head.fc6.copyparams(vgg.fc6)
        self.head.fc7.copyparams(vgg.fc7)


class VGG16RoIHead(chainer.Chain):
    """The head of :class:`FasterRCNNVGG16`: RoI max pooling of the
    features, VGG-16's ``fc6`` and ``fc7``, then class-wise offsets
    (``cls_loc``) and class scores (``score``).

    Args:
        n_class (int): Classes including the background.
        roi_size (int): Side of the pooled features.
        spatial_scale (float): Feature cells per input pixel.
        vgg_initialW (callable): Initializer of ``fc6`` and ``fc7``.
        loc_initialW (callable): Initializer of ``cls_loc``.
        score_initialW (callable): Initializer of ``score``.
    """

    def __init__(self, n_class, roi_size, spatial_scale, vgg_initialW=None,
                 loc_initialW=None, score_initialW=None):
        super().__init__()
        with self.init_scope():
            self.fc6 = L.Linear(512 * roi_size * roi_size, 4096,
                                initialW=vgg_initialW)
            self.fc7 = L.Linear(4096, 4096, initialW=vgg_initialW)
            self.cls_loc = L.Linear(4096, n_class * 4, initialW=loc_initialW)
            self.score = L.Linear(4096, n_class, initialW=score_initialW)
        self.n_class = n_class
        self.roi_size = roi_size
        self.spatial_scale = spatial_scale

    def forward(self, x, rois, roi_indices):
        """Class-wise offsets :math:`(R, 4 L)` and scores :math:`(R, L)`.

        Args:
            x (~chainer.Variable): Features, :math:`(N, C, H, W)`.
            rois (array): Boxes :math:`(R, 4)`,
                :math:`(y_{min}, x_{min}, y_{max}, x_{max})`, in input
                pixels.
            roi_indices (array): The image of each box, :math:`(R,)`.
        """
        pool = _roi_pooling_2d_yx(x, rois, roi_indices, self.roi_size,
                                  self.roi_size, self.spatial_scale)
        fc6 = F.relu(self.fc6(pool))
        fc7 = F.relu(self.fc7(fc6))
        return self.cls_loc(fc7), self.score(fc7)


def _roi_pooling_2d_yx(x, rois, roi_indices, outh, outw, spatial_scale):
    # F.roi_pooling_2d takes rows (index, x_min, y_min, x_max, y_max).
    rois = to_host(rois).astype(numpy.float32, copy=False)
    index = to_host(roi_indices).astype(numpy.float32)[:, None]
    xy_rois = numpy.concatenate((index, rois[:, [1, 0, 3, 2]]), axis=1)
    array = x.array if isinstance(x, chainer.Variable) else x
    return F.roi_pooling_2d(x, like(xy_rois, array), outh, outw,
                            spatial_scale)
