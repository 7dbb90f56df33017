"""Drawing a label map."""
import numpy

from chainer_cv.visualizations import _plot
from chainer_cv.visualizations.colormap import voc_colormap


def vis_semantic_segmentation(img, label, label_names=None,
                              label_colors=None, ignore_label_color=(0, 0, 0),
                              alpha=1, all_label_names_in_legend=False,
                              ax=None):
    """Draw a label map over an image, with the handles of a legend.

    Args:
        img (numpy.ndarray): a CHW RGB image; None draws the labels only.
        label (numpy.ndarray): ``(H, W)`` integer labels, ``-1`` for
            pixels without one.
        label_names (sequence of str): the name of each label; every label
            must have one. None: the labels are named by their numbers.
        label_colors (numpy.ndarray): ``(#class, 3)`` RGB colours in
            [0, 255] of the labels; None: :func:`voc_colormap`.
        ignore_label_color (tuple): the RGB colour of the pixels labelled
            ``-1``.
        alpha (float): the opacity of the labels.
        all_label_names_in_legend (bool): a handle for every label, not
            only for those present.
        ax (matplotlib.axes.Axes): where to draw; None creates a figure.

    Returns:
        tuple: the axes drawn on and a list of
        :class:`matplotlib.patches.Patch`, one per label of the legend, to
        pass as ``ax.legend(handles=...)``.
    """
    fname = 'vis_semantic_segmentation'
    plt = _plot.pyplot(fname)
    from matplotlib import patches
    label = numpy.asarray(label)
    if label.ndim != 2 or label.dtype.kind not in 'iu':
        raise ValueError(
            '{}: label must be an integer label map (H, W), got {} of '
            'shape {}'.format(fname, label.dtype, label.shape))
    if label_names is None:
        n_class = max(int(label.max(initial=-1)) + 1, 1)
    else:
        n_class = len(label_names)
        if label.max(initial=-1) >= n_class:
            raise ValueError(
                '{}: label holds {}, which has no name: label_names names '
                'labels 0 to {}'.format(fname, label.max(), n_class - 1))
    if label_colors is None:
        label_colors = voc_colormap(range(n_class))
    label_colors = numpy.asarray(label_colors, dtype=numpy.float64)
    if label_colors.ndim != 2 or label_colors.shape[1] != 3 or \
            len(label_colors) < n_class:
        raise ValueError(
            '{}: label_colors must be RGB colours of shape ({}, 3), one '
            'per label, got shape {}'.format(fname, n_class,
                                             label_colors.shape))
    label_colors = label_colors / 255.

    ax = _plot.axes(plt, ax)
    size = _plot.draw_image(fname, img, ax)
    if size is not None and tuple(size) != label.shape:
        raise ValueError(
            '{}: label must be of the image size {}, got shape {}'.format(
                fname, tuple(size), label.shape))
    canvas = numpy.empty(label.shape + (4,))
    canvas[:, :, :3] = numpy.asarray(ignore_label_color) / 255.
    labelled = label >= 0
    canvas[labelled, :3] = label_colors[label[labelled]]
    canvas[:, :, 3] = alpha
    ax.imshow(canvas)

    if all_label_names_in_legend:
        legend_labels = range(n_class)
    else:
        legend_labels = numpy.unique(label[labelled])
    legend_handles = [
        patches.Patch(color=label_colors[lb],
                      label=str(lb) if label_names is None
                      else label_names[lb])
        for lb in legend_labels]
    return ax, legend_handles
