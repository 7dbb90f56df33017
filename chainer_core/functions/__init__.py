"""Differentiable functions (Chainer's ``chainer.functions``)."""
from chainer_core.functions.activation.relu import relu  # NOQA
from chainer_core.functions.array.broadcast import broadcast_to  # NOQA
from chainer_core.functions.array.reshape import reshape  # NOQA
from chainer_core.functions.math.basic_math import (  # NOQA
    add, div, install_variable_arithmetics, mul, neg, pow, sub)
from chainer_core.functions.math.exponential import exp, log  # NOQA
from chainer_core.functions.math.sum import sum, sum_to  # NOQA

install_variable_arithmetics()
del install_variable_arithmetics
