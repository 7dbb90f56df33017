from chainer_core.functions.noise.dropout import dropout  # NOQA
from chainer_core.functions.noise.gaussian import gaussian  # NOQA
from chainer_core.functions.noise.gumbel_softmax import gumbel_softmax  # NOQA
from chainer_core.functions.noise.simplified_dropconnect import (  # NOQA
    simplified_dropconnect)
from chainer_core.functions.noise.zoneout import zoneout  # NOQA

__all__ = ['dropout', 'gaussian', 'gumbel_softmax', 'simplified_dropconnect',
           'zoneout']
