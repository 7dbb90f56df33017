from chainer_core.functions.math.basic_math import (  # NOQA
    add, div, mul, neg, pow, sub)
from chainer_core.functions.math.exponential import exp, log  # NOQA
from chainer_core.functions.math.matmul import matmul  # NOQA
from chainer_core.functions.math.sum import sum, sum_to  # NOQA
