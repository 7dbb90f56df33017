"""BinaryHierarchicalSoftmax: the softmax over a vocabulary factored along
a binary tree (Morin and Bengio, *Hierarchical Probabilistic Neural Network
Language Model*, 2005), and the Huffman tree to use with it."""
import copy
import heapq
import numbers

import numpy

from chainer_core._runtime import kernels
from chainer_core._runtime.host import device_from_array
from chainer_core._runtime.host import get_device
from chainer_core import function_node
from chainer_core.backend import get_array_module
from chainer_core.configuration import get_dtype
from chainer_core.functions.loss.negative_sampling import check_word_types
from chainer_core.initializers.uniform import Uniform
from chainer_core.link import Link
from chainer_core.links._checks import check_size
from chainer_core.variable import Parameter


def _parse_tree(tree):
    """``(paths, codes, n_nodes)``: per leaf, the ids of the inner nodes
    from the root down to it and the branch taken at each (+1 left, -1
    right); inner nodes are numbered in pre-order."""
    paths, codes = {}, {}
    n_nodes = 0
    # An explicit stack: trees of large vocabularies are deep.
    stack = [(tree, [], [])]
    while stack:
        node, path, code = stack.pop()
        if isinstance(node, tuple):
            if len(node) != 2:
                raise ValueError('BinaryHierarchicalSoftmax: an inner node '
                                 'of the tree must be a pair, got {!r}'
                                 .format(node))
            node_id = n_nodes
            n_nodes += 1
            stack.append((node[1], path + [node_id], code + [-1.0]))
            stack.append((node[0], path + [node_id], code + [1.0]))
        else:
            if isinstance(node, (bool, numpy.bool_)) or \
                    not isinstance(node, numbers.Integral) or node < 0:
                raise ValueError('BinaryHierarchicalSoftmax: a leaf of the '
                                 'tree must be a non-negative int (a word '
                                 'id), got {!r}'.format(node))
            if int(node) in paths:
                raise ValueError('BinaryHierarchicalSoftmax: the leaf {} '
                                 'appears twice in the tree'.format(node))
            paths[int(node)] = path
            codes[int(node)] = code
    return paths, codes, n_nodes


class BinaryHierarchicalSoftmaxFunction(function_node.FunctionNode):
    """The loss ``sum_i sum_{(n, s) on the path of t_i} softplus(-s W_n .
    x_i)`` of inputs ``(x, t, W)``.

    Args:
        tree: the tree, nested pairs with word ids at the leaves.
        dtype: the dtype of the branch codes.

    Attributes:
        paths (numpy.ndarray): the inner nodes of every leaf's path, leaf
            after leaf.
        codes (numpy.ndarray): the branches (+1 left, -1 right) along them.
        begins (numpy.ndarray): where the path of leaf ``k`` starts in
            them (``begins[k]``) and ends (``begins[k + 1]``).
        parser_size (int): the number of inner nodes (rows of ``W``).
    """

    def __init__(self, tree, dtype):
        paths, codes, n_nodes = _parse_tree(tree)
        n_vocab = max(paths) + 1
        lengths = numpy.zeros(n_vocab, numpy.int32)
        for k, path in paths.items():
            lengths[k] = len(path)
        self.begins = numpy.concatenate(
            [[0], numpy.cumsum(lengths)]).astype(numpy.int32)
        order = sorted(paths)
        self.paths = numpy.array(
            [n for k in order for n in paths[k]], numpy.int32)
        self.codes = numpy.array(
            [c for k in order for c in codes[k]], dtype)
        self.parser_size = n_nodes

    def check_type_forward(self, in_types):
        check_word_types(in_types, numpy.int32, self.parser_size)

    def _path_elements(self, t):
        """Per element of every sample's path: the sample, the node and
        the branch, as arrays of ``t``'s device."""
        device = device_from_array(t)
        t_host = numpy.asarray(get_device('@numpy').send(t))
        n_vocab = len(self.begins) - 1
        bad = (t_host < 0) | (t_host >= n_vocab)
        if bad.any():
            raise ValueError(
                'BinaryHierarchicalSoftmax: t holds the id {}, not a leaf of '
                'the tree (ids 0 to {})'.format(int(t_host[bad][0]),
                                                n_vocab - 1))
        starts = self.begins[t_host]
        counts = self.begins[t_host + 1] - starts
        rows = numpy.repeat(numpy.arange(len(t_host)), counts)
        # The position of every element inside its own path.
        offsets = numpy.arange(counts.sum()) - numpy.repeat(
            numpy.cumsum(counts) - counts, counts)
        elements = starts[rows] + offsets
        return (device.send(rows.astype(numpy.int32)),
                device.send(self.paths[elements]),
                device.send(self.codes[elements]))

    def forward(self, inputs):
        x, t, W = inputs
        self.retain_inputs((0, 1, 2))
        rows, nodes, codes = self._path_elements(t)
        self._elements = rows, nodes, codes
        gather = kernels.lookup('embed_id', W)
        wx = (gather(nodes, W, None) * gather(rows, x, None)).sum(axis=1)
        z = wx * codes.astype(x.dtype)
        xp = get_array_module(x)
        # softplus(-z), without overflow for large |z|.
        loss = xp.maximum(-z, 0) + xp.log1p(xp.exp(-xp.abs(z)))
        return loss.sum().astype(x.dtype).reshape(()),

    def backward(self, indexes, grad_outputs):
        x, _, W = self.get_retained_inputs()
        gloss, = grad_outputs
        gx, gW = BinaryHierarchicalSoftmaxGrad(self._elements).apply(
            (x, W, gloss))
        return tuple({0: gx, 2: gW}.get(i) for i in indexes)


class BinaryHierarchicalSoftmaxGrad(function_node.FunctionNode):
    """``(gx, gW)`` of the hierarchical softmax loss; first order only."""

    def __init__(self, elements):
        self.elements = elements

    def forward(self, inputs):
        x, W, gloss = inputs
        rows, nodes, codes = self.elements
        gather = kernels.lookup('embed_id', W)
        scatter = kernels.lookup('embed_id_grad', W)
        W_sel = gather(nodes, W, None)
        x_sel = gather(rows, x, None)
        s = codes.astype(x.dtype)
        z = (W_sel * x_sel).sum(axis=1) * s
        # d softplus(-z) / dz = -sigmoid(-z) = -(1 - tanh(z / 2)) / 2.
        xp = get_array_module(x)
        g = (gloss * (-0.5) * (1 - xp.tanh(z * 0.5)) * s).astype(x.dtype)
        g = g.reshape(-1, 1)
        gx = scatter(rows, g * W_sel, x.shape[0], None)
        gW = scatter(nodes, g * x_sel, W.shape[0], None)
        return gx, gW

    def backward(self, indexes, grad_outputs):
        raise RuntimeError('BinaryHierarchicalSoftmax does not support '
                           'double backprop')


class BinaryHierarchicalSoftmax(Link):
    """Hierarchical softmax over the leaves of a binary tree.

    Each word (a leaf) is reached from the root by a path of left/right
    branches; every inner node ``n`` has a weight vector ``W[n]`` and takes
    its left branch with probability ``sigmoid(W[n] . x)``. The probability
    of a word is the product along its path, so a step costs the depth of
    the tree (about ``log2(n_vocab)`` for a Huffman tree, see
    :meth:`create_huffman_tree`) instead of the vocabulary size.

    Args:
        in_size (int): the size of the input vectors.
        tree: nested pairs with word ids (non-negative ints) at the leaves,
            e.g. ``((0, 1), (2, (3, 4)))``.
        dtype: the dtype of ``W`` (None: the default dtype, float16 under
            ``mixed16``).

    Attributes:
        W (~chainer_core.Parameter): ``(n_inner_nodes, in_size)``,
            initialised uniformly on [-1, 1].

    .. admonition:: Example

        >>> tree = L.BinaryHierarchicalSoftmax.create_huffman_tree(
        ...     {0: 5, 1: 2, 2: 2, 3: 1})
        >>> hsm = L.BinaryHierarchicalSoftmax(3, tree)
        >>> x = np.ones((2, 3), np.float32)
        >>> hsm(x, np.array([0, 3], np.int32)).shape
        ()
    """

    def __init__(self, in_size, tree, dtype=None):
        in_size = check_size(type(self).__name__, 'in_size', in_size)
        super().__init__()
        dtype = get_dtype(dtype)
        self._func = BinaryHierarchicalSoftmaxFunction(tree, dtype)
        with self.init_scope():
            self.W = Parameter(Uniform(1, dtype=dtype),
                               (self._func.parser_size, in_size))

    def forward(self, x, t):
        """The total loss ``-sum_i log p(t_i | x_i)`` (a scalar).

        Args:
            x (Variable or array): the inputs ``(B, in_size)``, of W's
                dtype.
            t (Variable or array): the word ids ``(B,)``, int32.
        """
        # A node is applied once: each call gets a copy sharing the tables.
        return copy.copy(self._func).apply((x, t, self.W))[0]

    @staticmethod
    def create_huffman_tree(word_counts):
        """The Huffman tree of a vocabulary: frequent words near the root.

        Args:
            word_counts (dict): word (any hashable) to its count.

        Returns:
            the tree, nested pairs with the words at the leaves (a single
            word is the tree itself). Ties between equal counts go to the
            entry made from the earliest word (in dict order), first.
        """
        if len(word_counts) == 0:
            raise ValueError('BinaryHierarchicalSoftmax.create_huffman_tree: '
                             'the vocabulary is empty')
        # (count, rank, node): a merged node takes the smaller rank of its
        # two parts, so that no two entries ever compare their nodes.
        heap = [(count, rank, word)
                for rank, (word, count) in enumerate(word_counts.items())]
        heapq.heapify(heap)
        while len(heap) > 1:
            c1, r1, n1 = heapq.heappop(heap)
            c2, r2, n2 = heapq.heappop(heap)
            heapq.heappush(heap, (c1 + c2, min(r1, r2), (n1, n2)))
        return heap[0][2]
