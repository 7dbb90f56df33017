"""r2_score: perfect and mean predictions, known values, multioutput,
sample_weight (as scikit-learn), 0 for a constant target (as Chainer v7),
a result of pred's dtype, and argument errors."""
import numpy
import pytest

import chainer_core.functions as F

from .. import DTYPES, assert_close, typed

dtype_param = pytest.mark.parametrize('dtype', DTYPES)

TRUE = [[1, 2], [2, 0], [3, 4], [6, 2]]
PRED = [[1, 1], [2, 1], [4, 3], [5, 3]]
# Column 0: res 2, tot 14; column 1: res 4, tot 8.
SCORES = [1 - 2 / 14, 1 - 4 / 8]


@dtype_param
class TestR2Score:

    def test_perfect_prediction(self, dtype):
        t = typed(TRUE, dtype)
        score = F.r2_score(t, t)
        assert score.shape == () and score.dtype == dtype
        assert_close(score, 1, dtype)

    def test_mean_prediction_scores_zero(self, dtype):
        t = typed(TRUE, dtype)
        mean = numpy.broadcast_to(t.mean(axis=0), t.shape).astype(dtype)
        assert_close(F.r2_score(mean, t, multioutput='raw_values'), [0, 0],
                     dtype)

    def test_known_values(self, dtype):
        raw = F.r2_score(typed(PRED, dtype), typed(TRUE, dtype),
                         multioutput='raw_values')
        assert raw.shape == (2,) and raw.dtype == dtype
        assert_close(raw, SCORES, dtype)
        assert_close(F.r2_score(typed(PRED, dtype), typed(TRUE, dtype)),
                     sum(SCORES) / 2, dtype)

    def test_sample_weight(self, dtype):
        w = numpy.array([1, 1, 2, 0])
        raw = F.r2_score(typed(PRED, dtype), typed(TRUE, dtype),
                         sample_weight=w, multioutput='raw_values')
        t, p = numpy.array(TRUE, float), numpy.array(PRED, float)
        mean = (w[:, None] * t).sum(0) / w.sum()
        expected = 1 - (w[:, None] * (t - p) ** 2).sum(0) / \
            (w[:, None] * (t - mean) ** 2).sum(0)
        assert_close(raw, expected, dtype)
        ones = F.r2_score(typed(PRED, dtype), typed(TRUE, dtype),
                          sample_weight=numpy.ones(4))
        assert_close(ones, sum(SCORES) / 2, dtype)

    def test_constant_target_scores_zero(self, dtype):
        t = typed([[1, 2], [1, 0], [1, 4]], dtype)
        raw = F.r2_score(typed([[0, 2], [1, 0], [2, 4]], dtype), t,
                         multioutput='raw_values')
        assert_close(raw, [0, 1], dtype)

    def test_bad_arguments(self, dtype):
        t = typed(TRUE, dtype)
        with pytest.raises(ValueError, match='multioutput'):
            F.r2_score(t, t, multioutput='variance_weighted')
        with pytest.raises(ValueError, match='sample_weight'):
            F.r2_score(t, t, sample_weight=numpy.ones(3))
