"""Data-parallel training on N processes ends with the same parameters as
one process training on the combined batches.

Usage: data_parallel.py COMMUNICATOR [GRAD_DTYPE [DEVICE]] (GRAD_DTYPE '-':
the parameters' dtype; DEVICE: where the model lives, '@numpy' by
default)."""
import sys

import numpy

import chainer_core as chainer
import chainer_core.functions as F
import chainer_core.links as L
import chainer_mn
from _mpitest import check, close, ok

name = sys.argv[1]
grad_dtype = sys.argv[2] if len(sys.argv) > 2 and sys.argv[2] != '-' \
    else None
device = chainer.get_device(sys.argv[3] if len(sys.argv) > 3 else '@numpy')
comm = chainer_mn.create_communicator(name, allreduce_grad_dtype=grad_dtype)
r, n = comm.rank, comm.size
B, D, STEPS = 8, 12, 6


class MLP(chainer.Chain):
    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.l1 = L.Linear(D, 16)
            self.l2 = L.Linear(16, 5)
            # Never used: its gradient stays None (zero_fill).
            self.unused = L.Linear(3, 3)

    def forward(self, x):
        return self.l2(F.relu(self.l1(x)))


def loss_of(model, x, t):
    return F.softmax_cross_entropy(model(x), t)


rng = numpy.random.RandomState(0)
xs = rng.normal(size=(STEPS, n * B, D)).astype(numpy.float32)
ts = rng.randint(0, 5, size=(STEPS, n * B)).astype(numpy.int32)

# Different initial parameters on each process: rank 0's win (bcast).
numpy.random.seed(r)
model = MLP()
model.to_device(device)
opt = chainer_mn.create_multi_node_optimizer(
    chainer.optimizers.MomentumSGD(lr=0.1), comm)
opt.setup(model)
opt.add_hook(chainer.optimizer_hooks.WeightDecay(1e-3))
opt.update()  # the first update broadcasts rank 0's parameters
check(opt.t == 0, 'the broadcasting update does not update')

numpy.random.seed(0)
ref = MLP()
ref_opt = chainer.optimizers.MomentumSGD(lr=0.1)
ref_opt.setup(ref)
ref_opt.add_hook(chainer.optimizer_hooks.WeightDecay(1e-3))
host = chainer.get_device('@numpy')
for (_, p), (_, q) in zip(sorted(model.namedparams()),
                          sorted(ref.namedparams())):
    close(host.send(p.array), q.array, 'initial parameters', rtol=0, atol=0)

for step in range(STEPS):
    mine = slice(r * B, (r + 1) * B)
    opt.update(loss_of, model, device.send(xs[step, mine]),
               device.send(ts[step, mine]))
    ref_opt.update(loss_of, ref, xs[step], ts[step])

check(opt.t == STEPS and ref_opt.t == STEPS, 'update counts')
tol = dict(rtol=1e-5, atol=1e-6) if grad_dtype is None else \
    dict(rtol=2e-2, atol=2e-3)
for (path, p), (_, q) in zip(sorted(model.namedparams()),
                             sorted(ref.namedparams())):
    close(host.send(p.array), q.array, 'parameter ' + path, **tol)
    check(p.dtype == numpy.float32, 'dtype of ' + path)
    check(device.is_array_supported(p.array) and
          device.is_array_supported(p.grad), 'device of ' + path)
# The processes agree exactly.
for path, p in sorted(model.namedparams()):
    got = comm.allgather(host.send(p.array))
    for g in got[1:]:
        check(numpy.array_equal(g, got[0]), path + ' differs between ranks')
# The unused link was averaged as zeros: only weight decay moved it.
ok(comm)
