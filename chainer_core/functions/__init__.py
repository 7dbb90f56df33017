"""Differentiable functions (Chainer's ``chainer.functions``)."""
from chainer_core.functions.activation.log_softmax import log_softmax  # NOQA
from chainer_core.functions.activation.relu import relu  # NOQA
from chainer_core.functions.activation.sigmoid import sigmoid  # NOQA
from chainer_core.functions.activation.softmax import softmax  # NOQA
from chainer_core.functions.activation.tanh import tanh  # NOQA
from chainer_core.functions.array.broadcast import broadcast_to  # NOQA
from chainer_core.functions.array.get_item import get_item  # NOQA
from chainer_core.functions.array.reshape import reshape  # NOQA
from chainer_core.functions.array.transpose import transpose  # NOQA
from chainer_core.functions.connection.linear import linear  # NOQA
from chainer_core.functions.loss.mean_squared_error import (  # NOQA
    mean_squared_error)
from chainer_core.functions.loss.softmax_cross_entropy import (  # NOQA
    softmax_cross_entropy)
from chainer_core.functions.math.basic_math import (  # NOQA
    add, div, install_variable_arithmetics, mul, neg, pow, sub)
from chainer_core.functions.math.exponential import exp, log  # NOQA
from chainer_core.functions.math.matmul import matmul  # NOQA
from chainer_core.functions.math.sum import sum, sum_to  # NOQA

install_variable_arithmetics()
del install_variable_arithmetics
