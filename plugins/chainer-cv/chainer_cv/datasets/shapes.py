"""A synthetic detection and segmentation data set of drawn shapes, to
work and test offline."""
import numpy

from chainer_cv.chainer_experimental.datasets.sliceable import GetterDataset
from chainer_cv.datasets import _masks

shapes_label_names = ('circle', 'rectangle', 'triangle')
shapes_semantic_segmentation_label_names = (
    ('background',) + shapes_label_names)


def _draw_circle(rng, size, height, width):
    radius = size / 2
    cy, cx = rng.uniform(radius, [height - radius, width - radius])
    ys = numpy.arange(height)[:, numpy.newaxis] + 0.5
    xs = numpy.arange(width)[numpy.newaxis] + 0.5
    return (ys - cy) ** 2 + (xs - cx) ** 2 <= radius ** 2


def _draw_rectangle(rng, size, height, width):
    box_height, box_width = rng.integers(size // 2, size + 1, size=2)
    top = rng.integers(0, height - box_height + 1)
    left = rng.integers(0, width - box_width + 1)
    mask = numpy.zeros((height, width), dtype=bool)
    mask[top:top + box_height, left:left + box_width] = True
    return mask


def _draw_triangle(rng, size, height, width):
    top = rng.uniform(0, height - size)
    left = rng.uniform(0, width - size)
    apex = rng.uniform(0, size)
    # (x, y) vertices: an apex on the top edge of a size x size square and
    # the two bottom corners.
    polygon = numpy.array([[left + apex, top], [left + size, top + size],
                           [left, top + size]])
    return _masks.polygon_to_mask(polygon, height, width)


_DRAW = (_draw_circle, _draw_rectangle, _draw_triangle)


class ShapesDataset(GetterDataset):
    """Circles, rectangles and triangles of random colours and sizes on
    random backgrounds, drawn with NumPy.

    Example ``i`` depends only on ``seed`` and ``i``: the data set is the
    same in every run and in any order of access, and reading one example
    draws only that one. Shapes do not overlap, so each mask is a whole
    shape and each box is the tight box of its mask.

    Args:
        n_example (int): the number of examples.
        size (tuple of ints): the image size ``(H, W)``.
        n_shape (tuple of ints): the least and the most shapes per image.
        min_size (int): the least size of a shape, in pixels.
        max_size (int): the largest size of a shape; by default half the
            shorter side of the image.
        seed (int): the seed of the whole data set.
        return_mask (bool): add the key ``'mask'``.
        return_label_map (bool): add the key ``'label_map'``.

    The keys are ``'img'`` (float32 ``(3, H, W)`` in [0, 255]), ``'bbox'``
    (float32 ``(R, 4)``), ``'label'`` (int32 ``(R,)``, indices in
    :obj:`shapes_label_names`), then ``'mask'`` (bool ``(R, H, W)``) and
    ``'label_map'`` (int32 ``(H, W)``, indices in
    :obj:`shapes_semantic_segmentation_label_names`, 0 for the background)
    as asked.
    """

    def __init__(self, n_example=100, size=(64, 64), n_shape=(1, 4),
                 min_size=8, max_size=None, seed=0, return_mask=False,
                 return_label_map=False):
        super().__init__()
        height, width = size
        if max_size is None:
            max_size = min(height, width) // 2
        if not 2 <= min_size <= max_size <= min(height, width):
            raise ValueError(
                'ShapesDataset: expected 2 <= min_size <= max_size <= the '
                'shorter side of size={}, got min_size={}, max_size={}'
                .format(size, min_size, max_size))
        if not 0 <= n_shape[0] <= n_shape[1]:
            raise ValueError('ShapesDataset: n_shape must be (least, most) '
                             'with 0 <= least <= most, got {}'
                             .format(n_shape))
        self.n_example = n_example
        self.size = (height, width)
        self.n_shape = n_shape
        self.min_size = min_size
        self.max_size = max_size
        self.seed = seed
        self.add_getter(('img', 'bbox', 'label', 'mask', 'label_map'),
                        self._generate)
        keys = ('img', 'bbox', 'label')
        if return_mask:
            keys += ('mask',)
        if return_label_map:
            keys += ('label_map',)
        self.keys = keys

    def __len__(self):
        return self.n_example

    def _generate(self, i):
        if not 0 <= i < self.n_example:
            raise IndexError('ShapesDataset: index {} is out of range for '
                             'length {}'.format(i, self.n_example))
        rng = numpy.random.default_rng([self.seed, i])
        height, width = self.size
        background = rng.uniform(0, 255, size=3)
        # A gentle gradient and noise, so that the background is not flat.
        ramp = numpy.linspace(-20, 20, width, dtype=numpy.float32)
        img = (background[:, numpy.newaxis, numpy.newaxis]
               + ramp[numpy.newaxis, numpy.newaxis]
               + rng.normal(0, 4, size=(3, height, width)))
        occupied = numpy.zeros((height, width), dtype=bool)
        masks, labels = [], []
        n_shape = rng.integers(self.n_shape[0], self.n_shape[1] + 1)
        # Shapes that would overlap one already drawn are drawn again, a
        # bounded number of times, so that a crowded image gets fewer.
        for _ in range(n_shape * 10):
            if len(masks) == n_shape:
                break
            label = rng.integers(len(_DRAW))
            size = rng.integers(self.min_size, self.max_size + 1)
            mask = _DRAW[label](rng, size, height, width)
            if not mask.any() or (mask & occupied).any():
                continue
            color = rng.uniform(0, 255, size=3)
            while numpy.abs(color - background).max() < 80:
                color = rng.uniform(0, 255, size=3)
            img[:, mask] = color[:, numpy.newaxis]
            occupied |= mask
            masks.append(mask)
            labels.append(label)
        mask = numpy.array(masks, dtype=bool).reshape(-1, height, width)
        label = numpy.array(labels, dtype=numpy.int32)
        label_map = numpy.zeros((height, width), dtype=numpy.int32)
        for m, lb in zip(mask, label):
            label_map[m] = lb + 1
        img = numpy.clip(img, 0, 255).astype(numpy.float32)
        return img, _masks.mask_to_bbox(mask), label, mask, label_map
