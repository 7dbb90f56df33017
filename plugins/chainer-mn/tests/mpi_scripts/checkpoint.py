"""Multi-node checkpoints: a run that crashes resumes where every process
has a snapshot and ends as the uninterrupted run does.

Usage: checkpoint.py PHASE OUT, PHASE one of full, crash, resume."""
import os
import sys

import numpy

import chainer_core as chainer
import chainer_core.functions as F
import chainer_core.links as L
from chainer_core import training
import chainer_mn
from _mpitest import check, ok

phase, out = sys.argv[1], sys.argv[2]
comm = chainer_mn.create_communicator('flat')
r = comm.rank
STOP, CRASH_AT = 12, 7


class MLP(chainer.Chain):
    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.l1 = L.Linear(None, 10)
            self.l2 = L.Linear(None, 3)

    def forward(self, x):
        return self.l2(F.relu(self.l1(x)))


numpy.random.seed(1234 + r)
rng = numpy.random.RandomState(0)
data = None
if r == 0:
    x = rng.normal(size=(60, 5)).astype(numpy.float32)
    t = (x.sum(axis=1) > 0).astype(numpy.int32)
    data = [(a, b) for a, b in zip(x, t)]
train = chainer_mn.scatter_dataset(data, comm, shuffle=True, seed=7)
model = L.Classifier(MLP())
opt = chainer_mn.create_multi_node_optimizer(chainer.optimizers.Adam(), comm)
opt.setup(model)
it = chainer.iterators.SerialIterator(train, 4, shuffle=True)
updater = training.updaters.StandardUpdater(it, opt)
trainer = training.Trainer(updater, (STOP, 'iteration'),
                           out=os.path.join(out, phase))
checkpointer = chainer_mn.create_multi_node_checkpointer(
    'run', comm, cp_interval=2, gc_interval=2, path=os.path.join(out, 'cp'))
trainer.extend(checkpointer, trigger=(2, 'iteration'))


@training.make_extension(trigger=(1, 'iteration'))
def crash(trainer):
    if phase == 'crash' and trainer.updater.iteration == CRASH_AT:
        raise RuntimeError('crash on purpose at iteration {}'.format(
            CRASH_AT))


trainer.extend(crash)
if phase in ('full', 'crash'):
    check(checkpointer.maybe_load(trainer) is None, 'nothing to resume')
if phase == 'resume':
    loaded = checkpointer.maybe_load(trainer)
    print('rank {} resumed from iteration {}'.format(r, loaded), flush=True)
    check(loaded == 4, 'resumed from the newest common snapshot, got {}'
          .format(loaded))
    check(trainer.updater.iteration == 4, 'the iteration was restored')
trainer.run()
check(trainer.updater.iteration == STOP, 'ran to the end')
left = [f for f in os.listdir(os.path.join(out, 'cp'))
        if f.startswith('run.{}.'.format(r))]
check(left == [], 'the checkpoints are removed after success: {}'.format(
    left))
chainer.serializers.save_npz(
    os.path.join(out, '{}.{}.npz'.format(phase, r)), model)
ok(comm)
