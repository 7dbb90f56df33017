"""Means that skip undefined (NaN) entries."""
import numpy


def nanmean(values):
    """The mean of the non-NaN entries; NaN, without a warning, if none."""
    values = numpy.asarray(values, dtype=numpy.float64)
    valid = values[~numpy.isnan(values)]
    return float(valid.mean()) if len(valid) else numpy.nan
