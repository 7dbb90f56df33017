import itertools

import numpy

import chainer_core as chainer
import chainer_core.functions as F

from chainer_cv import transforms
from chainer_cv import utils
from chainer_cv.links.model import _pretrained


def _sigmoid(x):
    # The tanh form never overflows, whatever the magnitude of a raw output.
    return 0.5 * (numpy.tanh(0.5 * x) + 1)


def _letterbox(img, insize):
    """(canvas, scaled_size): ``img`` scaled to [0, 1] and centred on a grey
    ``insize`` square, shrunk first (keeping its aspect ratio, resampled
    by :func:`chainer_cv.transforms.resize`) if it does not fit. As
    ChainerCV, smaller images are not enlarged."""
    img = numpy.asarray(img, dtype=numpy.float32) / 255
    canvas, param = transforms.resize_contain(
        img, (insize, insize), fill=0.5, return_param=True)
    return canvas, param['scaled_size']


class YOLOBase(chainer.Chain):
    """The detection interface of YOLOv2 and YOLOv3.

    A subclass has an ``extractor`` with the input size ``insize``, a
    ``forward`` returning ``locs, objs, confs`` (see
    :meth:`YOLOv2Base.forward`) over its default boxes, and
    ``_class_probability``, the class probabilities from the class
    outputs. Prediction uses the thresholds :obj:`nms_thresh` and
    :obj:`score_thresh`, which :meth:`use_preset` sets.
    """

    _models = {}

    @property
    def insize(self):
        """The side of the square input of the network."""
        return self.extractor.insize

    def _prepare(self, n_fg_class, pretrained_model):
        """The npz file to load (or None), after setting
        :obj:`n_fg_class` and the 'visualize' preset."""
        param, path = _pretrained.prepare(
            type(self).__name__, {'n_fg_class': n_fg_class},
            pretrained_model, self._models, {})
        if param['n_fg_class'] is None:
            raise ValueError('{}: n_fg_class must be given unless '
                             'pretrained_model is one of {}'.format(
                                 type(self).__name__, sorted(self._models)))
        self.n_fg_class = param['n_fg_class']
        self.use_preset('visualize')
        return path

    def _load(self, path):
        if path:
            # As ChainerCV loads its YOLO files: keys missing from the file
            # keep their initial values.
            chainer.serializers.load_npz(path, self, strict=False)

    def _set_default_bbox(self, grids, anchors):
        """The default boxes, in the order of the flattened outputs: by
        grid, then cell (row-major), then anchor. ``anchors[k]`` are the
        ``(height, width)`` in pixels on grid ``k``."""
        default_bbox = []
        step = []
        for grid, grid_anchors in zip(grids, anchors):
            for v, u in itertools.product(range(grid), repeat=2):
                for h, w in grid_anchors:
                    default_bbox.append((v, u, h, w))
                    step.append(self.insize / grid)
        self._default_bbox = numpy.array(default_bbox, dtype=numpy.float32)
        self._step = numpy.array(step, dtype=numpy.float32)

    def _flatten(self, h):
        """(B, H * W * A, 5 + n_fg_class) from a head's map (B, A * (5 +
        n_fg_class), H, W)."""
        h = F.transpose(h, (0, 2, 3, 1))
        return F.reshape(h, (h.shape[0], -1, 5 + self.n_fg_class))

    @staticmethod
    def _split(y):
        return y[:, :, :4], y[:, :, 4], y[:, :, 5:]

    def use_preset(self, preset):
        """Set the thresholds of :meth:`predict`.

        ``'visualize'``: :obj:`nms_thresh` 0.45, :obj:`score_thresh` 0.5;
        ``'evaluate'``: :obj:`nms_thresh` 0.45, :obj:`score_thresh` 0.005.
        Other values can be set on the attributes directly.

        Args:
            preset ({'visualize', 'evaluate'}): the preset.
        """
        if preset == 'visualize':
            self.nms_thresh = 0.45
            self.score_thresh = 0.5
        elif preset == 'evaluate':
            self.nms_thresh = 0.45
            self.score_thresh = 0.005
        else:
            raise ValueError("preset must be 'visualize' or 'evaluate'; got "
                             "{!r}".format(preset))

    def _decode(self, loc, obj, conf):
        """(bbox, label, score) on the network's input from one image's
        outputs (NumPy arrays ``(K, 4)``, ``(K,)``, ``(K, n_fg_class)``):
        the boxes scoring at least :obj:`score_thresh` that survive
        non-maximum suppression within their class, by class and then by
        descending score."""
        loc, obj, conf = (numpy.asarray(a, dtype=numpy.float32)
                          for a in (loc, obj, conf))
        anchor = self._default_bbox
        center = (anchor[:, :2] + _sigmoid(loc[:, :2])) * self._step[:, None]
        size = anchor[:, 2:] * numpy.exp(loc[:, 2:])
        raw_bbox = numpy.concatenate((center - size / 2, center + size / 2),
                                     axis=1)
        raw_score = _sigmoid(obj)[:, None] * self._class_probability(conf)

        keeps = []
        for label in range(self.n_fg_class):
            candidate = numpy.flatnonzero(
                raw_score[:, label] >= self.score_thresh)
            keep = utils.non_maximum_suppression(
                raw_bbox[candidate], self.nms_thresh,
                raw_score[candidate, label])
            keeps.append(candidate[keep])
        index = numpy.concatenate(keeps)
        label = numpy.repeat(numpy.arange(self.n_fg_class, dtype=numpy.int32),
                             [len(keep) for keep in keeps])
        return (raw_bbox[index].astype(numpy.float32), label,
                raw_score[index, label].astype(numpy.float32))

    def predict(self, imgs):
        """Detect objects in images.

        Each image is shrunk to fit the network's square input if larger,
        centred on a grey canvas, and the detected boxes are mapped back
        onto the image.

        Args:
            imgs (iterable of numpy.ndarray): CHW, RGB images with values in
                ``[0, 255]``; their sizes may differ.

        Returns:
            tuple of lists: ``(bboxes, labels, scores)``, one entry per
            image: ``bbox`` float32 ``(R, 4)`` as
            :math:`(y_{min}, x_{min}, y_{max}, x_{max})` on the image,
            ``label`` int32 ``(R,)`` in ``[0, n_fg_class - 1]`` and ``score``
            float32 ``(R,)``.
        """
        x = []
        sizes = []
        for img in imgs:
            canvas, scaled_size = _letterbox(img, self.insize)
            x.append(canvas)
            sizes.append((img.shape[1:], scaled_size))
        with chainer.using_config('train', False), \
                chainer.no_backprop_mode():
            outputs = self.forward(self.device.send(numpy.stack(x)))
        cpu = chainer.backend.CpuDevice()
        locs, objs, confs = (numpy.asarray(cpu.send(v.array))
                             for v in outputs)

        bboxes = []
        labels = []
        scores = []
        for loc, obj, conf, (size, scaled_size) in zip(
                locs, objs, confs, sizes):
            bbox, label, score = self._decode(loc, obj, conf)
            # The image sits at the centre of the canvas: scale about it.
            bbox = transforms.translate_bbox(
                bbox, -self.insize / 2, -self.insize / 2)
            bbox = transforms.resize_bbox(bbox, scaled_size, size)
            bbox = transforms.translate_bbox(bbox, size[0] / 2, size[1] / 2)
            bboxes.append(bbox)
            labels.append(label)
            scores.append(score)
        return bboxes, labels, scores
