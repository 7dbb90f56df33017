"""Argument checks shared by the explorers."""
import numbers


def check_probability(value, name, where):
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError('{}: {} must be a number in [0, 1], got {}'
                        .format(where, name, type(value).__name__))
    if not 0.0 <= value <= 1.0:
        raise ValueError('{}: {} must be in [0, 1], got {}'
                         .format(where, name, value))
    return float(value)


def check_callable(value, name, where):
    if not callable(value):
        raise TypeError('{}: {} must be callable, got {}'
                        .format(where, name, type(value).__name__))
    return value
