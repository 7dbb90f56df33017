"""MultiNodeChainList: a model split over processes, with backprop."""
import collections

from chainer_core.link import ChainList
from chainer_mn.functions import point_to_point_communication as p2p
from chainer_mn.functions.pseudo_connect import pseudo_connect


def _first(v):
    return v[0] if isinstance(v, tuple) else v


def _connect(delegate, v):
    """``v`` (a variable or a tuple of them) behind ``delegate``."""
    if delegate is None:
        return v
    if isinstance(v, tuple):
        return pseudo_connect(delegate, *v)
    return pseudo_connect(delegate, v)[0]


class MultiNodeChainList(ChainList):
    """The part of a model-parallel model that runs on this process.

    Each component link is added with the ranks it receives its inputs
    from (``rank_in``) and sends its outputs to (``rank_out``); None
    means the model's own inputs, or the model's output. Calling the
    chain runs the components in the order they were added, receiving and
    sending as declared (a component may also send to this process itself,
    for a later component), and ties the pieces together with delegate
    variables so that backprop runs them backwards in the reverse order,
    which is the order the other processes expect.

    Example, an MLP over two processes::

        class Rank0(MultiNodeChainList):
            def __init__(self, comm):
                super().__init__(comm)
                self.add_link(FirstHalf(), rank_in=None, rank_out=1)
                self.add_link(Head(), rank_in=1, rank_out=None)

        class Rank1(MultiNodeChainList):
            def __init__(self, comm):
                super().__init__(comm)
                self.add_link(SecondHalf(), rank_in=0, rank_out=0)

    Rank 0's chain returns the model output; rank 1's returns a delegate
    variable, on which rank 1 calls ``backward()`` while rank 0
    backpropagates its loss.

    Args:
        comm: a chainer_mn communicator.
    """

    def __init__(self, comm):
        super().__init__()
        self._comm = comm
        self._rank_inouts = []

    def _ranks(self, ranks, what):
        if ranks is None:
            return None
        if isinstance(ranks, int):
            ranks = [ranks]
        ranks = list(ranks)
        for r in ranks:
            if not isinstance(r, int) or not 0 <= r < self._comm.size:
                raise ValueError('MultiNodeChainList.add_link: {} must be '
                                 'ranks in [0, {}), got {!r}'.format(
                                     what, self._comm.size, r))
        return ranks

    def add_link(self, link, rank_in=None, rank_out=None):
        """Add a component.

        Args:
            link (~chainer_core.Link): the component.
            rank_in (int, list of int or None): where its inputs come from
                (None: the model's inputs).
            rank_out (int, list of int or None): where its outputs go
                (None: they are the model's output; one component at
                most).
        """
        rank_in = self._ranks(rank_in, 'rank_in')
        rank_out = self._ranks(rank_out, 'rank_out')
        if rank_out is None and any(out is None
                                    for _, out in self._rank_inouts):
            raise ValueError('MultiNodeChainList.add_link: only one '
                             'component may output the model output '
                             '(rank_out=None)')
        super().add_link(link)
        self._rank_inouts.append((rank_in, rank_out))

    def forward(self, *inputs):
        comm = self._comm
        to_self = collections.deque()
        y = None
        delegate = None
        for link, (rank_in, rank_out) in zip(self, self._rank_inouts):
            if rank_in is None:
                args = inputs
                if delegate is not None:
                    args = pseudo_connect(delegate, *inputs)
                x = link(*args)
            else:
                xs = []
                for r in rank_in:
                    if r == comm.rank:
                        if not to_self:
                            raise ValueError(
                                'MultiNodeChainList: a component receives '
                                'from this process ({}) before one sends to '
                                'it'.format(r))
                        v = _connect(delegate, to_self.popleft())
                    else:
                        v = p2p.recv(comm, r, delegate_variable=delegate)
                    xs.append(v)
                    # The next receive comes after this one in the graph, so
                    # backprop sends their gradients in reverse order.
                    delegate = _first(v)
                # The component's output now depends on every input.
                delegate = None
                x = link(*xs)
            if rank_out is None:
                y = x
                delegate = _first(y)
                continue
            for i, r in enumerate(rank_out):
                if i > 0 or r == comm.rank:
                    x = _connect(delegate, x)
                if r == comm.rank:
                    to_self.append(x)
                    delegate = _first(x)
                else:
                    delegate = p2p.send(x, comm, r)
        if to_self:
            raise ValueError(
                'MultiNodeChainList: {} output(s) sent to this process were '
                'never received; check that rank_in and rank_out '
                'match'.format(len(to_self)))
        if y is None:
            return delegate
        if _first(y) is delegate:
            return y
        return _connect(delegate, y)
