"""Bad input of connection ops."""
import chainer_core.functions as F

from . import bad, i32, f64, _op

bad('linear-W-in-size',
        lambda m: F.linear(m((4, 3)), m((2, 4))),
        _op('LinearFunction', 'linear'), ('x', 'W'))
bad('linear-W-ndim',
        lambda m: F.linear(m((4, 3)), m((3,))),
        _op('LinearFunction', 'linear'), ('W',))
bad('linear-W-dtype',
        lambda m: F.linear(m((4, 3)), m((2, 3), f64)),
        _op('LinearFunction', 'linear'), ('W',))
bad('linear-b-size',
        lambda m: F.linear(m((4, 3)), m((2, 3)), m((3,))),
        _op('LinearFunction', 'linear'), ('b',))
bad('linear-x-1d',
        lambda m: F.linear(m((3,)), m((2, 3))),
        _op('LinearFunction', 'linear'), ('x',))
bad('linear-x-int',
        lambda m: F.linear(m((4, 3), i32), m((2, 3), i32)),
        _op('LinearFunction', 'linear'), ('x',))
bad('linear-n_batch_axes-zero',
        lambda m: F.linear(m((4, 3)), m((2, 3)), n_batch_axes=0),
        _op('LinearFunction', 'linear'), ('n_batch_axes',))
bad('linear-n_batch_axes-too-many',
        lambda m: F.linear(m((4, 3)), m((2, 3)), n_batch_axes=3),
        _op('LinearFunction', 'linear'), ('n_batch_axes',))
