"""Bad input of array ops."""
import numpy

import chainer_core.functions as F

from . import bad, INDEX, _op

bad('reshape-size-mismatch',
        lambda m: F.reshape(m((2, 3)), (4,)), _op('Reshape', 'reshape'),
        ('x', 'shape'))
bad('reshape-infer-impossible',
        lambda m: F.reshape(m((2, 3)), (4, -1)), _op('Reshape', 'reshape'),
        ('x', 'shape'))
bad('reshape-two-unknown',
        lambda m: F.reshape(m((2, 3)), (-1, -1)), _op('Reshape', 'reshape'),
        ('shape',))
bad('transpose-axes-too-short',
        lambda m: F.transpose(m((2, 3, 4)), (1, 0)),
        _op('Transpose', 'transpose'), ('axes',))
bad('transpose-axes-repeated',
        lambda m: F.transpose(m((2, 3, 4)), (0, 0, 1)),
        _op('Transpose', 'transpose'), ('axes',))
bad('transpose-axis-out-of-range',
        lambda m: F.transpose(m((2, 3, 4)), (0, 1, 3)),
        _op('Transpose', 'transpose'), ('axes',))
bad('transpose-axis-out-of-range-by-ndim',
        lambda m: F.transpose(m((2, 3, 4)), (0, 1, 5)),
        _op('Transpose', 'transpose'), ('axes',))
bad('transpose-negative-axis-out-of-range',
        lambda m: F.transpose(m((2, 3, 4)), (0, 1, -4)),
        _op('Transpose', 'transpose'), ('axes',))
bad('broadcast_to-incompatible',
        lambda m: F.broadcast_to(m((3, 2)), (3, 4)),
        _op('BroadcastTo', 'broadcast_to'), ('x', 'shape'))
bad('broadcast_to-fewer-axes',
        lambda m: F.broadcast_to(m((2, 3, 4)), (3, 4)),
        _op('BroadcastTo', 'broadcast_to'), ('x', 'shape'))
bad('get_item-int-out-of-range',
        lambda m: F.get_item(m((3, 4)), 3), _op('GetItem', 'get_item'),
        INDEX)
bad('get_item-negative-out-of-range',
        lambda m: F.get_item(m((3, 4)), (slice(None), -5)),
        _op('GetItem', 'get_item'), INDEX)
bad('get_item-array-out-of-range',
        lambda m: F.get_item(m((3, 4)), [0, 3]), _op('GetItem', 'get_item'),
        INDEX)
bad('get_item-device-array-out-of-range',
        lambda m: F.get_item(m((3, 4)), (0, m.values([1, 4]))),
        _op('GetItem', 'get_item'), INDEX)
bad('get_item-too-many-indices',
        lambda m: F.get_item(m((3, 4)), (0, 1, 2)),
        _op('GetItem', 'get_item'), INDEX)
bad('get_item-mask-shape',
        lambda m: F.get_item(m((3, 4)), m.values(numpy.ones((2, 4)), bool)),
        _op('GetItem', 'get_item'), INDEX)
bad('get_item-float-index',
        lambda m: F.get_item(m((3, 4)), 1.5), _op('GetItem', 'get_item'),
        INDEX)
