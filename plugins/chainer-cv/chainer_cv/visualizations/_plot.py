"""What the vis functions share: the optional matplotlib, the axes, the
checks of their arguments, and the colours and captions of instances."""
import numpy


def pyplot(fname):
    """``matplotlib.pyplot``, or an ImportError telling how to get it.

    Imported when a function is called, not with the package, so that
    importing chainer_cv needs no matplotlib and a backend chosen after
    it (``matplotlib.use('Agg')``) still applies.
    """
    try:
        from matplotlib import pyplot
    except ImportError as e:
        raise ImportError(
            '{} needs matplotlib, which is not installed; install it with '
            '`pip install chainer-core-cv[plot]`'.format(fname)) from e
    return pyplot


def axes(plt, ax):
    # A new figure goes through pyplot so that scripts written for
    # ChainerCV, which end with plt.show() or plt.savefig(), find it.
    if ax is None:
        ax = plt.figure().add_subplot(1, 1, 1)
    return ax


def draw_image(fname, img, ax):
    """Draw a CHW RGB image (float in [0, 255]) on ``ax``; None draws
    nothing. Returns the image's ``(H, W)`` or None."""
    if img is None:
        return None
    img = numpy.asarray(img)
    if img.ndim != 3 or img.shape[0] not in (1, 3):
        raise ValueError(
            '{}: img must be a CHW image with 1 or 3 channels, got shape '
            '{}'.format(fname, img.shape))
    pixels = numpy.clip(img, 0, 255).astype(numpy.uint8).transpose(1, 2, 0)
    if img.shape[0] == 1:
        ax.imshow(pixels[:, :, 0], cmap='gray', vmin=0, vmax=255)
    else:
        ax.imshow(pixels)
    return img.shape[1:]


def instance_vectors(fname, n, label, score, label_names):
    """Validated ``label`` and ``score`` of ``n`` instances (None stays
    None); every label has a name when ``label_names`` is given."""
    if label is not None:
        label = numpy.asarray(label)
        _check_length(fname, 'label', label, n)
        if label_names is not None:
            outside = (label < 0) | (label >= len(label_names))
            if outside.any():
                i = int(numpy.flatnonzero(outside)[0])
                raise ValueError(
                    '{}: label[{}] is {}, which has no name: label_names '
                    'names labels 0 to {}'.format(
                        fname, i, label[i], len(label_names) - 1))
    if score is not None:
        score = numpy.asarray(score)
        _check_length(fname, 'score', score, n)
    return label, score


def _check_length(fname, name, array, n):
    if array.shape != (n,):
        raise ValueError(
            '{}: {} must have one entry per instance, the shape ({},), got '
            'shape {}'.format(fname, name, n, array.shape))


def drawing_order(score, sort_by_score, n):
    """Instances by increasing score when sorting, so that the most
    confident are drawn last, on top."""
    if sort_by_score and score is not None:
        return numpy.argsort(score, kind='stable')
    return numpy.arange(n)


def instance_colors(fname, colors, n, default):
    """``(n, 3)`` RGB in [0, 1] from ``colors`` (``(N, 3)`` in [0, 255],
    repeated when ``N < n``), or from ``default`` when None."""
    colors = default if colors is None else numpy.asarray(colors)
    if colors.ndim != 2 or colors.shape[1] != 3 or len(colors) == 0:
        raise ValueError(
            '{}: instance_colors must be RGB colours of shape (N, 3) with '
            'N >= 1, got shape {}'.format(fname, colors.shape))
    return colors[numpy.arange(n) % len(colors)] / 255.


def caption(i, label, score, label_names):
    """``'<name>: <score>'`` of instance ``i``, with what is known."""
    parts = []
    if label is not None:
        parts.append(str(label_names[label[i]]) if label_names is not None
                     else str(label[i]))
    if score is not None:
        parts.append('{:.2f}'.format(score[i]))
    return ': '.join(parts)


def draw_caption(ax, x, y, text):
    if text:
        ax.text(x, y, text, style='italic',
                bbox={'facecolor': 'white', 'alpha': 0.5, 'pad': 0})
