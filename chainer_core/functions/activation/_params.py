"""Validation of the Python parameters of activations (shared)."""
import numbers


def real(value, op, name):
    """``value`` as a float; a TypeError naming ``op`` and ``name`` unless
    it is a real number (bools are refused: they are never meant)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError('{}: {} must be a real number, got {!r}'.format(
            op, name, value))
    return float(value)


def integer(value, op, name):
    """``value`` as an int; a TypeError naming ``op`` and ``name`` unless it
    is an integer (bools are refused)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError('{}: {} must be an int, got {!r}'.format(
            op, name, value))
    return int(value)


def extended_shape(param_shape, x_ndim):
    """The shape a parameter of ``param_shape`` (matching ``x.shape[1:]``'s
    leading axes) takes to broadcast against ``x``: batch axis and trailing
    axes of size 1."""
    return (1,) + tuple(param_shape) + (1,) * (x_ndim - len(param_shape) - 1)


def reduction_axes(param_ndim, x_ndim):
    """The axes of ``x`` a parameter was broadcast along."""
    return (0,) + tuple(range(1 + param_ndim, x_ndim))
