"""Bad input of loss ops."""
import chainer_core.functions as F

from . import bad, i32, f32, f64, _op

bad('mean_squared_error-shape',
        lambda m: F.mean_squared_error(m((3, 4)), m((4, 3))),
        _op('MeanSquaredError', 'mean_squared_error'), ('x0', 'x1'))
bad('mean_squared_error-dtype',
        lambda m: F.mean_squared_error(m((3, 4)), m((3, 4), f64)),
        _op('MeanSquaredError', 'mean_squared_error'), ('x0', 'x1'))
bad('mean_squared_error-int',
        lambda m: F.mean_squared_error(m((3, 4), i32), m((3, 4), i32)),
        _op('MeanSquaredError', 'mean_squared_error'), ('x0',))
bad('softmax_cross_entropy-t-shape',
        lambda m: F.softmax_cross_entropy(m((4, 3)), m.values([0, 1, 2])),
        _op('SoftmaxCrossEntropy', 'softmax_cross_entropy'), ('t',))
bad('softmax_cross_entropy-t-float',
        lambda m: F.softmax_cross_entropy(
            m((4, 3)), m.values([0, 1, 2, 0], f32)),
        _op('SoftmaxCrossEntropy', 'softmax_cross_entropy'), ('t',))
bad('softmax_cross_entropy-x-ndim',
        lambda m: F.softmax_cross_entropy(m((4,)), m.values([0, 1, 2, 0])),
        _op('SoftmaxCrossEntropy', 'softmax_cross_entropy'), ('x',))
bad('softmax_cross_entropy-x-int',
        lambda m: F.softmax_cross_entropy(
            m((4, 3), i32), m.values([0, 1, 2, 0])),
        _op('SoftmaxCrossEntropy', 'softmax_cross_entropy'), ('x',))
bad('softmax_cross_entropy-label-out-of-range',
        lambda m: F.softmax_cross_entropy(m((4, 3)), m.values([0, 3, 2, 0])),
        _op('SoftmaxCrossEntropy', 'softmax_cross_entropy'), ('t',))
bad('softmax_cross_entropy-reduce',
        lambda m: F.softmax_cross_entropy(
            m((4, 3)), m.values([0, 1, 2, 0]), reduce='sum'),
        _op('SoftmaxCrossEntropy', 'softmax_cross_entropy'), ('reduce',))
bad('softmax_cross_entropy-class_weight-shape',
        lambda m: F.softmax_cross_entropy(
            m((4, 3)), m.values([0, 1, 2, 0]), class_weight=m((4,))),
        _op('SoftmaxCrossEntropy', 'softmax_cross_entropy'),
        ('class_weight',))
bad('softmax_cross_entropy-double-backprop-t-shape',
        lambda m: F.softmax_cross_entropy(
            m((4, 3)), m.values([0, 1]), enable_double_backprop=True),
        _op('SoftmaxCrossEntropy', 'softmax_cross_entropy'), ('t',))
