import numpy

from chainer_cv.utils.testing._require import require, require_array


def assert_is_point(point, visible=None, size=None, n_point=None):
    """Check that ``point`` holds points as ChainerCV defines them.

    A ``float32`` :class:`numpy.ndarray` of shape :math:`(R, K, 2)`,
    :math:`(y, x)`: :math:`K` points for each of :math:`R` instances.

    Args:
        point: The value to check.
        visible: Boolean array of shape :math:`(R, K)` telling which
            points are visible, or :obj:`None`.
        size (tuple): ``(H, W)`` of the image; the visible points must lie
            inside it. :obj:`None` skips that check.
        n_point (int): The expected :math:`K`, or :obj:`None`.

    Raises:
        AssertionError: ``point`` (or ``visible``) is not as described.

    .. admonition:: Example

        >>> assert_is_point(numpy.zeros((1, 5, 2), numpy.float32), size=(4, 4))
    """
    require_array(point, 'point', numpy.float32, ndim=3)
    require(point.shape[2] == 2, 'point must have shape (R, K, 2); got {}',
            point.shape)
    if n_point is not None:
        require(point.shape[1] == n_point, 'point must hold {} points per '
                'instance; got shape {}', n_point, point.shape)
    if visible is not None:
        require_array(visible, 'visible', numpy.bool_)
        require(visible.shape == point.shape[:2], 'visible must have shape '
                '{}; got {}', point.shape[:2], visible.shape)
    if size is not None:
        shown = point if visible is None else point[visible]
        shown = shown.reshape(-1, 2)
        require(((shown >= 0) & (shown <= numpy.asarray(size))).all(),
                'point must lie inside an image of size {}', tuple(size))
