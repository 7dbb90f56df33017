"""crf1d and argmax_crf1d: values from enumerating label sequences,
sequences of different lengths (a shrinking batch), reduce, marginals as
gradients, second order, the Viterbi path and its score, and argument
errors."""
import itertools
import math

import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads, typed

dtype_param = pytest.mark.parametrize('dtype', DTYPES)

K = 3
BATCHES = (3, 3, 2, 1)


def _problem(dtype, seed=0):
    rng = numpy.random.RandomState(seed)
    cost = chainer.Variable(rng.uniform(-1, 1, (K, K)).astype(dtype))
    xs = [chainer.Variable(rng.uniform(-1, 1, (n, K)).astype(dtype))
          for n in BATCHES]
    ys = [rng.randint(0, K, n).astype(numpy.int32) for n in BATCHES]
    return cost, xs, ys


def _scores(cost, xs, b):
    cost = cost.array.astype(numpy.float64)
    xs = [x.array.astype(numpy.float64) for x in xs if x.shape[0] > b]
    paths = list(itertools.product(range(K), repeat=len(xs)))
    scores = [sum(x[b, p[i]] for i, x in enumerate(xs)) +
              sum(cost[p[i - 1], p[i]] for i in range(1, len(xs)))
              for p in paths]
    return paths, numpy.array(scores)


@dtype_param
class TestCrf1d:

    def test_zero_costs(self, dtype):
        xs = [numpy.zeros((2, K), dtype)] * 3
        ys = [numpy.array([0, 1], numpy.int32)] * 3
        loss = F.crf1d(numpy.zeros((K, K), dtype), xs, ys, reduce='no')
        assert loss.shape == (2,) and loss.dtype == dtype
        assert_close(loss, [3 * math.log(K)] * 2, dtype)

    def test_against_enumeration(self, dtype):
        cost, xs, ys = _problem(dtype)
        loss = F.crf1d(cost, xs, ys, reduce='no')
        expected = []
        for b in range(3):
            paths, scores = _scores(cost, xs, b)
            gold = tuple(int(y[b]) for y in ys if y.shape[0] > b)
            expected.append(numpy.log(numpy.exp(scores).sum()) -
                            scores[paths.index(gold)])
        assert_close(loss, expected, dtype)
        assert_close(F.crf1d(cost, xs, ys), sum(expected) / 3, dtype)

    def test_gradient_is_marginal_minus_observed(self, dtype):
        cost = chainer.Variable(numpy.zeros((K, K), dtype))
        xs = [chainer.Variable(numpy.zeros((1, K), dtype)) for _ in range(2)]
        ys = [numpy.array([0], numpy.int32), numpy.array([2], numpy.int32)]
        gc, g0, g1 = grads(F.crf1d(cost, xs, ys), [cost] + xs)
        assert_close(g0, [[1 / K - 1, 1 / K, 1 / K]], dtype)
        assert_close(g1, [[1 / K, 1 / K, 1 / K - 1]], dtype)
        expected = numpy.full((K, K), 1 / K ** 2)
        expected[0, 2] -= 1
        assert_close(gc, expected, dtype)

    def test_second_order(self, dtype):
        cost, xs, ys = _problem(dtype)
        gxs = chainer.grad([F.crf1d(cost, xs, ys)], [cost] + xs,
                           enable_double_backprop=True)
        second = grads(F.sum(gxs[1] * gxs[1]), [cost] + xs)
        assert all(g is not None and numpy.isfinite(g).all()
                   for g in second)

    def test_arrays_are_accepted(self, dtype):
        cost, xs, ys = _problem(dtype)
        loss = F.crf1d(cost.array, [x.array for x in xs], ys)
        assert_close(loss, F.crf1d(cost, xs, ys).array, dtype)

    def test_bad_arguments(self, dtype):
        cost, xs, ys = _problem(dtype)
        with pytest.raises(ValueError, match='xs'):
            F.crf1d(cost, xs[::-1], ys[::-1])
        with pytest.raises(TypeError, match='ys'):
            F.crf1d(cost, xs, ys[:-1])
        with pytest.raises(ValueError, match='ys'):
            F.crf1d(cost, xs, [y + K for y in ys])
        with pytest.raises(ValueError, match='reduce'):
            F.crf1d(cost, xs, ys, reduce='sum')


@dtype_param
class TestArgmaxCrf1d:

    def test_path_and_score_against_enumeration(self, dtype):
        cost, xs, _ = _problem(dtype, seed=1)
        score, path = F.argmax_crf1d(cost, xs)
        assert score.shape == (3,) and score.dtype == dtype
        assert [p.shape for p in path] == [(n,) for n in BATCHES]
        assert all(p.dtype == numpy.int32 for p in path)
        for b in range(3):
            paths, scores = _scores(cost, xs, b)
            best = paths[int(scores.argmax())]
            assert tuple(int(p[b]) for p in path if p.shape[0] > b) == best
            assert_close(score.array[b], scores.max(), dtype)

    def test_transitions_can_override_local_scores(self, dtype):
        # Staying in a label is cheap, switching is very expensive.
        cost = typed(numpy.eye(K) * 5 - 5, dtype)
        xs = [typed([[1, 0, 0]], dtype), typed([[0, 2, 0]], dtype),
              typed([[1, 0, 0]], dtype)]
        _, path = F.argmax_crf1d(cost, xs)
        assert [int(p[0]) for p in path] == [0, 0, 0]

    def test_score_gradient_selects_the_best_path(self, dtype):
        cost, xs, _ = _problem(dtype, seed=2)
        score, path = F.argmax_crf1d(cost, xs)
        gxs = grads(score, [cost] + xs)
        for gx, p in zip(gxs[1:], path):
            assert_close(gx, numpy.eye(K)[p], dtype)
