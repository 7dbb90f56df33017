import numpy


def generate_anchor_base(base_size=16, ratios=(0.5, 1, 2),
                         anchor_scales=(8, 16, 32)):
    """The anchors of one feature-map cell, centred on the cell's centre.

    There is one anchor per (ratio, scale) pair, ratios outermost: an
    anchor of ratio :math:`r` (height over width) and scale :math:`s` has
    height :math:`b s \\sqrt{r}` and width :math:`b s / \\sqrt{r}`, where
    :math:`b` is ``base_size``, and is centred at
    :math:`(b / 2, b / 2)`.

    Args:
        base_size (number): Side of the reference box (the stride of the
            feature map).
        ratios (sequence of floats): Height-to-width ratios.
        anchor_scales (sequence of numbers): Sides as multiples of
            ``base_size``.

    Returns:
        numpy.ndarray: :math:`(len(ratios) \\cdot len(anchor\\_scales), 4)`
        ``float32`` boxes :math:`(y_{min}, x_{min}, y_{max}, x_{max})`.
    """
    centre = base_size / 2.
    ratio = numpy.asarray(ratios, dtype=numpy.float64)[:, None]
    scale = numpy.asarray(anchor_scales, dtype=numpy.float64)[None, :]
    half_h = (base_size * scale * numpy.sqrt(ratio) / 2.).ravel()
    half_w = (base_size * scale * numpy.sqrt(1. / ratio) / 2.).ravel()
    return numpy.stack((centre - half_h, centre - half_w,
                        centre + half_h, centre + half_w),
                       axis=1).astype(numpy.float32)
