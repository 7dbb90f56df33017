"""Cases of activations."""
import numpy

import chainer_core.functions as F

from . import Floats, Signed, case, f16

# -- activations

case('relu', (Signed((3, 4), 0.1, 1.0),), F.relu,
     lambda x: numpy.where(x > 0, x, 0.0))
case('relu-3d', (Signed((2, 3, 4), 0.1, 1.0),), F.relu,
     lambda x: numpy.where(x > 0, x, 0.0))
case('sigmoid', (Floats((3, 4), -3.0, 3.0),), F.sigmoid,
     lambda x: 1.0 / (1.0 + numpy.exp(-x)))
case('tanh', (Floats((3, 4), -2.0, 2.0),), F.tanh,
     lambda x: (1.0 - numpy.exp(-2 * x)) / (1.0 + numpy.exp(-2 * x)))


def _log_softmax_ref(x, axis):
    shifted = x - x.max(axis=axis, keepdims=True)
    return shifted - numpy.log(numpy.exp(shifted).sum(axis=axis,
                                                      keepdims=True))


for _id, _shape, _axis in (('', (3, 4), 1), ('-axis0', (3, 4), 0),
                           ('-3d-neg-axis', (2, 3, 4), -1)):
    case('softmax' + _id, (Floats(_shape, -2.0, 2.0),),
         lambda x, a=_axis: F.softmax(x, axis=a),
         lambda x, a=_axis: numpy.exp(_log_softmax_ref(x, a)))
    case('log_softmax' + _id, (Floats(_shape, -2.0, 2.0),),
         lambda x, a=_axis: F.log_softmax(x, axis=a),
         lambda x, a=_axis: _log_softmax_ref(x, a),
         fwd={f16: dict(atol=3e-3)})


