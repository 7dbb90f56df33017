"""Cases of connections."""
import numpy

import chainer_core.functions as F

from . import Floats, case, f16

# -- connection

def _linear_ref(x, W, b=None, n_batch_axes=1):
    rows = x.reshape(x.shape[:n_batch_axes] + (-1,))
    y = numpy.einsum('...i,oi->...o', rows, W)
    return y if b is None else y + b


case('linear', (Floats((4, 3)), Floats((2, 3)), Floats((2,))),
     F.linear, _linear_ref, fwd={f16: dict(atol=3e-3)})
case('linear-nobias', (Floats((4, 3)), Floats((2, 3))),
     F.linear, _linear_ref, fwd={f16: dict(atol=3e-3)})
case('linear-flatten', (Floats((4, 2, 3)), Floats((2, 6)), Floats((2,))),
     F.linear, _linear_ref, fwd={f16: dict(atol=5e-3)})
case('linear-n_batch_axes2',
     (Floats((2, 3, 4)), Floats((5, 4)), Floats((5,))),
     lambda x, W, b: F.linear(x, W, b, n_batch_axes=2),
     lambda x, W, b: _linear_ref(x, W, b, 2), fwd={f16: dict(atol=3e-3)})
case('linear-n_batch_axes2-nobias', (Floats((2, 3, 2, 2)), Floats((3, 4))),
     lambda x, W: F.linear(x, W, n_batch_axes=2),
     lambda x, W: _linear_ref(x, W, None, 2), fwd={f16: dict(atol=3e-3)})


