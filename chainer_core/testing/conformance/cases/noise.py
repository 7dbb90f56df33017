"""Cases of noise functions. The noise is passed in where the function
takes it (mask=, eps=) or made irrelevant, so that every call computes the
same function and gradients can be checked; the statistics of drawn noise
are tested in tests/functions/noise."""
import numpy

import chainer_core.functions as F
from chainer_core.functions.noise.gumbel_softmax import perturbed_softmax

from . import Floats, Mask, case


class ScaledMask:
    """A dropout mask: 0 or ``1 / (1 - ratio)``, both present."""

    def __init__(self, shape, ratio):
        self.shape, self.ratio = shape, ratio

    def make(self, rng, dtype):
        keep = Mask(self.shape).make(rng, dtype)
        return (keep / (1.0 - self.ratio)).astype(dtype)


class Gumbel:
    """Standard Gumbel samples of the dtype under test."""

    def __init__(self, shape):
        self.shape = shape

    def make(self, rng, dtype):
        return rng.gumbel(size=self.shape).astype(dtype)


# -- dropout

case('dropout-mask', (Floats((3, 4)),),
     lambda x, mask: F.dropout(x, 0.25, mask=mask),
     lambda x, mask: x * mask, consts=dict(mask=ScaledMask((3, 4), 0.25)))
case('dropout-mask-3d', (Floats((2, 3, 4)),),
     lambda x, mask: F.dropout(x, mask=mask),
     lambda x, mask: x * mask, consts=dict(mask=ScaledMask((2, 3, 4), 0.5)))
# ratio 0 keeps every element with scale 1, whatever is drawn.
case('dropout-ratio0', (Floats((3, 4)),), lambda x: F.dropout(x, 0.0),
     lambda x: x)


# -- gaussian

case('gaussian-eps', (Floats((3, 4)), Floats((3, 4), -1.0, 1.0)),
     lambda m, v, eps: F.gaussian(m, v, eps=eps),
     lambda m, v, eps: m + numpy.exp(v / 2) * eps,
     consts=dict(eps=Floats((3, 4), -2.0, 2.0)))


# -- gumbel_softmax: the softmax of the perturbed scores for given noise,
# and the public function through a property that holds for any noise.

def _softmax_ref(z, axis):
    e = numpy.exp(z - z.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


for _id, _shape, _tau, _axis in (('', (3, 4), 0.5, 1),
                                 ('-axis0-tau2', (3, 4), 2.0, 0),
                                 ('-3d', (2, 3, 2), 1.0, -1)):
    case('gumbel_softmax-noise' + _id, (Floats(_shape),),
         lambda x, g, t=_tau, a=_axis: perturbed_softmax(x, g, t, a),
         lambda x, g, t=_tau, a=_axis: _softmax_ref((x + g) / t, a),
         consts=dict(g=Gumbel(_shape)))
case('gumbel_softmax-sums-to-one', (Floats((3, 4)),),
     lambda x: F.sum(F.gumbel_softmax(x, tau=0.5), axis=1),
     lambda x: numpy.ones(3))


# -- simplified_dropconnect, with given masks

def _dropconnect_ref(x, W, b=None, mask=None, ratio=0.5):
    x = x.reshape(len(x), -1)
    w = W * mask / (1 - ratio)
    if w.ndim == 3:
        y = numpy.einsum('ijk,ik->ij', w, x)
    else:
        y = x.dot(w.T)
    return y if b is None else y + b


case('simplified_dropconnect-batchwise',
     (Floats((4, 3)), Floats((2, 3)), Floats((2,))),
     lambda x, W, b, mask: F.simplified_dropconnect(x, W, b, mask=mask),
     lambda x, W, b, mask: _dropconnect_ref(x, W, b, mask),
     consts=dict(mask=Mask((4, 2, 3))))
case('simplified_dropconnect-shared-nobias',
     (Floats((4, 3)), Floats((2, 3))),
     lambda x, W, mask: F.simplified_dropconnect(x, W, ratio=0.25,
                                                 mask=mask),
     lambda x, W, mask: _dropconnect_ref(x, W, None, mask, 0.25),
     consts=dict(mask=Mask((2, 3))))
case('simplified_dropconnect-3d-x',
     (Floats((3, 2, 2)), Floats((5, 4)), Floats((5,))),
     lambda x, W, b, mask: F.simplified_dropconnect(x, W, b, mask=mask),
     lambda x, W, b, mask: _dropconnect_ref(x, W, b, mask),
     consts=dict(mask=Mask((3, 5, 4))))
case('simplified_dropconnect-test-mode',
     (Floats((4, 3)), Floats((2, 3)), Floats((2,))),
     lambda x, W, b: F.simplified_dropconnect(x, W, b, train=False),
     lambda x, W, b: x.dot(W.T) + b)


# -- zoneout: ratio 0 keeps x, ratio 1 keeps h, and h == x gives x whatever
# is drawn.

case('zoneout-ratio0', (Floats((3, 4)), Floats((3, 4))),
     lambda h, x: F.zoneout(h, x, 0.0), lambda h, x: x)
case('zoneout-ratio1', (Floats((3, 4)), Floats((3, 4))),
     lambda h, x: F.zoneout(h, x, 1.0), lambda h, x: h)
case('zoneout-same', (Floats((2, 3, 4)),),
     lambda a: F.zoneout(a, a), lambda a: a)
