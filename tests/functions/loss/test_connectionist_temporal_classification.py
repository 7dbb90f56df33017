"""connectionist_temporal_classification: values from counting alignments
under uniform scores, repeated labels needing a blank, input_length and
label_length, another blank symbol, reduce, the gradient softmax minus
occupancy, first-order only (as Chainer v7), and argument errors."""
import math

import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads, typed

dtype_param = pytest.mark.parametrize('dtype', DTYPES)

ctc = F.connectionist_temporal_classification


def _labels(values):
    return numpy.array(values, dtype=numpy.int32)


def _steps(n_step, n_batch, n_vocab, dtype, seed=0):
    rng = numpy.random.RandomState(seed)
    return [chainer.Variable(rng.uniform(-1, 1, (n_batch, n_vocab))
                             .astype(dtype)) for _ in range(n_step)]


@dtype_param
class TestConnectionistTemporalClassification:

    def test_uniform_scores_count_alignments(self, dtype):
        # Two steps, vocabulary {blank, 1}: (1 1), (0 1), (1 0) give [1].
        xs = [numpy.zeros((1, 2), dtype)] * 2
        loss = ctc(xs, _labels([[1]]), 0)
        assert loss.shape == () and loss.dtype == dtype
        assert_close(loss, math.log(4 / 3), dtype)

    def test_repeated_labels_need_a_blank_between(self, dtype):
        # [1, 1] in three steps: only (1 0 1), of probability 1 / 27.
        xs = [numpy.zeros((1, 3), dtype)] * 3
        assert_close(ctc(xs, _labels([[1, 1]]), 0), math.log(27), dtype)

    def test_reduce(self, dtype):
        xs = [numpy.zeros((2, 3), dtype)] * 3
        t = _labels([[1, 1], [1, 2]])
        # [1, 2] in three steps: 1 2 then one blank or repeat anywhere: 5.
        losses = F.connectionist_temporal_classification(
            xs, t, 0, reduce='no')
        assert losses.shape == (2,)
        assert_close(losses, [math.log(27), math.log(27 / 5)], dtype)
        assert_close(ctc(xs, t, 0), (math.log(27) + math.log(27 / 5)) / 2,
                     dtype)

    def test_lengths(self, dtype):
        xs = _steps(4, 2, 3, dtype)
        t = _labels([[1, 2], [2, 0]])
        loss = ctc(xs, t, 0, input_length=_labels([4, 2]),
                   label_length=_labels([2, 1]), reduce='no')
        alone = ctc([x.array[1:] for x in xs[:2]], _labels([[2]]), 0,
                    reduce='no')
        assert_close(loss.array[1], alone.array[0], dtype)
        # Steps after input_length neither count nor get a gradient.
        gxs = grads(loss, xs, typed([0, 1], dtype))
        for gx in gxs[2:]:
            assert not gx[1].any()

    def test_other_blank_symbol(self, dtype):
        xs = _steps(3, 2, 3, dtype)
        t = _labels([[0, 1], [1, 1]])
        # Relabelling the vocabulary so the blank comes first.
        order = [2, 0, 1]
        moved = [x.array[:, order] for x in xs]
        assert_close(ctc(xs, t, 2), ctc(moved, t + 1, 0).array, dtype)

    def test_gradient_is_softmax_minus_occupancy(self, dtype):
        x0, x1 = (chainer.Variable(numpy.zeros((1, 2), dtype))
                  for _ in range(2))
        g0, g1 = grads(ctc([x0, x1], _labels([[1]]), 0), (x0, x1))
        # Each step emits the label in 2 of the 3 equally likely
        # alignments.
        assert_close(g0, [[1 / 6, -1 / 6]], dtype)
        assert_close(g1, [[1 / 6, -1 / 6]], dtype)

    def test_gradients_sum_to_zero_per_step(self, dtype):
        xs = _steps(4, 3, 4, dtype)
        gxs = grads(ctc(xs, _labels([[1, 2], [3, 3], [2, 1]]), 0), xs)
        for gx in gxs:
            assert_close(gx.astype(numpy.float64).sum(axis=1), [0, 0, 0],
                         dtype)

    def test_tuple_of_arrays_is_accepted(self, dtype):
        xs = tuple(x.array for x in _steps(3, 1, 3, dtype))
        assert ctc(xs, _labels([[1]]), 0).shape == ()

    def test_first_order_only(self, dtype):
        xs = _steps(3, 1, 3, dtype)
        gxs = chainer.grad([ctc(xs, _labels([[1]]), 0)], xs,
                           enable_double_backprop=True)
        with pytest.raises(RuntimeError, match='double backprop'):
            chainer.grad([F.sum(gxs[0] * gxs[0])], xs)

    def test_bad_arguments(self, dtype):
        xs = [numpy.zeros((2, 3), dtype)] * 3
        t = _labels([[1, 2], [2, 1]])
        with pytest.raises(TypeError, match='x'):
            ctc(numpy.zeros((3, 2, 3), dtype), t, 0)
        with pytest.raises(ValueError, match='blank_symbol'):
            ctc(xs, t, -1)
        with pytest.raises(ValueError, match='input_length'):
            ctc(xs, t, 0, input_length=_labels([0, 3]))
        with pytest.raises(ValueError, match='label_length'):
            ctc(xs, t, 0, label_length=_labels([-1, 2]))
        with pytest.raises(ValueError, match='reduce'):
            ctc(xs, t, 0, reduce='sum')
