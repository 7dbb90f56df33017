"""The 'pure_nccl' communicator and double buffering, on any number of
processes with one GPU each.

Usage: pure_nccl.py gpu|host. ``gpu``: CuPy and NCCL on GPU ``intra_rank``
of each machine. ``host``: the stand-in of ``_host_nccl`` (NumPy and MPI),
which checks the same logic without a GPU.
"""
import sys
import warnings

import numpy

import chainer_core as chainer
import chainer_core.functions as F
import chainer_core.links as L
import chainer_mn
from _mpitest import check, close, ok, same

mode = sys.argv[1]
if mode == 'host':
    import _host_nccl
    _host_nccl.install()
elif mode != 'gpu':
    raise SystemExit('usage: pure_nccl.py gpu|host')

comm = chainer_mn.create_communicator('pure_nccl')
r, n = comm.rank, comm.size
check(type(comm).__name__ == 'PureNcclCommunicator', repr(comm))
device = chainer.get_device(comm.device)
xp = device.xp
if mode == 'gpu':
    check(comm.device == '@cupy:{}'.format(comm.intra_rank) or
          comm.device == '@cupy:0', comm.device)


def host(a):
    return chainer.get_device('@numpy').send(a)


def grads_of(rank, shapes, dtype=numpy.float32, scale=1.0):
    rng = numpy.random.RandomState(100 + rank)
    return [(rng.normal(size=s) * scale).astype(dtype) for s in shapes]


class Net(chainer.Chain):
    def __init__(self, dtype=numpy.float32):
        super().__init__()
        with self.init_scope():
            self.a = L.Linear(3, 4, initialW=numpy.random.normal(
                size=(4, 3)).astype(dtype), initial_bias=0.5)
            self.b = L.Linear(4, 2)
            # Its gradient stays None (zero_fill).
            self.unused = L.Linear(2, 2)
        if dtype != numpy.float32:
            for p in self.params():
                p.array = p.array.astype(dtype)


def set_grads(model, grads):
    for (name, p), g in zip(sorted(model.namedparams()), grads):
        p.grad = None if g is None else device.send(g.copy())


# -- multi_node_mean_grad: one allreduce, the mean of every process's ----
shapes = [p.shape for _, p in sorted(Net().namedparams())]
for batched in (False, True):
    comm.set_config('batched_copy', batched)
    numpy.random.seed(r)
    model = Net()
    model.to_device(device)
    mine = grads_of(r, shapes)
    mine[4] = mine[5] = None  # unused/W, unused/b
    set_grads(model, mine)
    comm.multi_node_mean_grad(model)
    expected = [numpy.mean([grads_of(q, shapes)[i] for q in range(n)],
                           axis=0) for i in range(len(shapes))]
    for i, (name, p) in enumerate(sorted(model.namedparams())):
        if i in (4, 5):
            check(p.grad is None, name + ': skipped without zero_fill')
        else:
            check(type(p.grad) is type(p.array), name)
            close(host(p.grad), expected[i], 'mean ' + name, rtol=1e-6)
    set_grads(model, mine)
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', DeprecationWarning)
        comm.allreduce_grad(model, zero_fill=True)
    for i, (name, p) in enumerate(sorted(model.namedparams())):
        if i in (4, 5):
            close(host(p.grad), numpy.zeros(shapes[i]), 'zero-filled ' + name)
        else:
            close(host(p.grad), expected[i], 'mean ' + name, rtol=1e-6)
    buf, = comm._buffers.values()
    check(buf.dtype == numpy.float32, 'float32 communication')
comm.set_config('batched_copy', False)

# -- float16 communication: divided before the sum, no overflow ---------
for batched in (False, True):
    half = chainer_mn.create_communicator(
        'pure_nccl', allreduce_grad_dtype=numpy.float16,
        batched_copy=batched)
    model = Net()
    model.to_device(device)
    # Gradients near float16's limit (65504): their sum over the processes
    # overflows unless divided first.
    big = grads_of(r, shapes, scale=1.0)
    big[0] = numpy.full(shapes[0], 60000., numpy.float32)
    set_grads(model, big)
    half.multi_node_mean_grad(model)
    expected = [numpy.mean([grads_of(q, shapes)[i] for q in range(n)],
                           axis=0) for i in range(len(shapes))]
    expected[0] = numpy.full(shapes[0], 60000.)
    for i, (name, p) in enumerate(sorted(model.namedparams())):
        if p.grad is None:
            continue
        check(p.grad.dtype == numpy.float32, name + ' keeps its dtype')
        close(host(p.grad), expected[i], 'float16 mean ' + name,
              rtol=2e-3, atol=2e-3)
    buf, = half._buffers.values()
    check(buf.dtype == numpy.float16, 'float16 communication')
    half.finalize()

# ChainerMN's table: no allreduce_grad_dtype and config.dtype mixed16 (or
# float16) -> float16 communication.
model = Net()
model.to_device(device)
set_grads(model, grads_of(r, shapes))
with chainer.using_config('dtype', chainer.mixed16):
    mixed = chainer_mn.create_communicator('pure_nccl')
    mixed.multi_node_mean_grad(model)
    buf, = mixed._buffers.values()
    check(buf.dtype == numpy.float16, 'mixed16 -> float16 communication')
    mixed.finalize()

# -- bcast_data: rank 0's parameters everywhere -------------------------
numpy.random.seed(1000 + r)
model = Net()
model.a.W.array = model.a.W.array + r  # differ on every process
model.to_device(device)
numpy.random.seed(1000)
reference = Net()
comm.bcast_data(model)
for (name, p), (_, q) in zip(sorted(model.namedparams()),
                             sorted(reference.namedparams())):
    same(host(p.array), q.array, 'bcast_data ' + name)

# -- arrays through NCCL ------------------------------------------------
x = device.send(numpy.arange(6, dtype=numpy.float32).reshape(2, 3) * (r + 1))
y = comm.allreduce(x)
check(type(y) is type(x), 'allreduce stays on the device')
same(host(y), numpy.arange(6, dtype=numpy.float32).reshape(2, 3) *
     (n * (n + 1) // 2), 'allreduce')
z = comm.allreduce(device.send(numpy.array([1 + 2j, r], numpy.complex64)))
same(host(z), numpy.array([n + 2j * n, n * (n - 1) // 2], numpy.complex64),
     'allreduce complex64')
i = comm.allreduce(numpy.full(3, r, numpy.int16))  # MPI (NCCL has no int16)
same(i, numpy.full(3, n * (n - 1) // 2, numpy.int16), 'allreduce int16')
root = n - 1
b = comm.bcast(device.send(numpy.full((2, 2), 7, numpy.float16))
               if r == root else None, root=root)
same(host(b), numpy.full((2, 2), 7, numpy.float16), 'bcast')
check(comm.bcast_obj({'r': r}, root=root) == {'r': root}, 'bcast_obj')
check(comm.allreduce_obj(r) == n * (n - 1) // 2, 'allreduce_obj')

# -- batch normalization with its statistics summed through NCCL -------
xb = device.send(numpy.random.RandomState(50 + r).normal(
    size=(4, 3, 2)).astype(numpy.float32))
outputs = []
for backend_name in ('nccl', 'mpi'):
    bn = chainer_mn.links.MultiNodeBatchNormalization(
        3, comm, communication_backend=backend_name)
    bn.to_device(device)
    bn.cleargrads()
    y = bn(chainer.Variable(xb))
    F.sum(y * y).backward()
    outputs.append((host(y.array), host(bn.gamma.grad), host(bn.avg_mean)))
for a, b, what in zip(outputs[0], outputs[1], ('y', 'gamma.grad', 'mean')):
    close(a, b, "MNBN 'nccl' vs 'mpi' " + what, rtol=1e-5, atol=1e-6)

# -- double buffering: SGD with the previous step's mean gradient -------
LR, STEPS, B = 0.1, 6, 4
rng = numpy.random.RandomState(7)
xs = rng.normal(size=(STEPS, n, B, 3)).astype(numpy.float32)
ts = rng.normal(size=(STEPS, n, B, 2)).astype(numpy.float32)
W0 = rng.normal(size=(2, 3)).astype(numpy.float32)
b0 = rng.normal(size=2).astype(numpy.float32)


def mean_grad(W, b, step):
    """The mean over the processes of the gradient of 0.5 * mean((Wx + b
    - t)**2 summed over outputs) at (W, b)."""
    gW, gb = 0, 0
    for q in range(n):
        e = xs[step, q].astype(numpy.float64) @ W.T + b - ts[step, q]
        gW = gW + e.T @ xs[step, q] / B / n
        gb = gb + e.sum(axis=0) / B / n
    return gW, gb


for zero_fill in (True, False):
    model = L.Linear(3, 2, initialW=W0 + r, initial_bias=b0 + r)
    model.to_device(device)
    opt = chainer_mn.create_multi_node_optimizer(
        chainer.optimizers.SGD(lr=LR), comm, double_buffering=True,
        zero_fill=zero_fill).setup(model)
    check(isinstance(opt, chainer.Optimizer), 'an optimizer')

    def loss(step):
        y = model(device.send(xs[step, r]))
        return F.sum((y - device.send(ts[step, r])) ** 2) * (0.5 / B)
    # By hand: call 1 broadcasts rank 0's parameters; call 2 starts the
    # averaging of its gradient and leaves the parameters; call k >= 3
    # updates with the mean gradient of call k - 1, computed at the
    # parameters after call k - 2.
    W, b = W0.astype(numpy.float64), b0.astype(numpy.float64)
    pending = None
    for step in range(STEPS):
        opt.update(loss, step)
        if step >= 1:
            grad_now = mean_grad(W, b, step)
            if pending is not None:
                W = W - LR * pending[0]
                b = b - LR * pending[1]
            pending = grad_now
        close(host(model.W.array), W, 'double buffering W after call {}'
              .format(step + 1), rtol=1e-5, atol=1e-5)
        close(host(model.b.array), b, 'double buffering b after call {}'
              .format(step + 1), rtol=1e-5, atol=1e-5)
    check(opt.t == STEPS - 2, 'updates from the third call on: t={}'.format(
        opt.t))

if mode == 'host':
    log = comm._gpu.log
    side = [e for e in log if e[0] == 'allreduce' and e[1] != 'default']
    check(len(side) == 2 * (STEPS - 1), 'averaging on the side stream: {}'
          .format(side))
    check(any(e[:3] == ('allreduce', 'default', 'float64') for e in log),
          "MNBN 'nccl' sums through NCCL")
    check(('wait', side[0][1], 'default') in log and
          ('wait', 'default', side[0][1]) in log, 'streams wait on events')

# -- errors ---------------------------------------------------------------
try:
    chainer_mn.create_multi_node_optimizer(
        chainer.optimizers.SGD(), chainer_mn.create_communicator('naive'),
        double_buffering=True)
    raise AssertionError('double buffering with naive')
except ValueError as e:
    check('pure_nccl' in str(e), str(e))
if mode == 'gpu':
    host_model = Net()
    try:
        comm.multi_node_mean_grad(host_model, zero_fill=True)
        raise AssertionError('a model in host memory')
    except ValueError as e:
        check(comm.device in str(e) and '@numpy' in str(e), str(e))

# -- split: a communicator of its own over part of the processes --------
sub = comm.split(r % 2, r)
check(sub.size == (n + 1 - r % 2) // 2, 'split size')
check(sub.device == comm.device, 'split keeps the GPU')
model = Net()
model.to_device(device)
set_grads(model, [numpy.full(s, sub.rank, numpy.float32) for s in shapes])
sub.multi_node_mean_grad(model)
same(host(model.a.W.grad), numpy.full(shapes[0], (sub.size - 1) / 2,
                                      numpy.float32), 'split mean')
sub.finalize()

ok(comm)
