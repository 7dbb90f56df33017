"""BinaryHierarchicalSoftmax: the loss against a NumPy walk down the tree,
gradients, Huffman trees (as Chainer 7.8.1 builds them) and bad input."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.links as L
from chainer_core import gradient_check

from ._util import npz_keys, rand

H = L.BinaryHierarchicalSoftmax
TREE = ((0, 1), (2, (3, 4)))


def _walk(tree, word):
    """``[(node_id, branch)]`` from the root to ``word``; inner nodes are
    numbered in pre-order, +1 is the left branch."""
    counter = [0]

    def visit(node, path):
        if not isinstance(node, tuple):
            return path if node == word else None
        me = counter[0]
        counter[0] += 1
        left = visit(node[0], path + [(me, 1.0)])
        right = visit(node[1], path + [(me, -1.0)])
        return left if left is not None else right

    return visit(tree, [])


def _loss_ref(W, x, t, tree=TREE):
    total = 0.0
    for xi, ti in zip(x, t):
        for n, s in _walk(tree, ti):
            total += numpy.logaddexp(0, -s * W[n].dot(xi))
    return total


def _make(in_size=3, tree=TREE):
    with chainer.using_config('dtype', numpy.float64):
        return H(in_size, tree)


def test_parameter():
    link = H(3, TREE)
    assert link.W.shape == (4, 3) and link.W.dtype == numpy.float32
    assert numpy.abs(link.W.array).max() <= 1
    assert npz_keys(link) == ['W']
    assert H(3, TREE, dtype=numpy.float64).W.dtype == numpy.float64
    with chainer.using_config('dtype', chainer.mixed16):
        assert H(3, TREE).W.dtype == numpy.float16


def test_loss():
    link = _make()
    x = rand((5, 3), 0)
    t = numpy.array([0, 2, 4, 1, 3], numpy.int32)
    y = link(x, t)
    assert y.shape == () and y.dtype == numpy.float64
    numpy.testing.assert_allclose(y.array, _loss_ref(link.W.array, x, t),
                                  rtol=1e-12)


def test_probabilities_sum_to_one():
    link = _make()
    x = rand((1, 3), 1)
    p = [numpy.exp(-link(x, numpy.array([w], numpy.int32)).array)
         for w in range(5)]
    numpy.testing.assert_allclose(sum(p), 1.0, rtol=1e-12)


def test_large_scores_do_not_overflow():
    link = _make()
    link.W.array[...] = 1000
    y = link(numpy.ones((1, 3)), numpy.array([4], numpy.int32))
    # Three right branches, each scored -3000: softplus(3000) each.
    numpy.testing.assert_allclose(y.array, 9000)


def test_gradients():
    link = _make()
    x = rand((4, 3), 2)
    t = numpy.array([0, 2, 4, 4], numpy.int32)
    gradient_check.check_backward(
        lambda x_: link(x_, t), (x,), numpy.array(0.7),
        params=(link.W,), eps=1e-6, atol=1e-8, rtol=1e-6)


def test_no_double_backprop():
    link = _make()
    x = chainer.Variable(rand((2, 3), 3))
    y = link(x, numpy.array([0, 1], numpy.int32))
    gx, = chainer.grad([y], [x], enable_double_backprop=True)
    with pytest.raises(RuntimeError, match='double backprop'):
        chainer.functions.sum(gx).backward()


def test_sparse_leaf_ids():
    # Ids absent from the tree have no path; present ones keep theirs.
    tree = (7, (2, 5))
    link = _make(2, tree)
    x = rand((2, 2), 4)
    t = numpy.array([7, 5], numpy.int32)
    numpy.testing.assert_allclose(
        link(x, t).array, _loss_ref(link.W.array, x, t, tree), rtol=1e-12)


@pytest.mark.parametrize('x,t,match', [
    (rand((2, 3), 0, dtype=numpy.float32), [0, 1], 'W.dtype'),
    (rand((2, 3), 0), numpy.array([0.0, 1.0]), 't.dtype'),
    (rand((2, 3), 0), [0, 1, 2], 'shape'),
    (rand((2, 2), 0), [0, 1], 'shape'),
    (rand((2, 3), 0), [0, 5], 't holds the id 5'),
    (rand((2, 3), 0), [-1, 0], 't holds the id -1')])
def test_bad_input(x, t, match):
    t = numpy.asarray(t, numpy.int32) if isinstance(t, list) else t
    with pytest.raises(Exception, match=match):
        _make()(x, t)


@pytest.mark.parametrize('tree,match', [
    (((0, 1, 2), 3), 'pair'), ((0, 'a'), 'non-negative int'),
    ((0, (1, 0)), 'twice')])
def test_bad_trees(tree, match):
    with pytest.raises(ValueError, match='BinaryHierarchicalSoftmax: .*'
                                         + match):
        H(3, tree)


@pytest.mark.parametrize('counts,tree', [
    # Trees built by Chainer 7.8.1 from the same counts.
    ({'a': 3, 'b': 1, 'c': 1, 'd': 2}, ('a', (('b', 'c'), 'd'))),
    ({0: 5, 1: 5, 2: 5, 3: 5, 4: 1}, ((1, 2), (3, (4, 0)))),
    ({'a': 1, 'b': 1, 'c': 2, 'd': 2, 'e': 2},
     ((('a', 'b'), 'c'), ('d', 'e'))),
    ({'x': 1}, 'x')])
def test_huffman_tree(counts, tree):
    assert H.create_huffman_tree(counts) == tree


def test_huffman_depths_follow_counts():
    counts = {w: c for w, c in enumerate([40, 20, 10, 5, 3, 2])}
    tree = H.create_huffman_tree(counts)
    depth = {w: len(_walk(tree, w)) for w in counts}
    assert depth[0] == 1 and depth[1] == 2 and depth[4] == depth[5] == 5


def test_huffman_empty():
    with pytest.raises(ValueError, match='empty'):
        H.create_huffman_tree({})
