"""classification_summary (precision, recall, F-beta score and support per
class) and its parts: precision, recall, fbeta_score, f1_score."""
import numpy

from chainer_core._runtime import kernels
from chainer_core import function_node
from chainer_core.functions.evaluation.accuracy import _expect_label_shape
from chainer_core.utils import type_check


def _ratio(xp, num, den):
    """num / den as float64, NaN where den is 0 (without a warning)."""
    den = den.astype(numpy.float64)
    return num / xp.where(den == 0, numpy.nan, den)


@kernels.declare('classification_summary')
def _classification_summary(xp, y, t, label_num, beta, ignore_label):
    """(precision, recall, fbeta, support), each of shape (label_num,):
    predictions are argmax(y, axis=1); labels equal to ignore_label are left
    out. The ratios are float64 and NaN where undefined (0 / 0); support is
    an integer count."""
    ignored = (t == ignore_label).ravel()
    pred = xp.where(ignored, label_num, y.argmax(axis=1).ravel())
    true = xp.where(ignored, label_num, t.ravel())
    support = xp.bincount(true, minlength=label_num + 1)[:label_num]
    relevant = xp.bincount(pred, minlength=label_num + 1)[:label_num]
    hit = xp.where(pred == true, true, label_num)
    tp = xp.bincount(hit, minlength=label_num + 1)[:label_num]
    precision = _ratio(xp, tp, relevant)
    recall = _ratio(xp, tp, support)
    b2 = beta * beta
    fbeta = _ratio(xp, (1 + b2) * precision * recall,
                   b2 * precision + recall)
    return precision, recall, fbeta, support


class ClassificationSummary(function_node.FunctionNode):
    """Per-class precision, recall, F-beta score and support (not
    differentiable)."""

    def __init__(self, label_num, beta, ignore_label):
        self.label_num = label_num
        self.beta = beta
        self.ignore_label = ignore_label

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() == 2)
        type_check.argname(in_types, ('y', 't'))
        y_type, t_type = in_types
        type_check.expect(
            y_type.dtype.kind == 'f',
            t_type.dtype.kind == 'i',
            y_type.ndim >= 2,
            t_type.ndim >= 1,
        )
        _expect_label_shape(y_type, t_type)

    def forward(self, inputs):
        y, t = inputs
        valid = t[t != self.ignore_label]
        label_num = self.label_num
        if label_num is None:
            label_num = int(valid.max()) + 1 if valid.size else 0
        if valid.size and (int(valid.min()) < 0 or
                           int(valid.max()) >= label_num):
            raise ValueError(
                'classification_summary: t must hold labels in [0, {}) or '
                'ignore_label ({}), got {}'.format(
                    label_num, self.ignore_label,
                    int(valid.min()) if int(valid.min()) < 0
                    else int(valid.max())))
        return kernels.lookup('classification_summary', y)(
            y, t.astype(numpy.int64), label_num, self.beta,
            self.ignore_label)


def _check_params(func, label_num, beta):
    if label_num is not None and (
            not isinstance(label_num, (int, numpy.integer)) or
            isinstance(label_num, bool) or label_num < 0):
        raise ValueError('{}: label_num must be None or a non-negative int, '
                         'got {!r}'.format(func, label_num))
    if beta is not None and not beta > 0:
        raise ValueError('{}: beta must be positive, got {!r}'.format(
            func, beta))


def _summary(func, y, t, label_num, beta, ignore_label):
    _check_params(func, label_num, beta)
    return ClassificationSummary(label_num, beta, ignore_label).apply((y, t))


def classification_summary(y, t, label_num=None, beta=1.0, ignore_label=-1):
    """Precision, recall, F-beta score and support of each class.

    For class :math:`c`, with :math:`tp` the samples predicted :math:`c`
    whose label is :math:`c`, :math:`fp` those predicted :math:`c` with
    another label and :math:`fn` those labelled :math:`c` but predicted
    otherwise:

    - precision :math:`= tp / (tp + fp)`,
    - recall :math:`= tp / (tp + fn)`,
    - F-beta score :math:`= (1 + \\beta^2) p r / (\\beta^2 p + r)`,
    - support :math:`= tp + fn`, the number of samples labelled :math:`c`.

    A ratio whose denominator is 0 is NaN. The prediction is the argmax of
    ``y`` over axis 1.

    Args:
        y (Variable or array): scores ``(N, C)`` or ``(N, C, d_1, ...)``.
        t (Variable or array): labels ``(N,)`` or ``(N, d_1, ...)``, signed
            integers in ``[0, label_num)`` or ``ignore_label``.
        label_num (int or None): the number of classes; None takes the
            largest label plus one.
        beta (float): the weight of recall relative to precision in the
            F-beta score.
        ignore_label (int): samples with this label are left out. It must
            not be a class in ``[0, label_num)``.

    Returns:
        tuple of four Variables of shape ``(label_num,)``: precision,
        recall and F-beta score (float64, as in Chainer) and support
        (integers). Not differentiable.
    """
    return _summary('classification_summary', y, t, label_num, beta,
                    ignore_label)


def precision(y, t, label_num=None, ignore_label=-1):
    """Per-class precision and support; see :func:`classification_summary`.

    Returns:
        tuple of Variables: ``(precision, support)``.
    """
    ret = _summary('precision', y, t, label_num, 1.0, ignore_label)
    return ret[0], ret[3]


def recall(y, t, label_num=None, ignore_label=-1):
    """Per-class recall and support; see :func:`classification_summary`.

    Returns:
        tuple of Variables: ``(recall, support)``.
    """
    ret = _summary('recall', y, t, label_num, 1.0, ignore_label)
    return ret[1], ret[3]


def fbeta_score(y, t, label_num=None, beta=1.0, ignore_label=-1):
    """Per-class F-beta score and support; see
    :func:`classification_summary`.

    Returns:
        tuple of Variables: ``(fbeta_score, support)``.
    """
    ret = _summary('fbeta_score', y, t, label_num, beta, ignore_label)
    return ret[2], ret[3]


def f1_score(y, t, label_num=None, ignore_label=-1):
    """Per-class F1 score (F-beta with beta 1) and support; see
    :func:`classification_summary`.

    Returns:
        tuple of Variables: ``(f1_score, support)``.
    """
    ret = _summary('f1_score', y, t, label_num, 1.0, ignore_label)
    return ret[2], ret[3]
