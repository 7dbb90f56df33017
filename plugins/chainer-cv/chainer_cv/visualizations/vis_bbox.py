"""Drawing bounding boxes."""
import numpy

from chainer_cv.visualizations import _plot


def vis_bbox(img, bbox, label=None, score=None, label_names=None,
             instance_colors=None, alpha=1., linewidth=3.,
             sort_by_score=True, ax=None):
    """Draw bounding boxes on an image, each captioned with its label and
    score when given.

    Args:
        img (numpy.ndarray): a CHW RGB image; None draws boxes only.
        bbox (numpy.ndarray): ``(R, 4)`` boxes,
            ``(y_min, x_min, y_max, x_max)``.
        label (numpy.ndarray): ``(R,)`` integer labels.
        score (numpy.ndarray): ``(R,)`` confidences.
        label_names (sequence of str): the name of each label; every label
            must have one.
        instance_colors (numpy.ndarray): ``(N, 3)`` RGB colours in
            [0, 255] of the boxes, repeated when there are fewer than
            boxes; None: red.
        alpha (float): the opacity of the boxes.
        linewidth (float): the width of their edges.
        sort_by_score (bool): draw the boxes by increasing score, so that
            the most confident are on top.
        ax (matplotlib.axes.Axes): where to draw; None creates a figure.

    Returns:
        matplotlib.axes.Axes: the axes drawn on.
    """
    fname = 'vis_bbox'
    plt = _plot.pyplot(fname)
    bbox = numpy.asarray(bbox)
    if bbox.size == 0:
        bbox = bbox.reshape(0, 4)
    if bbox.ndim != 2 or bbox.shape[1] != 4:
        raise ValueError(
            '{}: bbox must be boxes of shape (R, 4), got shape {}'.format(
                fname, bbox.shape))
    label, score = _plot.instance_vectors(fname, len(bbox), label, score,
                                          label_names)
    ax = _plot.axes(plt, ax)
    _plot.draw_image(fname, img, ax)
    colors = _plot.instance_colors(fname, instance_colors, len(bbox),
                                   numpy.array([[255., 0., 0.]]))
    for i in _plot.drawing_order(score, sort_by_score, len(bbox)):
        y_min, x_min, y_max, x_max = bbox[i]
        ax.add_patch(plt.Rectangle(
            (x_min, y_min), x_max - x_min, y_max - y_min, fill=False,
            edgecolor=colors[i], linewidth=linewidth, alpha=alpha))
        _plot.draw_caption(ax, x_min, y_min,
                           _plot.caption(i, label, score, label_names))
    return ax
