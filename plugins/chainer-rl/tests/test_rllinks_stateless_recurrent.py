"""Stateless recurrent containers: whole sequences against step-by-step
runs and one sequence at a time, the state slicing, masking and batching,
on every device."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F
import chainer_core.links as L

from chainer_rl import links

from array_testing import host


def _model(rnn):
    numpy.random.seed(0)
    return links.StatelessRecurrentSequential(
        L.Linear(3, 4), F.relu, rnn, L.Linear(5, 2))


def _sequences(device, lengths=(2, 4, 3)):
    rng = numpy.random.RandomState(1)
    return [rng.standard_normal((t, 3)).astype(numpy.float32)
            for t in lengths]


@pytest.mark.parametrize('rnn', ['lstm', 'gru'])
def test_sequences_match_separate_and_stepwise_runs(device, rnn):
    model = _model(L.NStepLSTM(1, 4, 5, 0.0) if rnn == 'lstm'
                   else L.NStepGRU(2, 4, 5, 0.0))
    model.to_device(device)
    seqs = _sequences(device)
    dev_seqs = [device.send(s) for s in seqs]
    out, state = model.n_step_forward(dev_seqs, None, output_mode='concat')
    assert out.shape == (9, 2)
    split, _ = model.n_step_forward(dev_seqs, None, output_mode='split')
    assert [y.shape for y in split] == [(2, 2), (4, 2), (3, 2)]
    numpy.testing.assert_allclose(
        host(out), numpy.concatenate([host(y) for y in split]), rtol=1e-5)
    # Each sequence alone gives the same outputs.
    for seq, y in zip(dev_seqs, split):
        alone, _ = model.n_step_forward([seq], None, output_mode='concat')
        numpy.testing.assert_allclose(host(alone), host(y), rtol=1e-5,
                                      atol=1e-6)
    # Stepping through the batch of the first two steps of each sequence.
    step_state = None
    for t in range(2):
        x = device.send(numpy.stack([s[t] for s in seqs]))
        y, step_state = model(x, step_state)
        numpy.testing.assert_allclose(
            host(y), numpy.stack([host(s)[t] for s in split]), rtol=1e-5,
            atol=1e-6)
    assert len(state) == 1 and len(model.recurrent_children) == 1


def test_state_slicing_masking_and_batching(device):
    model = _model(L.NStepLSTM(1, 4, 5, 0.0))
    model.to_device(device)
    seqs = [device.send(s) for s in _sequences(device)]
    _, state = model.n_step_forward(seqs, None, output_mode='concat')
    (h, c), = state
    assert h.shape == (1, 3, 5)
    row = model.get_recurrent_state_at(state, 1, unwrap_variable=True)
    assert not isinstance(row[0][0], chainer.Variable)
    numpy.testing.assert_array_equal(host(row[0][0]), host(h)[:, 1])
    rows = model.get_recurrent_state_at(state, [2, 0], unwrap_variable=False)
    assert isinstance(rows[0][0], chainer.Variable)
    numpy.testing.assert_array_equal(host(rows[0][1]), host(c)[:, [2, 0]])
    batched = model.concatenate_recurrent_states([row, None, row])
    bh, bc = batched[0]
    expected_h = numpy.zeros((1, 3, 5), numpy.float32)
    expected_h[:, [0, 2]] = host(h)[:, 1:2]
    numpy.testing.assert_array_equal(host(bh), expected_h)
    assert bc.shape == (1, 3, 5)
    masked = model.mask_recurrent_state_at(state, [0, 2])
    mh = host(masked[0][0])
    assert (mh[:, [0, 2]] == 0).all()
    numpy.testing.assert_array_equal(mh[:, 1], host(h)[:, 1])
    # A masked row starts afresh: same outputs as with no state at all.
    x = device.send(numpy.ones((3, 3), numpy.float32))
    y_masked, _ = model(x, masked)
    y_fresh, _ = model(x, None)
    numpy.testing.assert_allclose(host(y_masked)[[0, 2]],
                                  host(y_fresh)[[0, 2]], rtol=1e-6)
    assert model.mask_recurrent_state_at(None, 0) is None
    assert model.get_recurrent_state_at(None, 0, True) == (None,)


def test_nested_and_branched(device):
    numpy.random.seed(2)
    inner = links.StatelessRecurrentSequential(L.NStepGRU(1, 3, 4, 0.0))
    outer = links.StatelessRecurrentSequential(inner, L.Linear(4, 2))
    branched = links.StatelessRecurrentBranched(
        L.NStepLSTM(1, 3, 2, 0.0), L.Linear(3, 1), outer)
    branched.to_device(device)
    seqs = [device.send(s) for s in _sequences(device, (3, 1))]
    (lstm_y, lin_y, outer_y), state = branched.n_step_forward(
        seqs, None, output_mode='concat')
    assert lstm_y.shape == (4, 2) and lin_y.shape == (4, 1)
    assert outer_y.shape == (4, 2)
    assert len(state) == 2 and len(state[1]) == 1
    split, _ = branched.n_step_forward(seqs, None, output_mode='split')
    assert len(split) == 2 and len(split[0]) == 3
    assert split[1][1].shape == (1, 1)
    numpy.testing.assert_allclose(host(split[0][2]), host(outer_y)[:3],
                                  rtol=1e-6)
    row = branched.get_recurrent_state_at(state, 0, unwrap_variable=True)
    again = branched.concatenate_recurrent_states([row, row])
    # outer's state holds inner's, which holds the GRU's.
    numpy.testing.assert_array_equal(host(again[1][0][0]),
                                     host(state[1][0][0])[:, [0, 0]])


def test_multiple_inputs():
    model = links.StatelessRecurrentSequential(
        lambda a, b: a + b, L.NStepRNNTanh(1, 2, 2, 0.0))
    seqs = [(numpy.ones((2, 2), numpy.float32),
             numpy.ones((2, 2), numpy.float32))]
    y, _ = model.n_step_forward(seqs, None, output_mode='concat')
    assert y.shape == (2, 2)
    y, _ = model((numpy.ones((3, 2), numpy.float32),
                  numpy.zeros((3, 2), numpy.float32)), None)
    assert y.shape == (3, 2)


def test_checks():
    model = _model(L.NStepLSTM(1, 4, 5, 0.0))
    seqs = [numpy.ones((2, 3), numpy.float32)]
    with pytest.raises(ValueError, match="output_mode must be one of"):
        model.n_step_forward(seqs, None, output_mode='stack')
    with pytest.raises(ValueError, match='expected a state for each of the 1'):
        model.n_step_forward(seqs, (None, None), output_mode='concat')
    with pytest.raises(ValueError, match='not a recurrent link'):
        links.call_recurrent_link(L.Linear(2, 2), seqs, None, 'concat')
    assert links.is_recurrent_link(model)
    assert not links.is_recurrent_link(F.relu)
    with pytest.raises(NotImplementedError):
        links.StatelessRecurrent().n_step_forward(seqs, None, 'concat')
