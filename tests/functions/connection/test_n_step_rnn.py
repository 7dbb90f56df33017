"""n_step_rnn, n_step_birnn: stacked Elman RNNs (tanh or relu) over
time-major mini-batches of sequences sorted by decreasing length (the
shared checks are in _n_step_ref)."""
import numpy
import pytest

import chainer_core.functions as F

from ._n_step_ref import NStepChecks, close, rnn_cell


class TestNStepRNNTanh(NStepChecks):
    func = F.n_step_rnn
    cell = rnn_cell(F.tanh)
    n_weights = 2
    direction = 1

    def test_default_activation_is_tanh(self):
        hx, _, ws, bs, xs = self.args()
        hy, ys = F.n_step_rnn(2, 0.0, hx, ws, bs, xs)
        hy2, ys2 = F.n_step_rnn(2, 0.0, hx, ws, bs, xs, activation='tanh')
        numpy.testing.assert_array_equal(hy.array, hy2.array)

    @pytest.mark.parametrize('func', [F.n_step_rnn, F.n_step_birnn])
    def test_bad_activation(self, func):
        hx, _, ws, bs, xs = self.args()
        with pytest.raises(ValueError, match='activation'):
            func(2, 0.0, hx, ws, bs, xs, activation='sigmoid')


class TestNStepRNNReLU(NStepChecks):
    func = F.n_step_rnn
    cell = rnn_cell(F.relu)
    n_weights = 2
    direction = 1
    kwargs = {'activation': 'relu'}
    bias_offset = 0.3

    def test_relu_clips_negative_states(self):
        hx, _, ws, bs, xs = self.args()
        hy, ys = F.n_step_rnn(2, 0.0, hx, ws, bs, xs, activation='relu')
        assert (hy.array >= 0).all()
        assert all((y.array >= 0).all() for y in ys)
        assert (hy.array == 0).any()


class TestNStepBiRNNTanh(NStepChecks):
    func = F.n_step_birnn
    cell = rnn_cell(F.tanh)
    n_weights = 2
    direction = 2


class TestNStepBiRNNReLU(NStepChecks):
    func = F.n_step_birnn
    cell = rnn_cell(F.relu)
    n_weights = 2
    direction = 2
    kwargs = {'activation': 'relu'}
    bias_offset = 0.3

    def test_one_step_equals_both_directions_of_one_cell(self):
        # With a single time step both directions see the same input.
        hx, _, ws, bs, xs = self.args(n_layers=1, batches=(2,))
        hy, ys = F.n_step_birnn(1, 0.0, hx, ws, bs, xs, activation='relu')
        for d in range(2):
            ref = numpy.maximum(xs[0] @ ws[d][0].T + bs[d][0] +
                                hx[d] @ ws[d][1].T + bs[d][1], 0)
            close(hy.array[d], ref)
            close(ys[0].array[:, 3 * d:3 * d + 3], ref)
