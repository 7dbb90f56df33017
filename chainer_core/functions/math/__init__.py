from chainer_core.functions.math.absolute import absolute  # NOQA
from chainer_core.functions.math.average import average, mean  # NOQA
from chainer_core.functions.math.basic_math import (  # NOQA
    add, div, mul, neg, pow, sub)
from chainer_core.functions.math.bias import bias  # NOQA
from chainer_core.functions.math.ceil import ceil  # NOQA
from chainer_core.functions.math.clip import clip  # NOQA
from chainer_core.functions.math.cumprod import cumprod  # NOQA
from chainer_core.functions.math.cumsum import cumsum  # NOQA
from chainer_core.functions.math.det import batch_det, det  # NOQA
from chainer_core.functions.math.digamma import digamma  # NOQA
from chainer_core.functions.math.einsum import einsum  # NOQA
from chainer_core.functions.math.erf import erf  # NOQA
from chainer_core.functions.math.erfc import erfc  # NOQA
from chainer_core.functions.math.erfinv import erfinv  # NOQA
from chainer_core.functions.math.exponential import (  # NOQA
    exp, log, log10, log2)
from chainer_core.functions.math.exponential_m1 import expm1  # NOQA
from chainer_core.functions.math.fix import fix  # NOQA
from chainer_core.functions.math.floor import floor  # NOQA
from chainer_core.functions.math.fmod import fmod  # NOQA
from chainer_core.functions.math.hyperbolic import cosh, sinh  # NOQA
from chainer_core.functions.math.inv import batch_inv, inv  # NOQA
from chainer_core.functions.math.lgamma import lgamma  # NOQA
from chainer_core.functions.math.linear_interpolate import (  # NOQA
    linear_interpolate)
from chainer_core.functions.math.logarithm_1p import log1p  # NOQA
from chainer_core.functions.math.logsumexp import logsumexp  # NOQA
from chainer_core.functions.math.matmul import batch_matmul, matmul  # NOQA
from chainer_core.functions.math.maximum import maximum  # NOQA
from chainer_core.functions.math.minimum import minimum  # NOQA
from chainer_core.functions.math.minmax import (  # NOQA
    argmax, argmin, max, min)
from chainer_core.functions.math.polygamma import polygamma  # NOQA
from chainer_core.functions.math.prod import prod  # NOQA
from chainer_core.functions.math.scale import scale  # NOQA
from chainer_core.functions.math.sign import sign  # NOQA
from chainer_core.functions.math.sparse_matmul import sparse_matmul  # NOQA
from chainer_core.functions.math.sqrt import rsqrt, sqrt  # NOQA
from chainer_core.functions.math.square import square  # NOQA
from chainer_core.functions.math.squared_difference import (  # NOQA
    squared_difference)
from chainer_core.functions.math.sum import sum, sum_to  # NOQA
from chainer_core.functions.math.tensordot import tensordot  # NOQA
from chainer_core.functions.math.trigonometric import (  # NOQA
    arccos, arcsin, arctan, arctan2, cos, sin, tan)
from chainer_core.functions.math.identity import identity  # NOQA
