"""Numerical gradient checks (chainer_core.gradient_check) of every
differentiable collective, the gradient of each process's input taken
with respect to the sum of the losses of all processes.

One process at a time checks its input: its function returns the global
loss (its own, plus the others' as a constant) and the others follow its
calls of the collective: the first call is differentiated, later ones are
the numerical evaluations. Each call is announced by a broadcast from the
checking process, so the followers need not know how many there are.
"""
import numpy

import chainer_core as chainer
import chainer_core.functions as F
from chainer_core import gradient_check
import chainer_mn
import chainer_mn.functions as mnF
from _mpitest import check, close, ok

comm = chainer_mn.create_communicator('flat')
r, n = comm.rank, comm.size


def local_loss(outputs, weights):
    """sum_i <outputs[i], weights[i]> (differentiable)."""
    if not isinstance(outputs, tuple):
        outputs = (outputs,)
    total = None
    for y, w in zip(outputs, weights):
        term = F.sum(y * w)
        total = term if total is None else total + term
    # A delegate variable is float32: the global loss is float64.
    return F.cast(total, numpy.float64)


def check_in_turns(name, make_inputs, op, weights, checkers):
    """``op(*inputs)`` on every process; each rank in ``checkers`` checks
    the gradient of its inputs."""
    inputs = make_inputs(r)
    for p in checkers:
        if r == p:
            def func(*xs):
                comm.bcast_obj('call', root=p)
                loss = local_loss(op(*xs), weights)
                mine = float(loss.array)
                others = comm.allreduce_obj(mine) - mine
                return loss + numpy.asarray(others, loss.dtype)
            try:
                gradient_check.check_backward(
                    func, inputs, None, eps=1e-3, atol=1e-7, rtol=1e-6)
            finally:
                comm.bcast_obj('done', root=p)
        else:
            first = True
            while comm.bcast_obj(None, root=p) == 'call':
                xs = [chainer.Variable(x) for x in inputs]
                loss = local_loss(op(*xs), weights)
                comm.allreduce_obj(float(loss.array))
                if first:
                    loss.backward()
                    first = False


rng = numpy.random.RandomState(100 + r)


def weights_like(shapes):
    return [rng.normal(size=s) for s in shapes]


# allreduce: every process's input and output have shape (3, 2)
check_in_turns(
    'allreduce', lambda rank: (rng.normal(size=(3, 2)),),
    lambda x: mnF.allreduce(comm, x), weights_like([(3, 2)]), range(n))

# allgather: inputs of different shapes, one output per process
check_in_turns(
    'allgather', lambda rank: (rng.normal(size=(rank + 1, 2)),),
    lambda x: mnF.allgather(comm, x),
    weights_like([(i + 1, 2) for i in range(n)]), range(n))

# alltoall: input j goes to process j (shape depends on both ranks)
check_in_turns(
    'alltoall',
    lambda rank: tuple(rng.normal(size=(rank + 1, j + 2))
                       for j in range(n)),
    lambda *xs: mnF.alltoall(comm, xs),
    weights_like([(i + 1, r + 2) for i in range(n)]), range(n))

# bcast from the last rank: only the root has an input
root = n - 1
check_in_turns(
    'bcast', lambda rank: (rng.normal(size=(4,)),) if rank == root else (),
    lambda *xs: mnF.bcast(comm, xs[0] if xs else None, root=root),
    weights_like([(4,)]), [root])

# gather to rank 0: the other processes' output is a delegate variable
check_in_turns(
    'gather', lambda rank: (rng.normal(size=(2, rank + 1)),),
    lambda x: mnF.gather(comm, x, root=0),
    weights_like([(2, i + 1) for i in range(n)]) if r == 0 else
    [numpy.zeros((), numpy.float32)], range(n))

# scatter from rank 0
check_in_turns(
    'scatter',
    lambda rank: tuple(rng.normal(size=(j + 1,)) for j in range(n))
    if rank == 0 else (),
    lambda *xs: mnF.scatter(comm, xs if xs else None, root=0),
    weights_like([(r + 1,)]), [0])

# Exact values of one backward pass: allreduce's gradient is the sum of the
# output gradients, allgather's the sum of the gradients of the copies.
x = chainer.Variable(numpy.full((2,), float(r)))
y = mnF.allreduce(comm, x)
close(y.array, numpy.full((2,), n * (n - 1) / 2.), 'allreduce value')
y.grad = numpy.full((2,), r + 1.)
y.backward()
close(x.grad, numpy.full((2,), n * (n + 1) / 2.), 'allreduce grad')

x = chainer.Variable(numpy.full((1,), float(r)))
ys = mnF.allgather(comm, x)
loss = sum((ys[i] * (i + 1) * (r + 1) for i in range(n)), ys[0] * 0)
F.sum(loss).backward()
close(x.grad, numpy.full((1,), (r + 1) * n * (n + 1) / 2.),
      'allgather grad')

# Double backprop through allreduce: d/dx sum(d/dx sum(allreduce(x**2)))
x = chainer.Variable(numpy.arange(3.) + r)
z = F.sum(mnF.allreduce(comm, x * x))
gx, = chainer.grad([z], [x], enable_double_backprop=True)
close(gx.array, 2 * n * x.array, 'first order through allreduce')
F.sum(gx).backward()
close(x.grad, numpy.full((3,), 2. * n), 'second order through allreduce')

# bcast, gather and scatter refuse double backprop.
if n > 1:
    x = chainer.Variable(numpy.ones(2))
    y = mnF.bcast(comm, x if r == 0 else None)
    try:
        F.sum(y * y).backward(enable_double_backprop=True)
    except RuntimeError as e:
        check('double backprop' in str(e), str(e))
    else:
        check(False, 'bcast allowed double backprop')
ok(comm)
