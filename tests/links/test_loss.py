"""Loss links: NegativeSampling, BlackOut, CRF1d, and the WalkerAlias
sampler they use."""
import numpy
import pytest

import chainer_core.functions as F
import chainer_core.links as L
from chainer_core import gradient_check
from chainer_core import initializers
from chainer_core.utils.walker_alias import WalkerAlias

from ._util import (assert_allclose, check_grads_reach_params,
                    check_param_grads, check_round_trip, float64, npz_keys,
                    rand)


class TestWalkerAlias:

    @pytest.mark.parametrize('probs', [
        [1, 2, 3, 4], [0.5, 0, 0.5], [5], [1e-3, 1, 1, 1, 7, 0.2]])
    def test_frequencies(self, probs):
        numpy.random.seed(0)
        sampler = WalkerAlias(probs)
        s = sampler.sample((200000,))
        assert s.dtype == numpy.int32 and s.shape == (200000,)
        freq = numpy.bincount(s, minlength=len(probs)) / s.size
        expected = numpy.asarray(probs, float) / numpy.sum(probs)
        numpy.testing.assert_allclose(freq, expected, atol=5e-3)

    def test_shape(self):
        assert WalkerAlias([1, 1]).sample((3, 4)).shape == (3, 4)

    @pytest.mark.parametrize('probs', [[], [0, 0], [1, -1], [[1, 2]],
                                       [1, numpy.nan]])
    def test_bad_probs(self, probs):
        with pytest.raises(ValueError):
            WalkerAlias(probs)

    def test_to_device(self):
        sampler = WalkerAlias([1, 2]).to_device('@numpy')
        assert not sampler.use_gpu
        assert sampler.sample((2,)).shape == (2,)


class TestNegativeSampling:

    def test_zero_weights_give_log2_per_term(self):
        link = L.NegativeSampling(3, [1, 2, 3, 4], 2)
        assert (link.W.array == 0).all() and link.W.shape == (4, 3)
        assert link.W.dtype == numpy.float32
        x = numpy.ones((5, 3), numpy.float32)
        t = numpy.array([0, 1, 2, 3, 0], numpy.int32)
        loss = link(x, t)
        assert loss.shape == ()
        numpy.testing.assert_allclose(loss.array, 5 * 3 * numpy.log(2),
                                      rtol=1e-6)
        losses = link(x, t, reduce='no')
        assert losses.shape == (5,)

    def test_return_samples_and_reference(self):
        link = float64(lambda: L.NegativeSampling(3, [1, 2, 3, 4], 2))
        link.W.array[...] = rand((4, 3), 0)
        x = rand((3, 3), 1)
        t = numpy.array([0, 3, 1], numpy.int32)
        loss, samples = link(x, t, reduce='no', return_samples=True)
        assert samples.shape == (3, 3)
        numpy.testing.assert_array_equal(samples[:, 0], t)
        W = link.W.array
        score = numpy.einsum('nd,nkd->nk', x, W[samples])

        def log_sigmoid(a):
            return -numpy.log1p(numpy.exp(-a))

        expected = -(log_sigmoid(score[:, 0]) +
                     log_sigmoid(-score[:, 1:]).sum(1))
        assert_allclose(loss, expected)

    def test_sampler_follows_power_of_counts(self):
        numpy.random.seed(1)
        link = L.NegativeSampling(2, [1, 16], 1000, power=0.5)
        _, samples = link(numpy.ones((20, 2), numpy.float32),
                          numpy.zeros(20, numpy.int32), return_samples=True)
        neg = samples[:, 1:]
        # Probabilities 1:4 after the power 0.5.
        assert abs((neg == 1).mean() - 0.8) < 0.02

    def test_gradient_reaches_W_and_round_trip(self):
        def make():
            link = float64(lambda: L.NegativeSampling(3, [1, 2, 3], 2))
            link.W.array[...] = rand((3, 3), 2)
            return link

        x, t = rand((2, 3), 3), numpy.array([0, 2], numpy.int32)
        check_grads_reach_params(make(), (x, t))
        numpy.random.seed(0)
        check_round_trip(make, (x, t),
                         call=lambda link: link.W * 1)
        assert npz_keys(make()) == ['W']

    def test_unknown_keyword(self):
        link = L.NegativeSampling(3, [1, 2], 1)
        with pytest.raises(TypeError):
            link(numpy.ones((1, 3), numpy.float32),
                 numpy.zeros(1, numpy.int32), foo=1)


class TestBlackOut:

    def _link(self):
        link = float64(lambda: L.BlackOut(3, [1, 2, 3, 4], 2))
        link.W.array[...] = rand((4, 3), 0)
        return link

    def test_weight_starts_undefined(self):
        link = L.BlackOut(3, [1, 2, 3], 2)
        assert link.W.shape == (3, 3) and numpy.isnan(link.W.array).all()
        assert npz_keys(link) == ['W']

    def test_given_samples_match_function(self):
        link = self._link()
        link.sample_data = numpy.array([[1, 2], [0, 3]], numpy.int32)
        x, t = rand((2, 3), 1), numpy.array([3, 1], numpy.int32)
        expected = F.black_out(x, t, link.W, link.sample_data)
        assert_allclose(link(x, t), expected)
        check_param_grads(link, (x, t))

    def test_drawn_samples(self):
        link = self._link()
        numpy.random.seed(0)
        y = link(rand((4, 3), 2), numpy.array([0, 1, 2, 3], numpy.int32))
        assert y.shape == () and numpy.isfinite(y.array)

    def test_round_trip(self):
        link = check_round_trip(self._link, (), call=lambda link: link.W * 1)
        numpy.testing.assert_array_equal(link.W.array, self._link().W.array)


class TestCRF1d:

    def _link(self):
        return float64(lambda: L.CRF1d(
            3, initial_cost=initializers.Uniform(1)))

    def _data(self):
        lengths = (2, 4, 3)
        xs = [rand((n, 3), i) for i, n in enumerate(lengths)]
        ys = [numpy.random.RandomState(10 + i).randint(0, 3, n).astype(
            numpy.int32) for i, n in enumerate(lengths)]
        return xs, ys

    @staticmethod
    def _time_major(seqs):
        order = sorted(range(len(seqs)), key=lambda i: -len(seqs[i]))
        return [numpy.stack([seqs[i][t] for i in order if len(seqs[i]) > t])
                for t in range(len(seqs[order[0]]))], order

    def test_defaults(self):
        link = L.CRF1d(4)
        assert link.cost.shape == (4, 4) and (link.cost.array == 0).all()
        assert npz_keys(link) == ['cost']

    def test_time_major_matches_function(self):
        link = self._link()
        xs, ys = self._data()
        txs, _ = self._time_major(xs)
        tys, _ = self._time_major(ys)
        assert_allclose(link(txs, tys), F.crf1d(link.cost, txs, tys))
        assert_allclose(link(txs, tys, reduce='no'),
                        F.crf1d(link.cost, txs, tys, reduce='no'))

    def test_transpose(self):
        link = self._link()
        xs, ys = self._data()
        txs, order = self._time_major(xs)
        tys, _ = self._time_major(ys)
        assert_allclose(link(xs, ys, transpose=True),
                        F.crf1d(link.cost, txs, tys))
        losses = link(xs, ys, reduce='no', transpose=True).array
        sorted_losses = F.crf1d(link.cost, txs, tys, reduce='no').array
        for b, i in enumerate(order):
            assert_allclose(losses[i], sorted_losses[b])

    def test_argmax(self):
        link = self._link()
        xs, _ = self._data()
        txs, order = self._time_major(xs)
        score, path = link.argmax(txs)
        ref_score, ref_path = F.argmax_crf1d(link.cost, txs)
        assert_allclose(score, ref_score)
        score_b, paths = link.argmax(xs, transpose=True)
        assert len(paths) == 3
        for b, i in enumerate(order):
            assert len(paths[i]) == len(xs[i])
            numpy.testing.assert_array_equal(
                paths[i], [p[b] for p in path[:len(xs[i])]])
            assert_allclose(score_b.array[i], score.array[b])

    def test_argmax_is_best(self):
        link = self._link()
        x = [rand((3, 3), 5)]
        _, paths = link.argmax(x, transpose=True)
        cost, x0 = link.cost.array, x[0]

        def score(y):
            return sum(x0[t, y[t]] for t in range(3)) + \
                sum(cost[y[t], y[t + 1]] for t in range(2))

        best = max(((a, b, c) for a in range(3) for b in range(3)
                    for c in range(3)), key=score)
        numpy.testing.assert_array_equal(paths[0], best)

    def test_gradients_and_round_trip(self):
        xs, ys = self._data()
        txs, _ = self._time_major(xs)
        tys, _ = self._time_major(ys)
        link = self._link()
        gradient_check.check_backward(
            lambda *steps: link(list(steps), tys), tuple(txs), None,
            params=(link.cost,), eps=1e-6, atol=1e-7, rtol=1e-6)
        link.cleargrads()
        link(xs, ys, transpose=True).backward()
        assert numpy.isfinite(link.cost.grad).all()
        check_round_trip(self._link, (),
                         call=lambda crf: crf(xs, ys, transpose=True))
