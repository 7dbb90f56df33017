"""Sequential against Chainer v7's semantics."""
import functools
import io
import pickle

import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F
import chainer_core.links as L
from chainer_core import serializers
from chainer_core.link import Chain
from chainer_core.sequential import Sequential


def _x():
    return numpy.linspace(-1, 1, 6, dtype=numpy.float32).reshape(2, 3)


def _names(pairs):
    return [name for name, _ in pairs]


def _relu(x):
    return numpy.maximum(x, 0)


class TestSequential:

    def setup_method(self):
        self.l1 = L.Linear(3, 4)
        self.l2 = L.Linear(4, 2)
        self.seq = Sequential(self.l1, F.relu, self.l2)

    def test_forward(self):
        y = self.seq(_x())
        h = _relu(_x().dot(self.l1.W.array.T) + self.l1.b.array)
        expected = h.dot(self.l2.W.array.T) + self.l2.b.array
        numpy.testing.assert_allclose(y.array, expected, rtol=1e-6)

    def test_children_and_params(self):
        assert len(self.seq) == 3
        assert list(self.seq.children()) == [self.l1, self.l2]
        assert (self.l1.name, self.l2.name) == ('0', '1')
        assert _names(self.seq.namedparams()) == [
            '/0/W', '/0/b', '/1/W', '/1/b']
        assert self.seq[1] is F.relu and list(self.seq)[2] is self.l2

    def test_tuple_outputs_spread(self):
        seq = Sequential(lambda x: (x, 2 * x), lambda a, b: a + b)
        numpy.testing.assert_array_equal(seq(numpy.ones(2)), [3, 3])

    def test_multiple_inputs(self):
        seq = Sequential(lambda a, b: a * b)
        assert seq(2, 5) == 10

    def test_empty_forward(self):
        with pytest.raises(RuntimeError):
            Sequential()(_x())

    def test_not_callable(self):
        with pytest.raises(ValueError):
            Sequential(3)
        with pytest.raises(ValueError):
            self.seq.append('x')

    def test_append_and_insert(self):
        l3 = L.Linear(2, 2)
        self.seq.append(l3)
        assert l3.name == '2'
        l0 = L.Linear(3, 3)
        self.seq.insert(0, l0)
        assert [c.name for c in self.seq.children()] == ['0', '1', '2', '3']
        assert list(self.seq.children()) == [l0, self.l1, self.l2, l3]
        self.seq.insert(-1, F.sigmoid)
        assert self.seq[-2] is F.sigmoid and len(self.seq) == 6
        with pytest.raises(IndexError):
            self.seq.insert(20, F.relu)

    def test_insert_between_functions(self):
        seq = Sequential(F.relu, self.l2, F.relu)
        l0 = L.Linear(3, 4)
        seq.insert(1, l0)
        assert list(seq.children()) == [l0, self.l2]
        assert _names(seq.namedparams())[0] == '/0/W'

    def test_delitem_and_pop(self):
        del self.seq[0]
        assert list(self.seq.children()) == [self.l2]
        assert self.l2.name == '0'
        assert self.seq.pop() is self.l2
        assert list(self.seq.children()) == [] and len(self.seq) == 1
        assert self.seq.pop(0) is F.relu

    def test_setitem(self):
        new = L.Linear(3, 4)
        self.seq[0] = new
        assert list(self.seq.children()) == [new, self.l2]
        self.seq[1] = F.sigmoid
        assert self.seq[1] is F.sigmoid
        with pytest.raises(ValueError):
            self.seq[0] = 1

    def test_remove(self):
        self.seq.remove(F.relu)
        assert list(self.seq) == [self.l1, self.l2]
        with pytest.raises(ValueError):
            self.seq.remove(F.relu)

    def test_list_queries(self):
        assert F.relu in self.seq and F.sigmoid not in self.seq
        assert self.seq.index(self.l2) == 2
        assert self.seq.index(self.l2, 1) == 2
        assert self.seq.count(F.relu) == 1
        assert list(reversed(self.seq)) == [self.l2, F.relu, self.l1]
        assert self.seq.count_by_layer_type('Linear') == 2
        assert self.seq.count_by_layer_type('relu') == 1

    def test_remove_by_layer_type(self):
        self.seq.remove_by_layer_type('Linear')
        assert list(self.seq) == [F.relu]
        assert list(self.seq.children()) == []

    def test_clear(self):
        self.seq.clear()
        assert len(self.seq) == 0 and list(self.seq.params()) == []

    def test_add(self):
        other = Sequential(F.sigmoid, L.Linear(2, 2))
        both = self.seq + other
        assert len(both) == 5 and len(self.seq) == 3
        assert _names(both.namedlinks(skipself=True)) == ['/0', '/1', '/2']
        with pytest.raises(ValueError):
            self.seq + [F.relu]

    def test_iadd(self):
        seq = self.seq
        seq += Sequential(F.sigmoid)
        assert seq is self.seq and len(seq) == 4
        with pytest.raises(ValueError):
            seq += F.relu

    def test_extend(self):
        self.seq.extend([F.sigmoid, L.Linear(2, 3)])
        assert len(self.seq) == 5 and len(list(self.seq.children())) == 3

    def test_flatten(self):
        inner = Sequential(L.Linear(2, 2), F.relu)
        outer = Sequential(self.l1, Sequential(F.relu, inner))
        flat = outer.flatten()
        assert len(flat) == 4
        assert flat[0] is self.l1 and flat[2] is inner[0]

    def test_copy(self):
        for mode in ('share', 'copy', 'init'):
            c = self.seq.copy(mode)
            assert isinstance(c, Sequential) and len(c) == 3
            assert c[1] is F.relu and c[0] is not self.l1
            assert (c[0].W.array is self.l1.W.array) == (mode == 'share')
            same = numpy.array_equal(c[0].W.array, self.l1.W.array)
            assert same == (mode != 'init')
        with pytest.raises(ValueError):
            self.seq.copy('bad')

    def test_copyparams(self):
        other = Sequential(L.Linear(3, 4), F.relu, L.Linear(4, 2))
        other.copyparams(self.seq)
        numpy.testing.assert_array_equal(other[2].W.array, self.l2.W.array)
        with pytest.raises(ValueError):
            other.copyparams(Chain())

    def test_repeat(self):
        block = Sequential(L.Linear(3, 3), F.relu)
        rep = block.repeat(2)
        assert len(rep) == 2 and isinstance(rep[0], Sequential)
        assert _names(rep.namedparams())[:2] == ['/0/0/W', '/0/0/b']
        assert rep(numpy.ones((1, 3), numpy.float32)).shape == (1, 3)

    def test_serialization_round_trip(self):
        buf = io.BytesIO()
        serializers.save_npz(buf, self.seq)
        buf.seek(0)
        with numpy.load(buf) as npz:
            assert sorted(npz.files) == ['0/W', '0/b', '1/W', '1/b']
        buf.seek(0)
        dst = Sequential(L.Linear(3, 4), F.relu, L.Linear(4, 2))
        serializers.load_npz(buf, dst)
        numpy.testing.assert_array_equal(dst(_x()).array,
                                         self.seq(_x()).array)

    def test_lazy_links(self):
        seq = Sequential(L.Linear(None, 5), F.relu, L.Linear(None, 2))
        assert seq(numpy.ones((3, 7), numpy.float32)).shape == (3, 2)
        assert seq[0].W.shape == (5, 7) and seq[2].W.shape == (2, 5)

    def test_backward(self):
        self.seq.cleargrads()
        F.sum(self.seq(_x())).backward()
        assert all(p.grad is not None for p in self.seq.params())

    def test_pickle_with_partial(self):
        seq = Sequential(L.Linear(3, 2), functools.partial(F.leaky_relu,
                                                           slope=0.1))
        seq2 = pickle.loads(pickle.dumps(seq))
        numpy.testing.assert_array_equal(seq2(_x()).array, seq(_x()).array)

    def test_in_chain(self):
        chain = Chain()
        with chain.init_scope():
            chain.body = self.seq
        assert _names(chain.namedparams())[0] == '/body/0/W'

    def test_str(self):
        seq = Sequential(L.Linear(3, 2), F.relu)
        assert str(seq) == (
            'Sequential(\n'
            '  (0): Linear(in_size=3, out_size=2, nobias=False),\n'
            '  (1): {},\n'
            ')'.format(F.relu))
        assert str(Sequential()) == 'Sequential()'

    def test_str_of_lambda_shows_source(self):
        seq = Sequential(lambda x: x + 1)
        assert 'lambda x: x + 1' in str(seq)

    def test_to_device(self):
        assert self.seq.to_device('@numpy') is self.seq
        assert self.l1.device.name == '@numpy'
        assert isinstance(self.seq(chainer.Variable(_x())),
                          chainer.Variable)
