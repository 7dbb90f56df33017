"""Chainer's module path of the N-dimensional pooling base class; this
module names the N-dimensional pooling nodes under it."""
from chainer_core.functions.pooling.average_pooling_nd import (  # NOQA
    AveragePoolingND)
from chainer_core.functions.pooling.max_pooling_nd import MaxPoolingND  # NOQA
