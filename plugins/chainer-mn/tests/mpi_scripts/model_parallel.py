"""Model parallelism on two processes gives the gradients (and, over a few
steps, the parameters) of the same model on one process."""
import numpy

import chainer_core as chainer
import chainer_core.functions as F
import chainer_core.links as L
import chainer_mn
import chainer_mn.functions as mnF
from _mpitest import check, close, ok

comm = chainer_mn.create_communicator('naive')
r = comm.rank
check(comm.size == 2, 'run on two processes')
D, H, C, B = 6, 8, 4, 5


class Full(chainer.Chain):
    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.l1 = L.Linear(D, H)
            self.l2 = L.Linear(H, H)
            self.l3 = L.Linear(H, C)

    def forward(self, x):
        h = F.relu(self.l1(x))
        h = F.tanh(self.l2(h))
        return self.l3(h)


def piece(link, act=None):
    """A Chain holding a copy of ``link`` (with ``act`` after it)."""
    class Piece(chainer.Chain):
        def __init__(self):
            super().__init__()
            with self.init_scope():
                self.lin = link.copy('copy')
            self.cleargrads()

        def forward(self, x):
            y = self.lin(x)
            return y if act is None else act(y)
    return Piece()


numpy.random.seed(0)
full = Full()
rng = numpy.random.RandomState(1)
x = rng.normal(size=(B, D)).astype(numpy.float32)
t = rng.randint(0, C, size=B).astype(numpy.int32)
full.cleargrads()
F.softmax_cross_entropy(full(x), t).backward()

# -- send / recv by hand: rank 0 runs l1 and l3, rank 1 runs l2
if r == 0:
    p1, p3 = piece(full.l1, F.relu), piece(full.l3)
    delegate = mnF.send(p1(x), comm, rank=1)
    check(delegate.shape == () and delegate.name == 'delegate_variable',
          'the delegate variable')
    h = mnF.recv(comm, rank=1, delegate_variable=delegate)
    loss = F.softmax_cross_entropy(p3(h), t)
    loss.backward()
    close(p1.lin.W.grad, full.l1.W.grad, 'l1.W grad')
    close(p1.lin.b.grad, full.l1.b.grad, 'l1.b grad')
    close(p3.lin.W.grad, full.l3.W.grad, 'l3.W grad')
else:
    p2 = piece(full.l2, F.tanh)
    h = mnF.recv(comm, rank=0)
    delegate = mnF.send(p2(h), comm, rank=0)
    delegate.backward()
    close(p2.lin.W.grad, full.l2.W.grad, 'l2.W grad')
    close(p2.lin.b.grad, full.l2.b.grad, 'l2.b grad')

# -- tuples, and an input that needs no gradient
if r == 0:
    a = chainer.Variable(numpy.arange(3, dtype=numpy.float32))
    delegate = mnF.send((a, x), comm, rank=1, tag=2)
    delegate.backward()
    # rank 1 computed sum(a * 2): the gradient of a is 2
    close(a.grad, numpy.full(3, 2, numpy.float32), 'gradient of a tuple')
else:
    got = mnF.recv(comm, rank=0, tag=2)
    check(isinstance(got, tuple) and len(got) == 2, 'received a tuple')
    close(got[1].array, x, 'received data')
    F.sum(got[0] * 2).backward()
    single = mnF.recv(comm, rank=0, tag=3, force_tuple=True)
    check(isinstance(single, tuple) and len(single) == 1, 'force_tuple')
if r == 0:
    mnF.send(chainer.Variable(x), comm, rank=1, tag=3)

# -- pseudo_connect: backprop reaches both pieces
if r == 0:
    v = chainer.Variable(numpy.ones(2, numpy.float32))
    delegate = mnF.send(v * 3, comm, rank=1)
    w = chainer.Variable(numpy.ones(2, numpy.float32))
    z, = mnF.pseudo_connect(delegate, w * 5)
    F.sum(z).backward()
    close(w.grad, numpy.full(2, 5, numpy.float32), 'pseudo_connect actual')
    close(v.grad, numpy.full(2, 3 * 7, numpy.float32), 'pseudo_connect sent')
else:
    F.sum(mnF.recv(comm, rank=0) * 7).backward()

# -- MultiNodeChainList, trained for a few steps
if r == 0:
    model = chainer_mn.MultiNodeChainList(comm)
    model.add_link(piece(full.l1, F.relu), rank_in=None, rank_out=1)
    model.add_link(piece(full.l3), rank_in=1, rank_out=None)
else:
    model = chainer_mn.MultiNodeChainList(comm)
    model.add_link(piece(full.l2, F.tanh), rank_in=0, rank_out=0)
opt = chainer.optimizers.SGD(lr=0.5).setup(model)
ref = chainer.optimizers.SGD(lr=0.5).setup(full)
for step in range(4):
    xb = rng.normal(size=(B, D)).astype(numpy.float32)
    tb = rng.randint(0, C, size=B).astype(numpy.int32)
    model.cleargrads()
    if r == 0:
        F.softmax_cross_entropy(model(xb), tb).backward()
    else:
        model().backward()
    opt.update()
    ref.update(lambda: F.softmax_cross_entropy(full(xb), tb))
if r == 0:
    close(model[0].lin.W.array, full.l1.W.array, 'trained l1.W')
    close(model[1].lin.W.array, full.l3.W.array, 'trained l3.W')
else:
    close(model[0].lin.W.array, full.l2.W.array, 'trained l2.W')

# -- a component sending to this process itself, and to two ranks
if r == 0:
    chain = chainer_mn.MultiNodeChainList(comm)
    chain.add_link(piece(full.l1, F.relu), rank_in=None, rank_out=[0, 1])

    class TwoIn(chainer.Chain):
        def __init__(self):
            super().__init__()
            with self.init_scope():
                self.lin = full.l2.copy('copy')
            self.cleargrads()

        def forward(self, a, b):
            return self.lin(a) + self.lin(b)
    chain.add_link(TwoIn(), rank_in=[0, 1], rank_out=None)
    xs = chainer.Variable(x)
    y = chain(xs)
    F.sum(y).backward()
    # what rank 1 does to its copy (times 2) adds to this process's own
    ref = full.copy('copy')
    ref.cleargrads()
    ref_h = F.relu(ref.l1(x))
    ref_y = ref.l2(ref_h) + ref.l2(ref_h * 2)
    F.sum(ref_y).backward()
    close(y.array, ref_y.array, 'self-send forward')
    close(chain[0].lin.W.grad, ref.l1.W.grad, 'self-send gradient of l1')
    close(chain[1].lin.W.grad, ref.l2.W.grad, 'self-send gradient of l2')
else:
    chain = chainer_mn.MultiNodeChainList(comm)

    class Double(chainer.Chain):
        def forward(self, h):
            return h * 2
    chain.add_link(Double(), rank_in=0, rank_out=0)
    chain().backward()
try:
    bad = chainer_mn.MultiNodeChainList(comm)
    bad.add_link(piece(full.l1), rank_in=None, rank_out=None)
    bad.add_link(piece(full.l1), rank_in=None, rank_out=None)
except ValueError:
    pass
else:
    check(False, 'two outputs accepted')
ok(comm)
