"""Cases of array manipulation."""
import numpy

import chainer_core.functions as F

from . import Floats, Mask, case

# -- array manipulation

for _id, _src, _dst in (('flat', (2, 3, 4), (24,)),
                        ('merge', (2, 3, 4), (6, 4)),
                        ('infer', (2, 3, 4), (4, -1, 2)),
                        ('infer-1d', (2, 3, 4), (-1,)),
                        ('add-axes', (3, 4), (2, 1, 6)),
                        ('to-0dim', (1,), ())):
    case('reshape-' + _id, (Floats(_src),),
         lambda x, s=_dst: F.reshape(x, s),
         lambda x, s=_dst: numpy.reshape(x, s))

for _id, _shape, _axes in (('reverse', (2, 3, 4), None),
                           ('perm', (2, 3, 4), (1, 0, 2)),
                           ('perm-neg', (2, 3, 4), (-1, 0, 1)),
                           ('2d', (3, 4), None),
                           ('identity', (3, 4), (0, 1))):
    case('transpose-' + _id, (Floats(_shape),),
         lambda x, a=_axes: F.transpose(x, a),
         lambda x, a=_axes: numpy.transpose(x, a))

for _id, _src, _dst in (('new-lead', (4,), (3, 4)),
                        ('inner-and-lead', (3, 1), (2, 3, 4)),
                        ('from-0dim', (), (2, 3)),
                        ('all-ones', (1, 1), (3, 4))):
    case('broadcast_to-' + _id, (Floats(_src),),
         lambda x, s=_dst: F.broadcast_to(x, s),
         lambda x, s=_dst: x * numpy.ones(s))

# get_item: the reference is NumPy's indexing of the float64 input; advanced
# indices repeat positions so that the gradient must accumulate them.
_all = slice(None)
for _id, _shape, _index in (
        ('int', (3, 4), 1),
        ('int-neg-to-0dim', (3, 4), (-1, 2)),
        ('slice', (3, 4), slice(1, 3)),
        ('slice-step', (3, 4), (_all, slice(None, None, 2))),
        ('slice-neg-step', (3, 4), slice(None, None, -1)),
        ('slice-neg-step-bounds', (3, 4), (_all, slice(3, 0, -2))),
        ('newaxis', (3, 4), (None, slice(1, None))),
        ('newaxis-inner', (3, 4), (_all, None)),
        ('ellipsis', (2, 3, 4), (Ellipsis, 1)),
        ('ellipsis-mid', (2, 3, 4), (0, Ellipsis, None, 2)),
        ('int-list-repeated', (3, 4), [0, 2, 2, 0]),
        ('int-lists-pair', (3, 4), ([0, 2, 2], [1, 3, 1])),
        ('int-list-and-slice', (2, 3, 4), (_all, [2, 0, 2], slice(1, 3)))):
    case('get_item-' + _id, (Floats(_shape),),
         lambda x, i=_index: F.get_item(x, i),
         lambda x, i=_index: numpy.asarray(x[i]))
case('get_item-int-array', (Floats((3, 4)),),
     lambda x, idx: F.get_item(x, (_all, idx)),
     lambda x, idx: x[:, idx],
     consts={'idx': numpy.array([[3, 0], [3, 3]], dtype=numpy.int32)})
case('get_item-bool-mask', (Floats((3, 4)),),
     lambda x, mask: F.get_item(x, mask), lambda x, mask: x[mask],
     consts={'mask': Mask((3, 4))})
case('get_item-bool-mask-axis0', (Floats((4, 3)),),
     lambda x, mask: F.get_item(x, mask), lambda x, mask: x[mask],
     consts={'mask': Mask((4,))})


