"""The stacked RNN links over lists of sequences (NStepLSTM, NStepBiLSTM,
NStepGRU, NStepBiGRU, NStepRNNTanh, NStepRNNReLU, NStepBiRNNTanh,
NStepBiRNNReLU): parameter layout and names, forward against the n_step
function called with the link's parameters on sorted time-major batches,
sequence order, initial states, dropout and serialization."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F
import chainer_core.links as L

from . import arr, close, randomize, roundtrip

F64 = numpy.float64

# class: (n_weights, directions, has a cell state, function)
KINDS = {
    L.NStepLSTM: (8, 1, True, F.n_step_lstm),
    L.NStepBiLSTM: (8, 2, True, F.n_step_bilstm),
    L.NStepGRU: (6, 1, False, F.n_step_gru),
    L.NStepBiGRU: (6, 2, False, F.n_step_bigru),
    L.NStepRNNTanh: (2, 1, False, F.n_step_rnn),
    L.NStepRNNReLU: (2, 1, False,
                     lambda *a: F.n_step_rnn(*a, activation='relu')),
    L.NStepBiRNNTanh: (2, 2, False, F.n_step_birnn),
    L.NStepBiRNNReLU: (2, 2, False,
                       lambda *a: F.n_step_birnn(*a, activation='relu')),
}
cls_param = pytest.mark.parametrize(
    'cls', list(KINDS), ids=lambda c: c.__name__)

N_LAYERS, IN, OUT = 2, 3, 4
LENGTHS = (2, 4, 1, 4, 3)


def _make(cls, *args, **kwargs):
    with chainer.using_config('dtype', F64):
        link = cls(*args, **kwargs) if args else \
            cls(N_LAYERS, IN, OUT, 0.0, **kwargs)
    randomize(link)
    # Keep relu units alive.
    for p in link.params():
        if p.name.startswith('b'):
            p.array += 0.3
    return link


def _inputs(cls, lengths=LENGTHS, seed=0):
    rng = numpy.random.RandomState(seed)
    directions = KINDS[cls][1]
    shape = (N_LAYERS * directions, len(lengths), OUT)
    hx = rng.uniform(-1, 1, shape)
    cx = rng.uniform(-1, 1, shape) if KINDS[cls][2] else None
    xs = [rng.uniform(-1, 1, (n, IN)) for n in lengths]
    return hx, cx, xs


def _call(cls, link, hx, cx, xs, **kwargs):
    """``(hy, cy, ys)`` of the link (cy None without a cell state)."""
    if KINDS[cls][2]:
        return link(hx, cx, xs, **kwargs)
    hy, ys = link(hx, xs, **kwargs)
    return hy, None, ys


def _expected(cls, link, hx, cx, xs):
    """The n_step function on the sequences sorted by decreasing length
    and made time-major by hand, results put back in the given order."""
    _, _, has_cell, func = KINDS[cls]
    order = sorted(range(len(xs)), key=lambda i: -len(xs[i]))
    steps = [numpy.stack([xs[i][t] for i in order if len(xs[i]) > t])
             for t in range(len(xs[order[0]]))]
    ws = [[p.array for p in ww] for ww in link.ws]
    bs = [[p.array for p in bb] for bb in link.bs]
    if has_cell:
        hy, cy, ys = func(N_LAYERS, 0.0, hx[:, order], cx[:, order], ws, bs,
                          steps)
    else:
        (hy, ys), cy = func(N_LAYERS, 0.0, hx[:, order], ws, bs, steps), None
    back = numpy.argsort(order)
    out = [numpy.stack([arr(ys[t])[k] for t in range(len(xs[i]))])
           for k, i in enumerate(order)]
    return (arr(hy)[:, back], None if cy is None else arr(cy)[:, back],
            [out[k] for k in back])


@cls_param
class TestNStepLinks:

    def test_parameter_names_and_shapes(self, cls):
        n_weights, directions, _, _ = KINDS[cls]
        link = cls(N_LAYERS, IN, OUT, 0.1)
        assert len(link) == N_LAYERS * directions
        names = {name: p.shape for name, p in link.namedparams()}
        expected = {}
        for i in range(N_LAYERS * directions):
            for j in range(n_weights):
                if j >= n_weights // 2:
                    cols = OUT
                elif i >= directions:
                    cols = OUT * directions
                else:
                    cols = IN
                expected['/{}/w{}'.format(i, j)] = (OUT, cols)
                expected['/{}/b{}'.format(i, j)] = (OUT,)
        assert names == expected
        assert link.n_layers == N_LAYERS and link.out_size == OUT
        assert link.direction == directions and link.dropout == 0.1
        assert link.n_cells == (2 if KINDS[cls][2] else 1)
        assert link.ws[1][0] is link[1].w0 and link.bs[0][1] is link[0].b1

    def test_default_initialization(self, cls):
        link = cls(1, 40, 30, 0.0)
        for ww, bb in zip(link.ws, link.bs):
            for w in ww:
                fan_in = w.shape[1]
                assert abs(w.array.std() - numpy.sqrt(1 / fan_in)) < \
                    0.2 * numpy.sqrt(1 / fan_in)
            for b in bb:
                numpy.testing.assert_array_equal(b.array, 0)

    def test_initializers(self, cls):
        link = cls(N_LAYERS, IN, OUT, 0.0, initialW=0.5, initial_bias=-1)
        for p in link.params():
            numpy.testing.assert_array_equal(
                p.array, 0.5 if p.name.startswith('w') else -1)

    def test_forward_equals_the_function(self, cls):
        link = _make(cls)
        hx, cx, xs = _inputs(cls)
        hy, cy, ys = _call(cls, link, hx, cx, xs)
        ref_hy, ref_cy, ref_ys = _expected(cls, link, hx, cx, xs)
        assert hy.shape == hx.shape
        close(hy, ref_hy)
        if cx is not None:
            close(cy, ref_cy)
        assert isinstance(ys, list) and len(ys) == len(xs)
        for y, ref, x in zip(ys, ref_ys, xs):
            assert y.shape == (len(x), OUT * KINDS[cls][1])
            close(y, ref)

    def test_order_of_the_sequences_does_not_matter(self, cls):
        link = _make(cls)
        hx, cx, xs = _inputs(cls)
        hy, cy, ys = _call(cls, link, hx, cx, xs)
        perm = [3, 0, 4, 2, 1]
        hy2, cy2, ys2 = _call(cls, link, hx[:, perm],
                              None if cx is None else cx[:, perm],
                              [xs[i] for i in perm])
        close(hy2, arr(hy)[:, perm])
        if cx is not None:
            close(cy2, arr(cy)[:, perm])
        for k, i in enumerate(perm):
            close(ys2[k], ys[i])

    def test_sorted_equal_lengths_and_one_sequence(self, cls):
        link = _make(cls)
        for lengths in ((3, 3), (4,), (1, 1, 1), (3, 2, 2)):
            hx, cx, xs = _inputs(cls, lengths)
            hy, cy, ys = _call(cls, link, hx, cx, xs)
            ref_hy, _, ref_ys = _expected(cls, link, hx, cx, xs)
            close(hy, ref_hy)
            for y, ref in zip(ys, ref_ys):
                close(y, ref)

    def test_empty_sequence(self, cls):
        link = _make(cls)
        hx, cx, xs = _inputs(cls, (2, 0, 3))
        hy, cy, ys = _call(cls, link, hx, cx, xs)
        assert ys[1].shape == (0, OUT * KINDS[cls][1])
        numpy.testing.assert_array_equal(arr(hy)[:, 1], hx[:, 1])
        keep = [0, 2]
        hy2, _, ys2 = _call(cls, link, hx[:, keep],
                            None if cx is None else cx[:, keep],
                            [xs[0], xs[2]])
        close(arr(hy)[:, keep], hy2)
        close(ys[2], ys2[1])

    def test_none_states_are_zeros(self, cls):
        link = _make(cls)
        hx, cx, xs = _inputs(cls)
        hy, cy, ys = _call(cls, link, None, None, xs)
        zeros = numpy.zeros_like(hx)
        hy2, cy2, ys2 = _call(cls, link, zeros,
                              None if cx is None else zeros, xs)
        close(hy, hy2)
        if cx is not None:
            close(cy, cy2)
        for y, y2 in zip(ys, ys2):
            close(y, y2)

    def test_gradients_reach_every_parameter_and_input(self, cls):
        link = _make(cls)
        hx, cx, xs = _inputs(cls)
        xs = [chainer.Variable(x) for x in xs]
        hx = chainer.Variable(hx)
        hy, cy, ys = _call(cls, link, hx, cx, xs)
        loss = F.sum(hy * hy) + sum(F.sum(y * y) for y in ys)
        link.cleargrads()
        loss.backward()
        for name, p in link.namedparams():
            assert p.grad is not None and numpy.abs(p.grad).max() > 0, name
        assert all(numpy.abs(x.grad).max() > 0 for x in xs)
        assert hx.grad.shape == hx.shape

    def test_dropout(self, cls):
        link = _make(cls)
        link.dropout = 0.5
        hx, cx, xs = _inputs(cls)
        with chainer.using_config('train', False):
            plain = _call(cls, link, hx, cx, xs)[0].array
        with chainer.using_config('train', True):
            dropped = _call(cls, link, hx, cx, xs)[0].array
        link.dropout = 0.0
        close(plain, _call(cls, link, hx, cx, xs)[0])
        directions = KINDS[cls][1]
        close(dropped[:directions], plain[:directions])
        assert not numpy.allclose(dropped[directions:], plain[directions:])

    def test_serialization(self, cls, tmp_path):
        link = _make(cls)
        with chainer.using_config('dtype', F64):
            fresh = cls(N_LAYERS, IN, OUT, 0.0)
        keys = roundtrip(tmp_path, link, fresh)
        n_weights, directions = KINDS[cls][:2]
        assert keys == sorted('{}/{}{}'.format(i, k, j)
                              for i in range(N_LAYERS * directions)
                              for k in 'wb' for j in range(n_weights))
        hx, cx, xs = _inputs(cls)
        close(_call(cls, fresh, hx, cx, xs)[0], _call(cls, link, hx, cx,
                                                      xs)[0])

    def test_copy_has_its_own_ws(self, cls):
        link = _make(cls)
        copied = link.copy('copy')
        assert copied.ws[0][0] is copied[0].w0
        assert copied.ws[0][0] is not link.ws[0][0]
        numpy.testing.assert_array_equal(copied.ws[0][0].array,
                                         link.ws[0][0].array)

    def test_arguments(self, cls):
        with pytest.raises(ValueError, match='use_cudnn'):
            cls(1, IN, OUT, 0.0, use_cudnn=False)
        with pytest.raises(TypeError, match='bogus'):
            cls(1, IN, OUT, 0.0, bogus=1)
        link = _make(cls)
        hx, cx, xs = _inputs(cls)
        with pytest.raises(ValueError, match='train'):
            _call(cls, link, hx, cx, xs, train=True)
        with pytest.raises(ValueError, match='xs'):
            _call(cls, link, hx, cx, [])


@pytest.mark.parametrize('cls', [L.NStepLSTM, L.NStepGRU, L.NStepRNNTanh,
                                 L.NStepBiLSTM])
def test_initializers_are_keyword_only(cls):
    # As in Chainer v7: a fifth positional argument is not initialW.
    with pytest.raises(TypeError):
        cls(1, 3, 4, 0.0, 1.0)
    link = cls(1, 3, 4, 0.0, initialW=0.5, initial_bias=0.25)
    numpy.testing.assert_array_equal(link[0].w0.array, 0.5)
    numpy.testing.assert_array_equal(link[0].b0.array, 0.25)
