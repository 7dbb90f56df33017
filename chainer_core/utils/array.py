"""Array helpers used by ops (written against any ``xp``)."""


def sum_to_axes(shape_from, shape_to):
    """Axes to sum (and whether to keep them) to reduce one shape to another.

    Returns ``(lead, axes)``: the number of leading axes to drop and the axes
    of size 1 in ``shape_to`` that were broadcast.
    """
    lead = len(shape_from) - len(shape_to)
    axes = tuple(lead + i for i, s in enumerate(shape_to)
                 if s == 1 and shape_from[lead + i] != 1)
    return lead, axes


def sum_to(x, shape):
    """Sum ``x`` over broadcast axes so that it has ``shape``."""
    if x.shape == shape:
        return x
    lead, axes = sum_to_axes(x.shape, shape)
    y = x.sum(axis=tuple(range(lead)) + axes, keepdims=True)
    if lead:
        y = y.reshape(shape)
    return y
