import functools

import chainer_core.functions as F

from chainer_cv.links.model import _pretrained
from chainer_cv.links.model.fpn.bbox_head import BboxHead
from chainer_cv.links.model.fpn.faster_rcnn import FasterRCNN
from chainer_cv.links.model.fpn.fpn import FPN
from chainer_cv.links.model.fpn.mask_head import MaskHead
from chainer_cv.links.model.fpn.rpn import RPN
from chainer_cv.links.model.resnet import ResNet101
from chainer_cv.links.model.resnet import ResNet50


class FasterRCNNFPNResNet(FasterRCNN):
    """Faster R-CNN on a feature pyramid over a ResNet (``arch='he'``, the
    stride in the first 1x1 convolution of a stage) from ``res2`` to
    ``res5``, plus a level subsampled from ``res5``: scales ``1 / 4`` to
    ``1 / 64``. Subclasses name the ResNet (``_base``) and the known
    weights (``_models``).

    Args:
        n_fg_class (int): Foreground classes; 80 for the COCO weights.
        pretrained_model (str): ``'coco'`` (ChainerCV's weights trained on
            COCO 2017, read from ChainerCV's model directory under
            ``$CHAINER_DATASET_ROOT/pfnet/chainercv/models``; nothing is
            downloaded), ``'imagenet'`` (the backbone only, from the
            ResNet's ImageNet weights there), the path of an npz file, or
            None (random weights).
        return_values (list of str): See :class:`FasterRCNN`.
        min_size (int): See :class:`FasterRCNN`.
        max_size (int): See :class:`FasterRCNN`.
    """

    _base = None
    _models = {}

    def __init__(self, n_fg_class=None, pretrained_model=None,
                 return_values=('bboxes', 'labels', 'scores'),
                 min_size=800, max_size=1333):
        name = type(self).__name__
        param, path = _pretrained.prepare(
            name, {'n_fg_class': n_fg_class},
            None if pretrained_model == 'imagenet' else pretrained_model,
            self._models, {})
        if param['n_fg_class'] is None:
            raise ValueError('{}: n_fg_class must be given unless '
                             'pretrained_model names known weights'
                             .format(name))
        # Loaded first, so that missing weights fail before the build.
        imagenet = self._base(pretrained_model='imagenet', arch='he') \
            if pretrained_model == 'imagenet' else None

        base = self._base(n_class=1, arch='he')
        base.pick = ('res2', 'res3', 'res4', 'res5')
        # Padded so that the stride-4 level is exactly a quarter of the
        # input, as the deeper levels are halves of it.
        base.pool1 = functools.partial(F.max_pooling_2d, ksize=3, stride=2,
                                       pad=1, cover_all=False)
        base.remove_unused()
        extractor = FPN(base, len(base.pick),
                        (1 / 4, 1 / 8, 1 / 16, 1 / 32, 1 / 64))
        n_class = param['n_fg_class'] + 1
        super().__init__(
            extractor, RPN(extractor.scales),
            BboxHead(n_class, extractor.scales),
            MaskHead(n_class, extractor.scales), list(return_values),
            min_size=min_size, max_size=max_size)

        if imagenet is None:
            _pretrained.load(path, self)
        else:
            for layer in base.children():
                layer.copyparams(getattr(imagenet, layer.name))


class MaskRCNNFPNResNet(FasterRCNNFPNResNet):
    """Mask R-CNN: :class:`FasterRCNNFPNResNet` returning masks, labels
    and scores by default."""

    def __init__(self, n_fg_class=None, pretrained_model=None,
                 return_values=('masks', 'labels', 'scores'),
                 min_size=800, max_size=1333):
        super().__init__(n_fg_class, pretrained_model, return_values,
                         min_size, max_size)


def _coco(filename):
    return {'coco': {'param': {'n_fg_class': 80}, 'overwritable': (),
                     'file': filename}}


class FasterRCNNFPNResNet50(FasterRCNNFPNResNet):
    """Faster R-CNN with FPN on ResNet-50; see
    :class:`FasterRCNNFPNResNet`."""

    _base = ResNet50
    _models = _coco('faster_rcnn_fpn_resnet50_coco_trained_2019_03_15.npz')


class FasterRCNNFPNResNet101(FasterRCNNFPNResNet):
    """Faster R-CNN with FPN on ResNet-101; see
    :class:`FasterRCNNFPNResNet`."""

    _base = ResNet101
    _models = _coco('faster_rcnn_fpn_resnet101_coco_trained_2019_03_15.npz')


class MaskRCNNFPNResNet50(MaskRCNNFPNResNet):
    """Mask R-CNN with FPN on ResNet-50; see
    :class:`FasterRCNNFPNResNet`."""

    _base = ResNet50
    _models = _coco('mask_rcnn_fpn_resnet50_coco_trained_2019_03_15.npz')


class MaskRCNNFPNResNet101(MaskRCNNFPNResNet):
    """Mask R-CNN with FPN on ResNet-101; see
    :class:`FasterRCNNFPNResNet`."""

    _base = ResNet101
    _models = _coco('mask_rcnn_fpn_resnet101_coco_trained_2019_03_15.npz')
