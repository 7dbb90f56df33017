"""Drawing an image."""
from chainer_cv.visualizations import _plot


def vis_image(img, ax=None):
    """Draw an image.

    Args:
        img (numpy.ndarray): a CHW RGB image, values in [0, 255]; None
            draws nothing.
        ax (matplotlib.axes.Axes): where to draw; None creates a figure.

    Returns:
        matplotlib.axes.Axes: the axes drawn on.
    """
    ax = _plot.axes(_plot.pyplot('vis_image'), ax)
    _plot.draw_image('vis_image', img, ax)
    return ax
