def _make_divisible(value, divisor, min_value=None):
    """``value`` rounded to a multiple of ``divisor`` (at least
    ``min_value``), never more than 10% below ``value``: TensorFlow's
    rule for the channels of MobileNet."""
    if min_value is None:
        min_value = divisor
    rounded = max(min_value, int(value + divisor / 2) // divisor * divisor)
    if rounded < 0.9 * value:
        rounded += divisor
    return rounded


def expand_input_by_factor(n, divisible_by=8):
    """An ``expansion_size`` of :class:`ExpandedConv2D`: ``n`` times the
    input channels, made divisible by ``divisible_by``."""
    return lambda num_inputs, **_: _make_divisible(num_inputs * n,
                                                   divisible_by)
