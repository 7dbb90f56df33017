"""Validation of the sizes given to link constructors."""
import numbers

import numpy


def check_size(link, arg, value, allow_none=False, allow_zero=True):
    """``value`` as a Python int, for the argument ``arg`` of the link
    named ``link``; NumPy integers are accepted (sizes often come from
    arrays), floats, bools and negative numbers are refused."""
    if value is None and allow_none:
        return None
    if isinstance(value, (bool, numpy.bool_)) or \
            not isinstance(value, numbers.Integral):
        raise TypeError('{}: {} must be an int{}, got {!r} ({})'.format(
            link, arg, ' or None' if allow_none else '', value,
            type(value).__name__))
    value = int(value)
    if value < 0 or (value == 0 and not allow_zero):
        raise ValueError('{}: {} must be {}, got {}'.format(
            link, arg, 'non-negative' if allow_zero else 'positive', value))
    return value


def check_bias_size(name, b, size):
    """from_params: the bias must have one element per output."""
    if b is not None and b.size != size:
        raise ValueError('{}.from_params: b must have {} elements (one per '
                         'output of W), got shape {}'.format(
                             name, size, b.shape))
