"""Drawing keypoints."""
import numpy

from chainer_cv.visualizations import _plot


def vis_point(img, point, visible=None, ax=None):
    """Draw the keypoints of instances, one colour per kind of keypoint.

    Args:
        img (numpy.ndarray): a CHW RGB image; None draws points only.
        point (numpy.ndarray): ``(R, K, 2)`` coordinates ``(y, x)`` of the
            ``K`` keypoints of ``R`` instances.
        visible (numpy.ndarray): ``(R, K)`` bool, whether each keypoint is
            visible; invisible ones are not drawn. None: all are.
        ax (matplotlib.axes.Axes): where to draw; None creates a figure.

    Returns:
        matplotlib.axes.Axes: the axes drawn on.
    """
    fname = 'vis_point'
    plt = _plot.pyplot(fname)
    point = numpy.asarray(point)
    if point.ndim != 3 or point.shape[2] != 2:
        raise ValueError(
            '{}: point must be keypoints of shape (R, K, 2), got shape '
            '{}'.format(fname, point.shape))
    n_inst, n_point = point.shape[:2]
    if visible is None:
        visible = numpy.ones((n_inst, n_point), dtype=bool)
    visible = numpy.asarray(visible)
    if visible.shape != (n_inst, n_point) or visible.dtype != numpy.bool_:
        raise ValueError(
            '{}: visible must be bool of shape {}, got {} of shape '
            '{}'.format(fname, (n_inst, n_point), visible.dtype,
                        visible.shape))
    ax = _plot.axes(plt, ax)
    size = _plot.draw_image(fname, img, ax)
    from matplotlib import colormaps
    colors = colormaps['hsv'](numpy.arange(n_point) / max(n_point, 1))
    for pts, shown in zip(point, visible):
        ax.scatter(pts[shown, 1], pts[shown, 0], c=colors[shown], s=10)
    if size is not None:
        # Scattered points would otherwise widen the limits beyond the
        # image.
        ax.set_xlim(-0.5, size[1] - 0.5)
        ax.set_ylim(size[0] - 0.5, -0.5)
    return ax
