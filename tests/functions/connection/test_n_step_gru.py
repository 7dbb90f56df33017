"""n_step_gru, n_step_bigru: stacked GRUs over time-major mini-batches of
sequences sorted by decreasing length (the shared checks are in
_n_step_ref), and the roles of the six weights."""
import numpy

import chainer_core.functions as F

from ._n_step_ref import NStepChecks, close, gru_cell


class TestNStepGRU(NStepChecks):
    func = F.n_step_gru
    cell = gru_cell
    n_weights = 6
    direction = 1

    def test_update_gate_keeps_the_state(self):
        # z = 1 (b_1 large): h_t = h_{t-1} whatever the input.
        units = 2
        rng = numpy.random.RandomState(0)
        ws = [[rng.uniform(-1, 1, (units, units)) for _ in range(6)]]
        bs = [[numpy.full(units, 60.0) if j == 1 else numpy.zeros(units)
               for j in range(6)]]
        hx = rng.uniform(-1, 1, (1, 2, units))
        xs = [rng.uniform(-1, 1, (2, units)) for _ in range(3)]
        hy, ys = F.n_step_gru(1, 0.0, hx, ws, bs, xs)
        close(hy.array, hx)

    def test_reset_gate_scales_the_hidden_bias(self):
        # r = 0 (b_0 very negative): b_5 and W_5 have no effect.
        units = 2
        rng = numpy.random.RandomState(1)
        ws = [[rng.uniform(-1, 1, (units, units)) for _ in range(6)]]
        bs = [[numpy.full(units, -60.0) if j == 0 else
               rng.uniform(-1, 1, units) for j in range(6)]]
        hx = rng.uniform(-1, 1, (1, 1, units))
        xs = [rng.uniform(-1, 1, (1, units))]
        hy, _ = F.n_step_gru(1, 0.0, hx, ws, bs, xs)
        ws2 = [ws[0][:5] + [ws[0][5] * 3]]
        bs2 = [bs[0][:5] + [bs[0][5] + 1]]
        hy2, _ = F.n_step_gru(1, 0.0, hx, ws2, bs2, xs)
        close(hy.array, hy2.array)


class TestNStepBiGRU(NStepChecks):
    func = F.n_step_bigru
    cell = gru_cell
    n_weights = 6
    direction = 2
