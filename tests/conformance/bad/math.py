"""Bad input of math ops."""
import chainer_core.functions as F

from . import bad, i32, f64, ADD, SUB, MUL, DIV, POW, BINARY_ARGS, AXIS, _op

bad('add-not-broadcastable',
        lambda m: F.add(m((3, 4)), m((2, 4))), ADD, BINARY_ARGS)
bad('add-dtype-mismatch',
        lambda m: F.add(m((3, 4)), m((3, 4), f64)), ADD, BINARY_ARGS)
bad('sub-not-broadcastable',
        lambda m: F.sub(m((3, 4)), m((3,))), SUB, BINARY_ARGS)
bad('sub-dtype-mismatch',
        lambda m: F.sub(m((3, 4), f64), m((3, 4))), SUB, BINARY_ARGS)
bad('mul-not-broadcastable',
        lambda m: F.mul(m((2, 3, 4)), m((3, 2))), MUL, BINARY_ARGS)
bad('mul-dtype-mismatch',
        lambda m: F.mul(m((3, 4)), m((3, 4), f64)), MUL, BINARY_ARGS)
bad('div-not-broadcastable',
        lambda m: F.div(m((4,)), m((5,))), DIV, BINARY_ARGS)
bad('div-dtype-mismatch',
        lambda m: F.div(m((3, 4)), m((4,), f64)), DIV, BINARY_ARGS)
bad('pow-not-broadcastable',
        lambda m: F.pow(m((3, 4)), m((2, 4))), POW, BINARY_ARGS)
bad('pow-dtype-mismatch',
        lambda m: F.pow(m((3, 4)), m((3, 4), f64)), POW, BINARY_ARGS)
bad('add-unsupported-operand',
        lambda m: F.add(m((3, 4)), 'one'), ADD, ('operand',))
bad('exp-int', lambda m: F.exp(m((3,), i32)), _op('Exp', 'exp'), ('x',))
bad('log-int', lambda m: F.log(m((3,), i32)), _op('Log', 'log'), ('x',))
bad('sum-axis-out-of-range',
        lambda m: F.sum(m((2, 3, 4)), axis=3), _op('Sum', 'sum'), AXIS)
bad('sum-negative-axis-out-of-range',
        lambda m: F.sum(m((2, 3, 4)), axis=(0, -4)), _op('Sum', 'sum'), AXIS)
bad('sum-duplicate-axis',
        lambda m: F.sum(m((2, 3, 4)), axis=(1, -2)), _op('Sum', 'sum'), AXIS)
bad('sum-axis-not-int',
        lambda m: F.sum(m((2, 3)), axis=1.0), _op('Sum', 'sum'), AXIS)
bad('sum-int', lambda m: F.sum(m((2, 3), i32)), _op('Sum', 'sum'),
        ('x',))
bad('sum_to-not-broadcast-from',
        lambda m: F.sum_to(m((2, 3)), (4,)), _op('SumTo', 'sum_to'),
        ('x', 'shape'))
bad('matmul-inner-dims',
        lambda m: F.matmul(m((3, 4)), m((5, 2))), _op('MatMul', 'matmul'),
        ('a', 'b'))
bad('matmul-inner-dims-transb',
        lambda m: F.matmul(m((3, 4)), m((4, 2)), transb=True),
        _op('MatMul', 'matmul'), ('a', 'b'))
bad('matmul-batch-not-broadcastable',
        lambda m: F.matmul(m((2, 3, 4)), m((3, 4, 2))),
        _op('MatMul', 'matmul'), ('a', 'b'))
bad('matmul-int',
        lambda m: F.matmul(m((3, 4), i32), m((4, 2), i32)),
        _op('MatMul', 'matmul'), ('a',))
bad('matmul-dtype-mismatch',
        lambda m: F.matmul(m((3, 4)), m((4, 2), f64)),
        _op('MatMul', 'matmul'), ('a', 'b'))
bad('matmul-0dim',
        lambda m: F.matmul(m(()), m((4, 2))), _op('MatMul', 'matmul'),
        ('a',))
