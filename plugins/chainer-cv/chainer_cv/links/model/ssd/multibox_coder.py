import itertools

import numpy

from chainer_core.backend import CpuDevice

from chainer_cv.utils import bbox_iou
from chainer_cv.utils import non_maximum_suppression


def _host(x):
    return x if isinstance(x, numpy.ndarray) else CpuDevice().send(x)


class MultiboxCoder:
    """The default boxes of SSD and the coding of boxes as offsets from
    them.

    The default boxes are laid out feature map by feature map, then
    position by position (row-major), then: a square of side
    ``sizes[k]``, a square of side ``sqrt(sizes[k] * sizes[k + 1])``, and
    for each ratio ``ar`` of ``aspect_ratios[k]`` the boxes of height and
    width ``sizes[k] / sqrt(ar), sizes[k] * sqrt(ar)`` and the transpose.
    The box centres of map ``k`` are ``(i + 0.5) * steps[k]``. All
    lengths are pixels of the network input.

    A box of centre ``(y, x)`` and size ``(h, w)`` is coded relative to
    a default box ``(dy, dx, dh, dw)`` as ``((y - dy) / (v0 * dh), (x -
    dx) / (v0 * dw), log(h / dh) / v1, log(w / dw) / v1)`` with
    ``variance = (v0, v1)``.

    The coder works in NumPy: arrays of a device are copied to the host.

    Args:
        grids (iterable of ints): the side of each (square) feature map.
        aspect_ratios (iterable of tuples of ints): the aspect ratios of
            each feature map.
        steps (iterable of floats): the distance between the centres of
            neighbouring default boxes of each feature map.
        sizes (iterable of floats): the scales; one more than the feature
            maps.
        variance (tuple of floats): the two variances of the coding.
    """

    def __init__(self, grids, aspect_ratios, steps, sizes, variance):
        if not len(aspect_ratios) == len(grids):
            raise ValueError('The length of aspect_ratios is wrong.')
        if not len(steps) == len(grids):
            raise ValueError('The length of steps is wrong.')
        if not len(sizes) == len(grids) + 1:
            raise ValueError('The length of sizes is wrong.')

        default_bbox = []
        for k, grid in enumerate(grids):
            side = sizes[k]
            larger = numpy.sqrt(sizes[k] * sizes[k + 1])
            for v, u in itertools.product(range(grid), repeat=2):
                cy = (v + 0.5) * steps[k]
                cx = (u + 0.5) * steps[k]
                default_bbox.append((cy, cx, side, side))
                default_bbox.append((cy, cx, larger, larger))
                for ar in aspect_ratios[k]:
                    root = numpy.sqrt(ar)
                    default_bbox.append((cy, cx, side / root, side * root))
                    default_bbox.append((cy, cx, side * root, side / root))
        # (center_y, center_x, height, width)
        self._default_bbox = numpy.array(default_bbox, dtype=numpy.float32)
        self._variance = variance

    @property
    def default_bbox(self):
        """The default boxes, ``(K, 4)``, as ``(y_min, x_min, y_max,
        x_max)``."""
        center, size = self._default_bbox[:, :2], self._default_bbox[:, 2:]
        return numpy.hstack((center - size / 2, center + size / 2))

    def to_cpu(self):
        """Nothing to move: the coder always works on the host."""

    def encode(self, bbox, label, iou_thresh=0.5):
        """The targets of the default boxes for the boxes of one image.

        Each ground truth box is first matched to the default box it
        overlaps most (one default box per ground truth, the best pairs
        first); the other default boxes match the ground truth of
        largest IoU when it reaches ``iou_thresh``, and the background
        otherwise.

        Args:
            bbox (array): ``(R, 4)`` boxes in input pixels.
            label (array): ``(R,)`` labels in ``[0, n_fg_class - 1]``.
            iou_thresh (float): the least IoU of a match.

        Returns:
            tuple of two numpy.ndarray: ``mb_loc``, float32 ``(K, 4)``, the
            coded boxes (zeros for the background), and ``mb_label``,
            int32 ``(K,)``, the label plus one (0 for the background).
        """
        bbox = _host(bbox)
        label = _host(label)
        n_default = len(self._default_bbox)
        if len(bbox) == 0:
            return (numpy.zeros((n_default, 4), dtype=numpy.float32),
                    numpy.zeros(n_default, dtype=numpy.int32))

        iou = bbox_iou(self.default_bbox, bbox)
        index = numpy.full(n_default, -1, dtype=int)
        masked = iou.copy()
        while True:
            i, j = numpy.unravel_index(masked.argmax(), masked.shape)
            if masked[i, j] <= 1e-6:
                break
            index[i] = j
            masked[i, :] = 0
            masked[:, j] = 0
        rest = numpy.logical_and(index < 0, iou.max(axis=1) >= iou_thresh)
        index[rest] = iou[rest].argmax(axis=1)

        matched = bbox[numpy.maximum(index, 0)].astype(numpy.float64)
        size = matched[:, 2:] - matched[:, :2]
        center = matched[:, :2] + size / 2
        default_center = self._default_bbox[:, :2]
        default_size = self._default_bbox[:, 2:]
        mb_loc = numpy.empty((n_default, 4), dtype=numpy.float32)
        mb_loc[:, :2] = (center - default_center) / (
            self._variance[0] * default_size)
        mb_loc[:, 2:] = numpy.log(size / default_size) / self._variance[1]
        mb_loc[index < 0] = 0
        mb_label = (label[numpy.maximum(index, 0)] + 1).astype(numpy.int32)
        mb_label[index < 0] = 0
        return mb_loc, mb_label

    def _decode_bbox(self, mb_loc):
        default_center = self._default_bbox[:, :2]
        default_size = self._default_bbox[:, 2:]
        center = default_center + \
            mb_loc[:, :2] * self._variance[0] * default_size
        size = default_size * numpy.exp(mb_loc[:, 2:] * self._variance[1])
        return numpy.hstack((center - size / 2, center + size / 2))

    def decode(self, mb_loc, mb_conf, nms_thresh=0.45, score_thresh=0.6):
        """The detections of one image from the outputs of the network.

        The scores are the softmax of ``mb_conf``; for each foreground
        class the boxes scoring at least ``score_thresh`` are reduced by
        non-maximum suppression at ``nms_thresh``.

        Args:
            mb_loc (array): ``(K, 4)`` coded boxes.
            mb_conf (array): ``(K, n_fg_class + 1)`` class scores (logits),
                the background first.
            nms_thresh (float): the IoU above which NMS drops a box.
            score_thresh (float): the least score of a detection.

        Returns:
            tuple of three numpy.ndarray: ``bbox`` float32 ``(R, 4)`` in
            input pixels, ``label`` int32 ``(R,)`` in ``[0, n_fg_class -
            1]`` and ``score`` float32 ``(R,)``, class by class.
        """
        mb_loc = _host(mb_loc)
        mb_conf = _host(mb_conf).astype(numpy.float64)
        mb_bbox = self._decode_bbox(mb_loc.astype(numpy.float64))
        mb_score = numpy.exp(mb_conf - mb_conf.max(axis=1, keepdims=True))
        mb_score /= mb_score.sum(axis=1, keepdims=True)

        bbox, label, score = [], [], []
        for lb in range(mb_conf.shape[1] - 1):
            score_l = mb_score[:, lb + 1]
            mask = score_l >= score_thresh
            bbox_l = mb_bbox[mask]
            score_l = score_l[mask]
            keep = non_maximum_suppression(bbox_l, nms_thresh, score_l)
            bbox.append(bbox_l[keep])
            label.append(numpy.full(len(keep), lb, dtype=numpy.int32))
            score.append(score_l[keep])
        if not bbox:
            return (numpy.zeros((0, 4), numpy.float32),
                    numpy.zeros((0,), numpy.int32),
                    numpy.zeros((0,), numpy.float32))
        return (numpy.concatenate(bbox).astype(numpy.float32),
                numpy.concatenate(label),
                numpy.concatenate(score).astype(numpy.float32))
