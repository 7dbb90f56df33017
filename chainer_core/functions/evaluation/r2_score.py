"""r2_score: the coefficient of determination of a regression."""
import numpy

from chainer_core._runtime import kernels
from chainer_core import function_node
from chainer_core.utils import type_check
from chainer_core.variable import as_array


@kernels.declare('r2_score')
def _r2_score(xp, pred, true, sample_weight, multioutput):
    """1 - sum(w (true - pred)**2) / sum(w (true - mean_w(true))**2) along
    axis 0 (0 for an output whose total sum of squares is 0); averaged over
    the outputs when multioutput is 'uniform_average'."""
    ft = pred.dtype if pred.dtype.itemsize >= 4 else numpy.dtype('float32')
    p, t = pred.astype(ft), true.astype(ft)
    if sample_weight is None:
        mean = t.mean(axis=0)
        res = ((t - p) ** 2).sum(axis=0)
        tot = ((t - mean) ** 2).sum(axis=0)
    else:
        w = sample_weight.astype(ft).reshape(
            (-1,) + (1,) * (t.ndim - 1))
        mean = (w * t).sum(axis=0) / w.sum()
        res = (w * (t - p) ** 2).sum(axis=0)
        tot = (w * (t - mean) ** 2).sum(axis=0)
    zero = tot == 0
    score = xp.where(zero, 0, 1 - res / xp.where(zero, 1, tot))
    if multioutput == 'uniform_average':
        return xp.asarray(score.mean(), dtype=pred.dtype)
    return xp.asarray(score, dtype=pred.dtype)


class R2Score(function_node.FunctionNode):
    """R^2 score (not differentiable)."""

    def __init__(self, sample_weight=None, multioutput='uniform_average'):
        self.sample_weight = sample_weight
        self.multioutput = multioutput

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() == 2)
        type_check.argname(in_types, ('pred', 'true'))
        pred_type, true_type = in_types
        type_check.expect(
            pred_type.dtype.kind == 'f',
            true_type.dtype.kind == 'f',
            pred_type.ndim >= 1,
            pred_type.shape == true_type.shape,
        )

    def forward(self, inputs):
        pred, true = inputs
        w = self.sample_weight
        if w is not None and (w.ndim != 1 or w.shape[0] != pred.shape[0]):
            raise ValueError(
                'r2_score: sample_weight must have shape ({},), got {}'
                .format(pred.shape[0], w.shape))
        return kernels.lookup('r2_score', pred)(pred, true, w,
                                                self.multioutput),


def r2_score(pred, true, sample_weight=None, multioutput='uniform_average'):
    """Coefficient of determination :math:`R^2` along the first axis.

    .. math:: R^2 = 1 - \\frac{\\sum_i w_i (y_i - \\hat y_i)^2}
        {\\sum_i w_i (y_i - \\bar y)^2}

    per output (each index of the trailing axes), with :math:`\\bar y` the
    (weighted) mean of ``true``; an output whose ``true`` values are all
    equal scores 0.

    Args:
        pred (Variable or array): estimated targets ``(N, ...)``, float.
        true (Variable or array): correct targets of ``pred``'s shape.
        sample_weight (array or None): per-sample weights of shape ``(N,)``
            (None: all 1), as in scikit-learn.
        multioutput (str): ``'uniform_average'`` for the 0-dim mean over the
            outputs, ``'raw_values'`` for one score per output (shape
            ``pred.shape[1:]``).

    Returns:
        Variable: of ``pred``'s dtype.
    """
    if multioutput not in ('uniform_average', 'raw_values'):
        raise ValueError("r2_score: multioutput must be 'uniform_average' or "
                         "'raw_values', got {!r}".format(multioutput))
    if sample_weight is not None:
        sample_weight = as_array(sample_weight)
        if not hasattr(sample_weight, 'dtype') or \
                sample_weight.dtype.kind not in 'fiu':
            raise TypeError('r2_score: sample_weight must be a numeric array '
                            'or None, got {!r}'.format(sample_weight))
    return R2Score(sample_weight, multioutput).apply((pred, true))[0]
