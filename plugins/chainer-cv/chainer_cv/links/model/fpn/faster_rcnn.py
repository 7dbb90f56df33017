import numpy

import chainer_core as chainer
import chainer_core.functions as F

from chainer_cv.links.model.faster_rcnn.utils._host import to_host
from chainer_cv.transforms import resize

_values = ('rois', 'bboxes', 'labels', 'scores', 'masks')


class FasterRCNN(chainer.Chain):
    """The base of the FPN detectors (`Lin et al.
    <https://arxiv.org/abs/1612.03144>`_), Faster R-CNN and Mask R-CNN
    (`He et al. <https://arxiv.org/abs/1703.06870>`_).

    ``extractor`` turns images into a feature pyramid, ``rpn`` proposes
    RoIs on it, ``bbox_head`` classifies them and refines their boxes and
    ``mask_head`` segments the detections. The heads are children only
    where ``return_values`` needs them, so the npz files of a Faster R-CNN
    hold no mask head.

    Args:
        extractor (~chainer.Link): Images to the pyramid; has ``scales``
            and ``mean``.
        rpn (~chainer.Link): As :class:`~chainercv.links.model.fpn.RPN`.
        bbox_head (~chainer.Link): As
            :class:`~chainercv.links.model.fpn.BboxHead`.
        mask_head (~chainer.Link): As
            :class:`~chainercv.links.model.fpn.MaskHead`, or None.
        return_values (list of str): What :meth:`predict` returns, in
            order, among ``'rois'``, ``'bboxes'``, ``'labels'``,
            ``'scores'`` and ``'masks'``.
        min_size (int): :meth:`prepare` scales the shorter side to this...
        max_size (int): ... unless the longer side would exceed this.
    """

    # The input is padded to a multiple of the coarsest backbone stride,
    # so that each level is exactly half the size of the one before.
    stride = 32

    def __init__(self, extractor, rpn, bbox_head, mask_head, return_values,
                 min_size=800, max_size=1333):
        for name in return_values:
            if name not in _values:
                raise ValueError('return_values: {!r} is not one of {}'
                                 .format(name, _values))
        run_mask = 'masks' in return_values
        if run_mask and mask_head is None:
            raise ValueError("return_values: 'masks' needs a mask_head")
        super().__init__()
        with self.init_scope():
            self.extractor = extractor
            self.rpn = rpn
            if run_mask or _needs_boxes(return_values):
                self.bbox_head = bbox_head
            if run_mask:
                self.mask_head = mask_head
        self.return_values = return_values
        self.min_size = min_size
        self.max_size = max_size
        self.use_preset('visualize')

    def use_preset(self, preset):
        """Set ``nms_thresh`` and ``score_thresh`` of :meth:`predict`.

        ``'visualize'``: 0.5 and 0.7, few confident boxes;
        ``'evaluate'``: 0.5 and 0.05, for mAP.
        """
        if preset == 'visualize':
            self.nms_thresh = 0.5
            self.score_thresh = 0.7
        elif preset == 'evaluate':
            self.nms_thresh = 0.5
            self.score_thresh = 0.05
        else:
            raise ValueError(
                "preset must be 'visualize' or 'evaluate'; got {!r}"
                .format(preset))

    def forward(self, x):
        """The pyramid and the RPN's outputs for prepared images.

        Returns:
            three lists, per level: the features, the RPN's offsets and
            its logits.
        """
        hs = self.extractor(x)
        rpn_locs, rpn_confs = self.rpn(hs)
        return hs, rpn_locs, rpn_confs

    def prepare(self, imgs):
        """Scale the images (``min_size``, ``max_size``), subtract the
        mean and pad them, bottom and right, into one batch whose sides
        are multiples of :attr:`stride`.

        Args:
            imgs (iterable of numpy.ndarray): CHW RGB images in
                :math:`[0, 255]`.

        Returns:
            array and list of floats: the batch, on the model's device,
            and the scale of each image.
        """
        scales = []
        resized = []
        for img in imgs:
            _, H, W = img.shape
            scale = self.min_size / min(H, W)
            if scale * max(H, W) > self.max_size:
                scale = self.max_size / max(H, W)
            scales.append(scale)
            img = resize(numpy.asarray(img, numpy.float32),
                         (int(H * scale), int(W * scale)))
            resized.append(img - self.extractor.mean)
        size = numpy.max([img.shape[1:] for img in resized], axis=0)
        size = -(-size // self.stride) * self.stride
        x = numpy.zeros((len(resized), 3) + tuple(size), numpy.float32)
        for i, img in enumerate(resized):
            x[i, :, :img.shape[1], :img.shape[2]] = img
        return self.device.send(x), scales

    def predict(self, imgs):
        """Detect (and segment) objects in images.

        Args:
            imgs (iterable of numpy.ndarray): CHW RGB images in
                :math:`[0, 255]`, of any sizes.

        Returns:
            tuple of lists, one entry per image, as ``return_values``
            orders them: ``rois`` (the proposals, :math:`(R, 4)`),
            ``bboxes`` (:math:`(R, 4)` ``float32``,
            :math:`(y_{min}, x_{min}, y_{max}, x_{max})`), ``labels``
            (:math:`(R,)` ``int32`` in :math:`[0, L - 2]`), ``scores``
            (:math:`(R,)` ``float32``) and ``masks`` (:math:`(R, H, W)`
            ``bool``, the image's size); all in the original images'
            pixels, on the host.
        """
        imgs = list(imgs)
        sizes = [img.shape[1:] for img in imgs]
        x, scales = self.prepare(imgs)
        output = {}
        with chainer.using_config('train', False), \
                chainer.no_backprop_mode():
            hs, rpn_locs, rpn_confs = self.forward(x)
            anchors = self.rpn.anchors(h.shape[2:] for h in hs)
            rois, roi_indices = self.rpn.decode(rpn_locs, rpn_confs,
                                                anchors, x.shape)
            if 'rois' in self.return_values:
                host_rois = to_host(rois)
                host_indices = to_host(roi_indices)
                output['rois'] = [host_rois[host_indices == i] / scale
                                  for i, scale in enumerate(scales)]
            if 'masks' in self.return_values or \
                    _needs_boxes(self.return_values):
                rois, roi_indices = self.bbox_head.distribute(rois,
                                                              roi_indices)
                locs, confs = self.bbox_head(hs, rois, roi_indices)
                output['bboxes'], output['labels'], output['scores'] = \
                    self.bbox_head.decode(
                        rois, roi_indices, locs, confs, scales, sizes,
                        self.nms_thresh, self.score_thresh)
            if 'masks' in self.return_values:
                output['masks'] = self._segment(
                    hs, output['bboxes'], output['labels'], scales, sizes)
        return tuple(output[name] for name in self.return_values)

    def _segment(self, hs, bboxes, labels, scales, sizes):
        # The detections, in the input's pixels, are the mask head's RoIs.
        rois = numpy.concatenate(
            [bbox * scale for bbox, scale in zip(bboxes, scales)]) \
            .astype(numpy.float32).reshape((-1, 4))
        roi_indices = numpy.concatenate(
            [numpy.full((len(bbox),), i, numpy.int32)
             for i, bbox in enumerate(bboxes)])
        device = self.device
        rois, roi_indices, order = self.mask_head.distribute(
            device.send(rois), device.send(roi_indices))
        segms = to_host(F.sigmoid(self.mask_head(hs, rois, roi_indices)))
        segms = segms[to_host(order)]
        ends = numpy.cumsum([len(bbox) for bbox in bboxes])[:-1]
        return self.mask_head.decode(numpy.split(segms, ends), bboxes,
                                     labels, sizes)


def _needs_boxes(return_values):
    return any(name in return_values for name in ('bboxes', 'labels',
                                                  'scores'))


# The name torchvision and Detectron2 give the same base.
GeneralizedRCNN = FasterRCNN
