"""spatial_transformer_grid: the sampling grid of an affine spatial
transformer (Jaderberg et al., 2015).

The grid is linear in ``theta``: it is a matrix product with the constant
homogeneous coordinates of the output pixels, so its gradients (of any
order) are those of :func:`matmul`.
"""
import numbers

import numpy


def _base(xp, output_shape, dtype):
    """(3, H * W): the normalized (x, y, 1) of every output pixel, x and y
    running over [-1, 1], row-major."""
    h, w = output_shape
    ys, xs = numpy.meshgrid(numpy.linspace(-1, 1, h),
                            numpy.linspace(-1, 1, w), indexing='ij')
    base = numpy.stack([xs.ravel(), ys.ravel(), numpy.ones(h * w)])
    return xp.asarray(base.astype(dtype))


def spatial_transformer_grid(theta, output_shape, **kwargs):
    """The points where an affine spatial transformer samples its input.

    For each output pixel with normalized coordinates
    :math:`(x^t, y^t) \\in [-1, 1]^2` (``linspace(-1, 1, W)`` and
    ``linspace(-1, 1, H)``), the source point is

    .. math::
        \\begin{pmatrix} x^s \\\\ y^s \\end{pmatrix} =
        \\theta \\begin{pmatrix} x^t \\\\ y^t \\\\ 1 \\end{pmatrix}

    in the same normalized coordinates of the input; pass the result to
    :func:`spatial_transformer_sampler`.

    Args:
        theta (Variable or array): affine matrices of shape ``(N, 2, 3)``.
        output_shape (pair of ints): the ``(H, W)`` of the grid.

    Returns:
        Variable of shape ``(N, 2, H, W)`` and the dtype of ``theta``:
        channel 0 holds :math:`x^s`, channel 1 :math:`y^s`.

    .. admonition:: Example

        >>> theta = np.array([[[1, 0, 0], [0, 1, 0]]], 'f')
        >>> F.spatial_transformer_grid(theta, (2, 3)).array[0, 0]
        array([[-1.,  0.,  1.],
               [-1.,  0.,  1.]], dtype=float32)
    """
    from chainer_core.backend import get_array_module
    from chainer_core.functions.array.reshape import reshape
    from chainer_core.functions.math.matmul import matmul
    if 'use_cudnn' in kwargs:
        raise ValueError('spatial_transformer_grid: use_cudnn is not '
                         'supported anymore; use chainer_core.using_config('
                         '"use_cudnn", ...)')
    if kwargs:
        raise TypeError('spatial_transformer_grid: unexpected keyword '
                        'arguments {}'.format(sorted(kwargs)))
    if not hasattr(theta, 'dtype'):
        raise TypeError('spatial_transformer_grid: theta must be a Variable '
                        'or an array, got {}'.format(type(theta).__name__))
    if theta.dtype.kind != 'f' or len(theta.shape) != 3 or \
            theta.shape[1:] != (2, 3):
        raise TypeError('spatial_transformer_grid: theta must be a float '
                        'array of shape (N, 2, 3), got {} of shape {}'.format(
                            theta.dtype, tuple(theta.shape)))
    if not (isinstance(output_shape, (tuple, list)) and
            len(output_shape) == 2 and all(
                isinstance(v, numbers.Integral) and not isinstance(v, bool)
                and v > 0 for v in output_shape)):
        raise ValueError('spatial_transformer_grid: output_shape must be a '
                         'pair of positive ints, got {!r}'.format(
                             output_shape))
    base = _base(get_array_module(theta), output_shape, theta.dtype)
    grid = matmul(theta, base)
    return reshape(grid, (theta.shape[0], 2) + tuple(output_shape))
