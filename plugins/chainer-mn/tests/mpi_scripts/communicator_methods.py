"""Every method of a communicator, with values, dtypes and objects.

Usage: communicator_methods.py NAME (run on 2 or 3 processes)."""
import sys

import numpy

import chainer_core as chainer
import chainer_mn
from _mpitest import check, close, ok, same

name = sys.argv[1]
comm = chainer_mn.create_communicator(name)
r, n = comm.rank, comm.size

# -- topology
check(comm.size == comm.mpi_comm.Get_size(), 'size')
check(comm.rank == comm.mpi_comm.Get_rank(), 'rank')
check(comm.inter_size == 1 and comm.inter_rank == 0, 'one machine')
check(comm.intra_size == n and comm.intra_rank == r, 'intra ranks')

DTYPES = ['float16', 'float32', 'float64', 'int32', 'int64', 'uint8', 'bool']


def value(rank, dtype, shape=(2, 3)):
    a = numpy.arange(numpy.prod(shape), dtype=numpy.float64).reshape(shape)
    return (a + 10 * rank).astype(dtype) if dtype != 'bool' else \
        ((a + rank) % 2).astype(bool)


# -- bcast: every dtype, 0-d and empty arrays, any root
for dtype in DTYPES:
    for root in range(n):
        x = value(root, dtype) if r == root else None
        same(comm.bcast(x, root=root), value(root, dtype),
             'bcast {} root {}'.format(dtype, root))
for shape in [(), (0,), (3, 0, 2)]:
    x = numpy.full(shape, 7, numpy.float32) if r == 0 else None
    same(comm.bcast(x), numpy.full(shape, 7, numpy.float32),
         'bcast shape {}'.format(shape))

# -- gather / allgather: shapes differ between ranks
for dtype in DTYPES:
    mine = value(r, dtype, (r + 1, 2))
    expected = tuple(value(i, dtype, (i + 1, 2)) for i in range(n))
    got = comm.gather(mine, root=n - 1)
    if r == n - 1:
        check(len(got) == n, 'gather length')
        for g, e in zip(got, expected):
            same(g, e, 'gather {}'.format(dtype))
    else:
        check(got is None, 'gather on a non-root returns None')
    got = comm.allgather(mine)
    check(isinstance(got, tuple) and len(got) == n, 'allgather length')
    for g, e in zip(got, expected):
        same(g, e, 'allgather {}'.format(dtype))

# -- scatter: a tuple, or an array split on its first axis
for dtype in DTYPES:
    xs = tuple(value(i, dtype, (i + 2,)) for i in range(n)) if r == 0 \
        else None
    same(comm.scatter(xs), value(r, dtype, (r + 2,)),
         'scatter tuple {}'.format(dtype))
    xs = numpy.stack([value(i, dtype) for i in range(n)]) if r == 1 else None
    same(comm.scatter(xs, root=1), value(r, dtype),
         'scatter array {}'.format(dtype))

# -- alltoall
for dtype in DTYPES:
    xs = [value(100 * r + j, dtype, (j + 1,)) for j in range(n)]
    got = comm.alltoall(xs)
    check(len(got) == n, 'alltoall length')
    for i, g in enumerate(got):
        same(g, value(100 * i + r, dtype, (r + 1,)),
             'alltoall {} from {}'.format(dtype, i))

# -- allreduce: the sum, in the input's dtype
for dtype in ['float16', 'float32', 'float64', 'int32', 'int64']:
    got = comm.allreduce(value(r, dtype))
    expected = sum(value(i, 'float64') for i in range(n)).astype(dtype)
    same(got, expected, 'allreduce {}'.format(dtype))
x = value(r, 'float32')
comm.allreduce(x)
same(x, value(r, 'float32'), 'allreduce leaves its input alone')

# -- send / recv: arrays, tuples, lists, float16, on every pair
for src in range(n):
    for dst in range(n):
        if src == dst:
            continue
        if r == src:
            comm.send(value(src, 'float16'), dst, 3)
            comm.send((value(src, 'int64'), value(src, 'bool', (4,))), dst,
                      tag=4)
            comm.send([value(src, 'float32')], dst, 5)
        elif r == dst:
            same(comm.recv(src, 3), value(src, 'float16'), 'recv array')
            got = comm.recv(src, tag=4)
            check(isinstance(got, tuple) and len(got) == 2, 'recv tuple')
            same(got[0], value(src, 'int64'), 'recv tuple[0]')
            same(got[1], value(src, 'bool', (4,)), 'recv tuple[1]')
            got = comm.recv(src, 5)
            check(isinstance(got, tuple) and len(got) == 1, 'recv list')
        comm.mpi_comm.Barrier()

# -- Variables are accepted where arrays are
v = chainer.Variable(value(r, 'float32'))
same(comm.allreduce(v), sum(value(i, 'float32') for i in range(n)),
     'allreduce of a Variable')

# -- objects
obj = {'rank': r, 'list': list(range(r)), 'array': value(r, 'float32')}
if r == 0:
    comm.send_obj(obj, 1, tag=7)
elif r == 1:
    got = comm.recv_obj(0, tag=7)
    check(got['rank'] == 0 and got['list'] == [], 'recv_obj')
    same(got['array'], value(0, 'float32'), 'recv_obj array')
if r == 1:
    comm.send_obj('any tag', 0, tag=12)
elif r == 0:
    check(comm.recv_obj(1) == 'any tag', 'recv_obj with any tag')
big = {'blob': bytes(range(256)) * 1000, 'n': 42} if r == n - 1 else None
got = comm.bcast_obj(big, max_buf_len=1000, root=n - 1)
check(got['n'] == 42 and got['blob'] == bytes(range(256)) * 1000,
      'bcast_obj in chunks')
got = comm.gather_obj(('r', r), root=0)
if r == 0:
    check(got == [('r', i) for i in range(n)], 'gather_obj')
else:
    check(got is None, 'gather_obj on a non-root')
check(comm.allgather_obj(r * r) == [i * i for i in range(n)], 'allgather_obj')
check(comm.allreduce_obj(r + 1) == n * (n + 1) // 2, 'allreduce_obj ints')
close(comm.allreduce_obj(numpy.full(3, r, numpy.float64)),
      numpy.full(3, n * (n - 1) / 2), 'allreduce_obj arrays')

# -- bad input raises the same error on every process (no hang)
for what, call in [
        ('allreduce shapes', lambda: comm.allreduce(numpy.zeros(r + 1))),
        ('allreduce dtype', lambda: comm.allreduce(
            numpy.zeros(2, bool))),
        ('gather object array', lambda: comm.gather(
            numpy.array([None]) if r == n - 1 else numpy.zeros(1))),
        ('scatter length', lambda: comm.scatter(
            [numpy.zeros(1)] * (n + 1) if r == 0 else None)),
        ('alltoall length', lambda: comm.alltoall(
            [numpy.zeros(1)] * (n - 1 if r == 1 else n))),
        ('bcast not an array', lambda: comm.bcast(
            'text' if r == 0 else None)),
        ('bcast_obj unpicklable', lambda: comm.bcast_obj(
            (lambda: 0) if r == 0 else None))]:
    try:
        call()
    except (TypeError, ValueError) as e:
        check('rank' in str(e), '{}: the error names the rank: {}'.format(
            what, e))
    else:
        check(False, '{}: no error'.format(what))

# -- split
sub = comm.split(r % 2, r)
check(sub.size == len(range(r % 2, n, 2)), 'split size')
check(sub.rank == r // 2, 'split rank')
check(type(sub) is type(comm), 'split keeps the kind')
got = sub.allreduce(numpy.array([r], numpy.int64))
same(got, numpy.array([sum(range(r % 2, n, 2))], numpy.int64),
     'allreduce on the split communicator')
sub.finalize()

# -- multi_node_mean_grad and bcast_data
import chainer_core.links as L  # noqa: E402


class Net(chainer.Chain):
    def __init__(self, dtype=numpy.float32):
        super().__init__()
        with self.init_scope():
            self.a = L.Linear(3, 2)
            self.b = L.Linear(2, 4)
            self.c = L.Linear(None, 3)  # never initialised: skipped
        for p in self.params():
            if p.array is not None:
                p.array = p.array.astype(dtype)
                p.cleargrad()


def set_grads(model, rank, skip=()):
    for path, p in sorted(model.namedparams()):
        if p.array is None or path in skip:
            p.grad = None
            continue
        base = numpy.arange(p.size, dtype=numpy.float64).reshape(p.shape)
        p.grad = ((rank + 1) * (base + 1)).astype(p.dtype)


def expected_mean(p):
    base = numpy.arange(p.size, dtype=numpy.float64).reshape(p.shape)
    return (base + 1) * (n + 1) / 2


averaging = name != 'dummy'
model = Net()
set_grads(model, r)
comm.multi_node_mean_grad(model)
for path, p in sorted(model.namedparams()):
    if p.array is None:
        check(p.grad is None, 'uninitialised ' + path)
        continue
    check(p.grad.dtype == p.dtype and p.grad.shape == p.shape, path)
    want = expected_mean(p) if averaging else \
        (r + 1) * (numpy.arange(p.size).reshape(p.shape) + 1)
    close(p.grad, want, 'mean of ' + path)
# Again, on the gradients the first call left (views of its buffer for
# 'flat'): the mean of equal values is unchanged.
before = {path: p.grad.copy() for path, p in model.namedparams()
          if p.grad is not None}
comm.multi_node_mean_grad(model)
if averaging:
    for path, p in model.namedparams():
        if path in before:
            close(p.grad, before[path], 'second mean of ' + path)
# A parameter without a gradient: zero_fill counts it as zeros...
set_grads(model, r, skip=('/a/W',) if r == 0 else ())
comm.multi_node_mean_grad(model, zero_fill=True)
if averaging:
    w = model.a.W
    base = numpy.arange(w.size).reshape(w.shape) + 1
    close(w.grad, base * (n * (n + 1) / 2 - 1) / n, 'zero_fill mean')
# ... and without zero_fill it is skipped (here on every process), while
# the gradients before it in the buffer still average correctly.
set_grads(model, r, skip=('/a/W',))
comm.multi_node_mean_grad(model, zero_fill=False)
check(model.a.W.grad is None, 'skipped without zero_fill')
if averaging:
    close(model.b.W.grad, expected_mean(model.b.W), 'mean next to a skip')
# Gradients of several dtypes; the communication dtype may differ.
for param_dtype, comm_dtype, tol in [
        ('float16', None, 1e-3), ('float64', None, 1e-12),
        ('float32', 'float16', 1e-3), ('float64', 'float32', 1e-6)]:
    comm.set_config('allreduce_grad_dtype', comm_dtype)
    m = Net(param_dtype)
    set_grads(m, r)
    comm.multi_node_mean_grad(m)
    for path, p in m.namedparams():
        if p.array is None:
            continue
        check(p.grad.dtype == numpy.dtype(param_dtype), 'dtype of ' + path)
        if averaging:
            close(p.grad, expected_mean(p), 'mean {}/{} {}'.format(
                param_dtype, comm_dtype, path), rtol=tol, atol=tol)
comm.set_config('allreduce_grad_dtype', None)
mixed = Net()
mixed.b.W.array = mixed.b.W.array.astype(numpy.float64)
mixed.b.W.cleargrad()
set_grads(mixed, r)
comm.multi_node_mean_grad(mixed)
check(mixed.b.W.grad.dtype == numpy.float64 and
      mixed.a.W.grad.dtype == numpy.float32, 'mixed dtypes kept')
if averaging:
    close(mixed.b.W.grad, expected_mean(mixed.b.W), 'mixed dtypes mean')
# In debug mode, different parameters on different processes are an error
# on every process.
if n > 1:
    set_grads(model, r, skip=('/a/W',) if r == 1 else ())
    with chainer.using_config('debug', True):
        try:
            comm.multi_node_mean_grad(model)
        except ValueError as e:
            check('zero_fill' in str(e), str(e))
        else:
            check(False, 'a layout mismatch went unnoticed')
with chainer.using_config('debug', True):
    set_grads(model, r)
    comm.multi_node_mean_grad(model)
# allreduce_grad is the deprecated name.
import warnings  # noqa: E402
set_grads(model, r)
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter('always')
    comm.allreduce_grad(model)
check(any(issubclass(x.category, DeprecationWarning) for x in w),
      'allreduce_grad is deprecated')

numpy.random.seed(r)
model = Net()
comm.bcast_data(model)
for path, p in sorted(model.namedparams()):
    if p.array is None:
        continue
    got = comm.allgather(p.array)
    for g in got:
        same(g, got[0], 'bcast_data ' + path)
numpy.random.seed(0)
check(numpy.array_equal(model.a.W.array, Net().a.W.array),
      'rank 0 parameters everywhere')
if n > 1:
    other = Net() if r == 0 else L.Linear(3, 2)
    try:
        comm.bcast_data(other)
    except ValueError as e:
        check('rank' in str(e), str(e))
    else:
        check(False, 'bcast_data of different models')

# -- configuration
check(comm.get_config('allreduce_grad_dtype') is None, 'default dtype')
comm.set_config('allreduce_grad_dtype', numpy.float16)
check(comm.get_config('allreduce_grad_dtype') == numpy.float16, 'set dtype')
comm.set_config('allreduce_grad_dtype', None)
check(comm.get_config() == {'allreduce_grad_dtype': None,
                            'batched_copy': False}, 'get_config()')
ok(comm)
