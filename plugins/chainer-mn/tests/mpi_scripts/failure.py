"""One process fails while the others wait in a collective call.

Usage: failure.py MODE, MODE one of raise, trainer, exit, kill, caught."""
import os
import signal
import sys
import time

import numpy

import chainer_core as chainer
import chainer_core.links as L
from chainer_core import training
import chainer_mn
from _mpitest import ok

mode = sys.argv[1]
comm = chainer_mn.create_communicator('flat')
r = comm.rank
last = comm.size - 1


def fail_here():
    time.sleep(0.5)
    if mode in ('raise', 'trainer'):
        raise RuntimeError('rank {} fails on purpose'.format(r))
    if mode == 'exit':
        sys.exit(3)
    if mode == 'kill':
        os.kill(os.getpid(), signal.SIGKILL)


if mode == 'trainer':
    model = L.Classifier(L.Linear(4, 3))
    opt = chainer_mn.create_multi_node_optimizer(
        chainer.optimizers.SGD(), comm).setup(model)
    data = chainer.datasets.TupleDataset(
        numpy.ones((64, 4), numpy.float32), numpy.zeros(64, numpy.int32))
    it = chainer.iterators.SerialIterator(data, 4)
    trainer = training.Trainer(
        training.updaters.StandardUpdater(it, opt), (1000, 'iteration'),
        out=os.environ.get('TMPDIR', '/tmp'))

    @training.make_extension(trigger=(3, 'iteration'))
    def boom(trainer):
        if r == last:
            fail_here()
    trainer.extend(boom)
    trainer.run()
elif mode == 'caught':
    # A SystemExit the program catches does not abort the job once the
    # status is cleared.
    try:
        sys.exit(4)
    except SystemExit:
        chainer_mn.global_except_hook.clear_exit_status()
    ok(comm)
else:
    if r == last:
        fail_here()
    comm.allreduce(numpy.ones(3))
    comm.mpi_comm.Barrier()
