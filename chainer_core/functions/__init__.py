"""Differentiable functions (Chainer's ``chainer.functions``).

Each category package lists its public functions; they are all re-exported
here, as in Chainer.
"""
from chainer_core.functions.activation import *  # NOQA
from chainer_core.functions.array import *  # NOQA
from chainer_core.functions.connection import *  # NOQA
from chainer_core.functions.evaluation import *  # NOQA
from chainer_core.functions.loss import *  # NOQA
from chainer_core.functions.math import *  # NOQA
from chainer_core.functions.noise import *  # NOQA
from chainer_core.functions.normalization import *  # NOQA
from chainer_core.functions.pooling import *  # NOQA
from chainer_core.functions.math.basic_math import (  # NOQA
    install_variable_arithmetics as _install)

_install()
