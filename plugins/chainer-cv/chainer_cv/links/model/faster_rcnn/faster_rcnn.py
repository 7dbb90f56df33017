import numpy

import chainer_core as chainer
import chainer_core.functions as F

from chainer_cv.links.model.faster_rcnn.utils._host import to_host
from chainer_cv.links.model.faster_rcnn.utils.loc2bbox import loc2bbox
from chainer_cv.transforms import resize
from chainer_cv.utils import non_maximum_suppression


class FasterRCNN(chainer.Chain):
    """The base of `Faster R-CNN <https://arxiv.org/abs/1506.01497>`_
    detectors.

    Three children: ``extractor`` turns a batch of images into features,
    ``rpn`` (a :class:`RegionProposalNetwork`) proposes regions of interest
    on them and ``head`` classifies each region and refines its box per
    class. :meth:`predict` goes from images to detections; a call
    (:meth:`forward`) gives the raw outputs, for training.

    Args:
        extractor (callable): Images :math:`(N, 3, H, W)` to features.
        rpn (callable): The region proposal network, called as
            ``rpn(features, img_size, scales)``.
        head (callable): ``head(features, rois, roi_indices)`` to the
            class-wise offsets :math:`(R, 4 L)` and scores :math:`(R, L)`
            of the :math:`L` classes, background first; its ``n_class``
            attribute is :math:`L`.
        mean (numpy.ndarray): Subtracted from the images, ``(3, 1, 1)``.
        min_size (int): :meth:`prepare` scales the shorter side to this...
        max_size (int): ... unless the longer side would exceed this.
        loc_normalize_mean (tuple of floats): Mean of the head's offsets.
        loc_normalize_std (tuple of floats): Standard deviation of the
            head's offsets.
    """

    def __init__(self, extractor, rpn, head, mean, min_size=600,
                 max_size=1000, loc_normalize_mean=(0., 0., 0., 0.),
                 loc_normalize_std=(0.1, 0.1, 0.2, 0.2)):
        super().__init__()
        with self.init_scope():
            self.extractor = extractor
            self.rpn = rpn
            self.head = head
        self.mean = mean
        self.min_size = min_size
        self.max_size = max_size
        self.loc_normalize_mean = loc_normalize_mean
        self.loc_normalize_std = loc_normalize_std
        self.use_preset('visualize')

    @property
    def n_class(self):
        """Classes including the background."""
        return self.head.n_class

    def forward(self, x, scales=1.):
        """Raw outputs for a batch of prepared images.

        Args:
            x (~chainer.Variable): Images, :math:`(N, C, H, W)`.
            scales (float or sequence of floats): How much each image was
                scaled by :meth:`prepare`.

        Returns:
            Variable, Variable, array, array: the class-wise offsets
            :math:`(R, 4 L)` and scores :math:`(R, L)` of the proposals,
            the proposals :math:`(R, 4)` in the coordinates of ``x`` and
            their image indices :math:`(R,)`.
        """
        img_size = x.shape[2:]
        h = self.extractor(x)
        _, _, rois, roi_indices, _ = self.rpn(h, img_size, scales)
        roi_cls_locs, roi_scores = self.head(h, rois, roi_indices)
        return roi_cls_locs, roi_scores, rois, roi_indices

    def use_preset(self, preset):
        """Set ``nms_thresh`` and ``score_thresh`` of :meth:`predict`.

        ``'visualize'``: 0.3 and 0.7, few confident boxes;
        ``'evaluate'``: 0.3 and 0.05, for mAP.
        """
        if preset == 'visualize':
            self.nms_thresh = 0.3
            self.score_thresh = 0.7
        elif preset == 'evaluate':
            self.nms_thresh = 0.3
            self.score_thresh = 0.05
        else:
            raise ValueError(
                "preset must be 'visualize' or 'evaluate'; got {!r}"
                .format(preset))

    def prepare(self, img):
        """Scale an image (``min_size``, ``max_size``) and subtract the
        mean.

        Args:
            img (numpy.ndarray): CHW RGB image in :math:`[0, 255]`.

        Returns:
            numpy.ndarray: The ``float32`` image.
        """
        _, H, W = img.shape
        scale = self.min_size / min(H, W)
        if scale * max(H, W) > self.max_size:
            scale = self.max_size / max(H, W)
        img = resize(img, (int(H * scale), int(W * scale)))
        return (img - self.mean).astype(numpy.float32, copy=False)

    def _suppress(self, raw_cls_bbox, raw_prob):
        bbox = []
        label = []
        score = []
        cls_bbox = raw_cls_bbox.reshape((-1, self.n_class, 4))
        # Class 0 is the background.
        for lb in range(1, self.n_class):
            mask = raw_prob[:, lb] > self.score_thresh
            bbox_l = cls_bbox[mask, lb]
            prob_l = raw_prob[mask, lb]
            keep = non_maximum_suppression(bbox_l, self.nms_thresh, prob_l)
            bbox.append(bbox_l[keep])
            label.append(numpy.full((len(keep),), lb - 1, numpy.int32))
            score.append(prob_l[keep])
        return (numpy.concatenate(bbox, axis=0).astype(numpy.float32),
                numpy.concatenate(label, axis=0).astype(numpy.int32),
                numpy.concatenate(score, axis=0).astype(numpy.float32))

    def predict(self, imgs):
        """Detect objects in images.

        Args:
            imgs (iterable of numpy.ndarray): CHW RGB images in
                :math:`[0, 255]`, of any sizes.

        Returns:
            tuple of lists: ``bboxes`` (each :math:`(R, 4)` ``float32``
            in the image's coordinates), ``labels`` (each :math:`(R,)`
            ``int32`` in :math:`[0, L - 2]`) and ``scores`` (each
            :math:`(R,)` ``float32``), one entry per image.
        """
        bboxes = []
        labels = []
        scores = []
        mean = numpy.tile(numpy.asarray(self.loc_normalize_mean,
                                        numpy.float32), self.n_class)
        std = numpy.tile(numpy.asarray(self.loc_normalize_std,
                                       numpy.float32), self.n_class)
        for img in imgs:
            size = img.shape[1:]
            prepared = self.prepare(numpy.asarray(img, numpy.float32))
            scale = prepared.shape[2] / size[1]
            with chainer.using_config('train', False), \
                    chainer.no_backprop_mode():
                x = self.device.send(prepared[None])
                roi_cls_loc, roi_score, roi, _ = self.forward(
                    x, scales=[scale])
                prob = F.softmax(roi_score).array
            roi = to_host(roi) / scale
            roi_cls_loc = to_host(roi_cls_loc.array) * std + mean
            cls_bbox = loc2bbox(
                numpy.repeat(roi, self.n_class, axis=0),
                roi_cls_loc.reshape((-1, 4))).reshape((-1, self.n_class * 4))
            cls_bbox[:, 0::2] = numpy.clip(cls_bbox[:, 0::2], 0, size[0])
            cls_bbox[:, 1::2] = numpy.clip(cls_bbox[:, 1::2], 0, size[1])
            bbox, label, score = self._suppress(cls_bbox, to_host(prob))
            bboxes.append(bbox)
            labels.append(label)
            scores.append(score)
        return bboxes, labels, scores
