"""Bad input of noise functions."""
import chainer_core.functions as F

from . import AXIS, bad, f64, i32, _op

DROPOUT = _op('Dropout', 'dropout')
GAUSSIAN = _op('Gaussian', 'gaussian')
GUMBEL = _op('gumbel_softmax', 'gumbel_softmax')
DROPCONNECT = _op('SimplifiedDropconnect', 'simplified_dropconnect')
ZONEOUT = _op('Zoneout', 'zoneout')

bad('dropout-int', lambda m: F.dropout(m((3, 4), i32)), DROPOUT, ('x',))
bad('dropout-ratio', lambda m: F.dropout(m((3, 4)), 1.0), DROPOUT,
    ('ratio',))
bad('dropout-ratio-negative', lambda m: F.dropout(m((3, 4)), -0.1), DROPOUT,
    ('ratio',))
bad('dropout-mask-shape',
    lambda m: F.dropout(m((3, 4)), mask=m((4, 3))), DROPOUT, ('mask',))
bad('dropout-kwarg', lambda m: F.dropout(m((3, 4)), masks=None), DROPOUT,
    ('masks',))

bad('gaussian-int', lambda m: F.gaussian(m((3,), i32), m((3,), i32)),
    GAUSSIAN, ('mean',))
bad('gaussian-ln_var-shape', lambda m: F.gaussian(m((3,)), m((4,))),
    GAUSSIAN, ('ln_var',))
bad('gaussian-ln_var-dtype', lambda m: F.gaussian(m((3,)), m((3,), f64)),
    GAUSSIAN, ('ln_var',))
bad('gaussian-eps-shape',
    lambda m: F.gaussian(m((3,)), m((3,)), eps=m((2,))), GAUSSIAN, ('eps',))

bad('gumbel_softmax-int', lambda m: F.gumbel_softmax(m((3, 4), i32)),
    GUMBEL, ('log_pi',))
bad('gumbel_softmax-tau', lambda m: F.gumbel_softmax(m((3, 4)), tau=0.0),
    GUMBEL, ('tau',))
bad('gumbel_softmax-axis', lambda m: F.gumbel_softmax(m((3, 4)), axis=2),
    GUMBEL, AXIS)
bad('gumbel_softmax-axis-type',
    lambda m: F.gumbel_softmax(m((3, 4)), axis=(0,)), GUMBEL, AXIS)

bad('simplified_dropconnect-W-shape',
    lambda m: F.simplified_dropconnect(m((4, 3)), m((2, 4))), DROPCONNECT,
    ('W',))
bad('simplified_dropconnect-W-dtype',
    lambda m: F.simplified_dropconnect(m((4, 3)), m((2, 3), i32)),
    DROPCONNECT, ('W',))
bad('simplified_dropconnect-b-shape',
    lambda m: F.simplified_dropconnect(m((4, 3)), m((2, 3)), m((3,))),
    DROPCONNECT, ('b',))
bad('simplified_dropconnect-mask-shape',
    lambda m: F.simplified_dropconnect(m((4, 3)), m((2, 3)),
                                       mask=m((5, 2, 3))),
    DROPCONNECT, ('mask',))
bad('simplified_dropconnect-ratio',
    lambda m: F.simplified_dropconnect(m((4, 3)), m((2, 3)), ratio=1.0),
    DROPCONNECT, ('ratio',))

bad('zoneout-shape', lambda m: F.zoneout(m((3, 4)), m((4, 3))), ZONEOUT,
    ('h', 'x'))
bad('zoneout-dtype', lambda m: F.zoneout(m((3, 4), f64), m((3, 4))),
    ZONEOUT, ('h', 'x'))
bad('zoneout-ratio', lambda m: F.zoneout(m((3, 4)), m((3, 4)), 1.5),
    ZONEOUT, ('ratio',))
bad('zoneout-train', lambda m: F.zoneout(m((3, 4)), m((3, 4)), train=True),
    ZONEOUT, ('train',))
