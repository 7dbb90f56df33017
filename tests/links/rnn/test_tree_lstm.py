"""ChildSumTreeLSTM and NaryTreeLSTM against the tree LSTM formulas in
NumPy."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.links as L
from chainer_core import gradient_check

from . import arr, close, randomize, roundtrip, sigmoid, uniform


def _make(cls, *args):
    with chainer.using_config('dtype', numpy.float64):
        return randomize(cls(*args))


def _lin(sub, v):
    y = v @ arr(sub.W).T
    return y if sub.b is None else y + arr(sub.b)


def _cell(a, i, o, fs, cs):
    c = numpy.tanh(a) * sigmoid(i)
    for f, c_k in zip(fs, cs):
        c = c + sigmoid(f) * c_k
    return c, sigmoid(o) * numpy.tanh(c)


def _child_sum_ref(link, cs, hs, x):
    n = link.state_size
    wx = _lin(link.W_x, x)
    aio = wx[:, :3 * n]
    fs = []
    if hs:
        aio = aio + _lin(link.W_h_aio, sum(hs))
        fs = [wx[:, 3 * n:] + _lin(link.W_h_f, h) for h in hs]
    return _cell(aio[:, :n], aio[:, n:2 * n], aio[:, 2 * n:], fs, cs)


def _nary_ref(link, cs, hs, x):
    n = link.state_size
    z = _lin(link.W_x, x)
    for k, h in enumerate(hs, 1):
        z = z + _lin(getattr(link, 'W_h{}'.format(k)), h)
    blocks = [z[:, j * n:(j + 1) * n] for j in range(3 + len(hs))]
    return _cell(blocks[0], blocks[1], blocks[2], blocks[3:], cs)


class TestChildSum:

    def test_shapes(self):
        link = L.ChildSumTreeLSTM(3, 4)
        assert link.W_x.W.shape == (16, 3)
        assert link.W_h_aio.W.shape == (12, 4) and link.W_h_aio.b is None
        assert link.W_h_f.W.shape == (4, 4) and link.W_h_f.b is None

    @pytest.mark.parametrize('n_children', [0, 1, 3])
    def test_node(self, n_children):
        rng = numpy.random.RandomState(n_children)
        link = _make(L.ChildSumTreeLSTM, 3, 4)
        cs = [uniform(rng, 2, 4) for _ in range(n_children)]
        hs = [uniform(rng, 2, 4) for _ in range(n_children)]
        x = uniform(rng, 2, 3)
        c, h = link(*(cs + hs + [x]))
        c_ref, h_ref = _child_sum_ref(link, cs, hs, x)
        close(c, c_ref)
        close(h, h_ref)

    def test_none_child_is_zero(self):
        rng = numpy.random.RandomState(5)
        link = _make(L.ChildSumTreeLSTM, 3, 4)
        c1, h1, x = uniform(rng, 2, 4), uniform(rng, 2, 4), uniform(rng, 2, 3)
        z = numpy.zeros((2, 4))
        c, h = link(c1, None, h1, None, x)
        c_ref, h_ref = _child_sum_ref(link, [c1, z], [h1, z], x)
        close(c, c_ref)
        close(h, h_ref)

    def test_gradients(self):
        rng = numpy.random.RandomState(6)
        link = _make(L.ChildSumTreeLSTM, 3, 4)
        ins = tuple(uniform(rng, 2, 4) for _ in range(4)) + (
            uniform(rng, 2, 3),)
        gradient_check.check_backward(
            link, ins, (uniform(rng, 2, 4), uniform(rng, 2, 4)),
            params=tuple(link.params()), eps=1e-6, atol=1e-7, rtol=1e-6)

    def test_even_arguments(self):
        with pytest.raises(ValueError, match='ChildSumTreeLSTM.*got 2'):
            L.ChildSumTreeLSTM(3, 4)(numpy.zeros((1, 4), numpy.float32),
                                     numpy.zeros((1, 3), numpy.float32))


class TestNary:

    def test_shapes_and_keys(self, tmp_path):
        link = _make(L.NaryTreeLSTM, 3, 4, 3)
        assert link.W_x.W.shape == (24, 3)
        for k in (1, 2, 3):
            sub = getattr(link, 'W_h{}'.format(k))
            assert sub.W.shape == (24, 4) and sub.b is None
        keys = roundtrip(tmp_path, link, L.NaryTreeLSTM(3, 4, 3))
        assert keys == ['W_h1/W', 'W_h2/W', 'W_h3/W', 'W_x/W', 'W_x/b']

    def test_node(self):
        rng = numpy.random.RandomState(0)
        link = _make(L.NaryTreeLSTM, 3, 4, 2)
        cs = [uniform(rng, 2, 4) for _ in range(2)]
        hs = [uniform(rng, 2, 4) for _ in range(2)]
        x = uniform(rng, 2, 3)
        c, h = link(*(cs + hs + [x]))
        c_ref, h_ref = _nary_ref(link, cs, hs, x)
        close(c, c_ref)
        close(h, h_ref)

    def test_leaf_and_absent_children(self):
        rng = numpy.random.RandomState(1)
        link = _make(L.NaryTreeLSTM, 3, 4, 2)
        c1, h1, x = uniform(rng, 2, 4), uniform(rng, 2, 4), uniform(rng, 2, 3)
        z = numpy.zeros((2, 4))
        c, h = link(None, None, None, None, x)
        close(h, _nary_ref(link, [z, z], [z, z], x)[1])
        c, h = link(None, c1, None, h1, x)
        c_ref, h_ref = _nary_ref(link, [z, c1], [z, h1], x)
        close(c, c_ref)
        close(h, h_ref)

    def test_gradients(self):
        rng = numpy.random.RandomState(2)
        link = _make(L.NaryTreeLSTM, 3, 4, 2)
        ins = tuple(uniform(rng, 2, 4) for _ in range(4)) + (
            uniform(rng, 2, 3),)
        gradient_check.check_backward(
            link, ins, (uniform(rng, 2, 4), uniform(rng, 2, 4)),
            params=tuple(link.params()), eps=1e-6, atol=1e-7, rtol=1e-6)

    def test_wrong_number_of_arguments(self):
        x = numpy.zeros((1, 3), numpy.float32)
        with pytest.raises(ValueError, match='NaryTreeLSTM: expected 5'):
            L.NaryTreeLSTM(3, 4)(None, None, x)

    def test_bad_n_ary(self):
        with pytest.raises(ValueError, match='NaryTreeLSTM: n_ary must be '
                                             'positive'):
            L.NaryTreeLSTM(3, 4, 0)
