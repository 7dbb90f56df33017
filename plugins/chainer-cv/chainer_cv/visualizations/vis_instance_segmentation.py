"""Drawing instance masks."""
import numpy

from chainer_cv.visualizations import _plot
from chainer_cv.visualizations.colormap import voc_colormap


def vis_instance_segmentation(img, mask, label=None, score=None,
                              label_names=None, instance_colors=None,
                              alpha=0.7, sort_by_score=True, ax=None):
    """Draw instance masks over an image, each captioned at its top left
    with its label and score when given.

    Args:
        img (numpy.ndarray): a CHW RGB image; None draws the masks only.
        mask (numpy.ndarray): ``(R, H, W)`` bool masks.
        label (numpy.ndarray): ``(R,)`` integer labels.
        score (numpy.ndarray): ``(R,)`` confidences.
        label_names (sequence of str): the name of each label; every label
            must have one.
        instance_colors (numpy.ndarray): ``(N, 3)`` RGB colours in
            [0, 255] of the masks, repeated when there are fewer than
            masks; None: :func:`voc_colormap` of 1, 2, ..., R.
        alpha (float): the opacity of the masks.
        sort_by_score (bool): draw the masks by increasing score, so that
            the most confident are on top.
        ax (matplotlib.axes.Axes): where to draw; None creates a figure.

    Returns:
        matplotlib.axes.Axes: the axes drawn on.
    """
    fname = 'vis_instance_segmentation'
    plt = _plot.pyplot(fname)
    mask = numpy.asarray(mask)
    if mask.ndim != 3 or mask.dtype != numpy.bool_:
        raise ValueError(
            '{}: mask must be bool masks of shape (R, H, W), got {} of '
            'shape {}'.format(fname, mask.dtype, mask.shape))
    label, score = _plot.instance_vectors(fname, len(mask), label, score,
                                          label_names)
    ax = _plot.axes(plt, ax)
    size = _plot.draw_image(fname, img, ax)
    if size is not None and tuple(size) != mask.shape[1:]:
        raise ValueError(
            '{}: mask must be of the image size {}, got shape {}'.format(
                fname, tuple(size), mask.shape))
    colors = _plot.instance_colors(fname, instance_colors, len(mask),
                                   voc_colormap(range(1, len(mask) + 1)))
    canvas = numpy.zeros(mask.shape[1:] + (4,))
    order = _plot.drawing_order(score, sort_by_score, len(mask))
    for i in order:
        canvas[mask[i], :3] = colors[i]
        canvas[mask[i], 3] = alpha
    ax.imshow(canvas)
    for i in order:
        ys, xs = numpy.nonzero(mask[i])
        if len(ys):
            _plot.draw_caption(ax, xs.min(), ys.min(),
                               _plot.caption(i, label, score, label_names))
    return ax
