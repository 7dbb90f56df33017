"""n_step_lstm, n_step_bilstm: stacked LSTMs over time-major mini-batches
of sequences sorted by decreasing length (the shared checks are in
_n_step_ref), and the gate layout of the weights."""
import numpy

import chainer_core.functions as F

from ._n_step_ref import NStepChecks, close, lstm_cell


class TestNStepLSTM(NStepChecks):
    func = F.n_step_lstm
    cell = lstm_cell
    n_weights = 8
    cell_state = True
    direction = 1

    def test_gate_layout(self):
        # W_0/W_4 drive the input gate, W_1/W_5 the forget gate, W_2/W_6
        # the cell input and W_3/W_7 the output gate: set one input weight
        # to the identity and the others to zero (so the other gates sit
        # at sigmoid(0) = 1/2 and tanh(0) = 0) and see which gate moved.
        units = 2
        x = numpy.array([[0.5, -0.3]])
        c0 = 0.7
        hx = numpy.zeros((1, 1, units))
        cx = numpy.full((1, 1, units), c0)

        def run(k):
            ws = [[numpy.eye(units) if j == k else
                   numpy.zeros((units, units)) for j in range(8)]]
            bs = [[numpy.zeros(units) for _ in range(8)]]
            hy, cy, ys = F.n_step_lstm(1, 0.0, hx, cx, ws, bs, [x])
            close(ys[0].array, hy.array[0])
            return hy.array[0, 0], cy.array[0, 0]

        sig, tanh = 1 / (1 + numpy.exp(-x[0])), numpy.tanh(x[0])
        half = 0.5 * c0
        for k, c in ((0, half), (1, sig * c0), (2, half + 0.5 * tanh),
                     (3, half)):
            h_got, c_got = run(k)
            close(c_got, numpy.broadcast_to(c, (units,)))
            out = sig if k == 3 else 0.5
            close(h_got, out * numpy.tanh(c_got))


class TestNStepBiLSTM(NStepChecks):
    func = F.n_step_bilstm
    cell = lstm_cell
    n_weights = 8
    cell_state = True
    direction = 2
