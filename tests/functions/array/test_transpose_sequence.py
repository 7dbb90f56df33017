"""transpose_sequence: batches of the i-th items, transposing back, empty
sequences, gradients, and the checks of Chainer."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F
from chainer_core.utils.type_check import InvalidType

from .. import DTYPES, assert_close, grads, typed


@pytest.mark.parametrize('dtype', DTYPES)
class TestTransposeSequence:

    def test_batches(self, dtype):
        xs = [typed([[1, 2], [3, 4], [5, 6]], dtype),
              typed([[7, 8], [9, 10]], dtype), typed([[11, 12]], dtype)]
        ys = F.transpose_sequence(xs)
        assert len(ys) == 3
        assert_close(ys[0], [[1, 2], [7, 8], [11, 12]], dtype)
        assert_close(ys[1], [[3, 4], [9, 10]], dtype)
        assert_close(ys[2], [[5, 6]], dtype)
        back = F.transpose_sequence(ys)
        for x, b in zip(xs, back):
            assert_close(b, x, dtype)

    def test_gradient(self, dtype):
        xs = [chainer.Variable(typed(v, dtype))
              for v in ([1, 2, 3], [4, 5], [6], [])]
        ys = F.transpose_sequence(xs)
        loss = F.sum(ys[0] * 1) + F.sum(ys[1] * 2)
        gs = grads(loss, xs)
        assert_close(gs[0], [1, 2, 0], dtype)
        assert_close(gs[1], [1, 2], dtype)
        assert_close(gs[2], [1], dtype)
        assert gs[3].shape == (0,)


def test_empty():
    assert F.transpose_sequence([]) == ()
    assert F.transpose_sequence([numpy.zeros((0, 2)),
                                 numpy.zeros((0, 2))]) == ()


def test_longer_after_shorter_is_refused():
    with pytest.raises(InvalidType, match='xs'):
        F.transpose_sequence([numpy.zeros(2), numpy.zeros(3)])
