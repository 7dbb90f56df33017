"""Chainer's module path of the 2-D pooling base class.

Here the 2-D pooling nodes derive from the N-dimensional ones; this
module names them under Chainer's path.
"""
from chainer_core.functions.pooling.average_pooling_2d import (  # NOQA
    AveragePooling2D)
from chainer_core.functions.pooling.max_pooling_2d import MaxPooling2D  # NOQA
