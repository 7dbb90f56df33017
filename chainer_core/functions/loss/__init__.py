from chainer_core.functions.loss.mean_squared_error import (  # NOQA
    mean_squared_error)
from chainer_core.functions.loss.softmax_cross_entropy import (  # NOQA
    softmax_cross_entropy)
