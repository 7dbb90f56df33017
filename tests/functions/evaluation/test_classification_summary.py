"""classification_summary, precision, recall, fbeta_score and f1_score:
per-class values (float64 ratios and integer supports, as in Chainer
v7), beta, label_num (given or inferred), ignore_label, NaN for undefined
ratios, and argument errors."""
import numpy
import pytest

import chainer_core.functions as F

from .. import DTYPES, typed

dtype_param = pytest.mark.parametrize('dtype', DTYPES)

# Predictions 0, 1, 1, 2, 0, 1 against labels 0, 1, 2, 2, 1, 1.
Y = numpy.eye(3)[[0, 1, 1, 2, 0, 1]] + 0.1
T = numpy.array([0, 1, 2, 2, 1, 1], numpy.int32)
PRECISION = [1 / 2, 2 / 3, 1]
RECALL = [1, 2 / 3, 1 / 2]
SUPPORT = [1, 3, 2]


def _fbeta(beta):
    p, r = numpy.array(PRECISION), numpy.array(RECALL)
    return (1 + beta ** 2) * p * r / (beta ** 2 * p + r)


def _close(actual, expected):
    numpy.testing.assert_allclose(actual.array, expected, rtol=1e-12)


@dtype_param
class TestClassificationSummary:

    def test_values(self, dtype):
        p, r, f, s = F.classification_summary(typed(Y, dtype), T)
        for v in (p, r, f):
            assert v.shape == (3,) and v.dtype == numpy.float64
        assert s.dtype.kind == 'i'
        _close(p, PRECISION)
        _close(r, RECALL)
        _close(f, _fbeta(1.0))
        numpy.testing.assert_array_equal(s.array, SUPPORT)

    def test_beta(self, dtype):
        f = F.classification_summary(typed(Y, dtype), T, beta=2.0)[2]
        _close(f, _fbeta(2.0))

    def test_label_num_adds_empty_classes(self, dtype):
        p, r, f, s = F.classification_summary(typed(Y, dtype), T,
                                              label_num=5)
        _close(p[:3], PRECISION)
        assert numpy.isnan(p.array[3:]).all()
        assert numpy.isnan(r.array[3:]).all()
        numpy.testing.assert_array_equal(s.array, SUPPORT + [0, 0])

    def test_ignore_label(self, dtype):
        t = T.copy()
        t[[1, 4]] = -1
        p, r, f, s = F.classification_summary(typed(Y, dtype), t)
        _close(p, [1, 1 / 2, 1])
        _close(r, [1, 1, 1 / 2])
        numpy.testing.assert_array_equal(s.array, [1, 1, 2])
        t[[1, 4]] = 7
        p7 = F.classification_summary(typed(Y, dtype), t, label_num=3,
                                      ignore_label=7)[0]
        _close(p7, p.array)

    def test_spatial(self, dtype):
        y = typed(Y.reshape(2, 3, 3).transpose(0, 2, 1), dtype)
        p, r, f, s = F.classification_summary(y, T.reshape(2, 3))
        _close(p, PRECISION)
        numpy.testing.assert_array_equal(s.array, SUPPORT)

    def test_parts(self, dtype):
        y = typed(Y, dtype)
        for fn, expected in ((F.precision, PRECISION), (F.recall, RECALL),
                             (F.f1_score, _fbeta(1.0))):
            value, support = fn(y, T)
            _close(value, expected)
            numpy.testing.assert_array_equal(support.array, SUPPORT)
        value, support = F.fbeta_score(y, T, beta=0.5)
        _close(value, _fbeta(0.5))

    def test_bad_arguments(self, dtype):
        with pytest.raises(ValueError, match='label_num'):
            F.classification_summary(typed(Y, dtype), T, label_num=2.5)
        with pytest.raises(ValueError, match='beta'):
            F.fbeta_score(typed(Y, dtype), T, beta=-1.0)
        with pytest.raises(ValueError, match='t'):
            F.recall(typed(Y, dtype), T, label_num=2)
