"""Train a multi-layer perceptron on handwritten digits, data-parallel over
MPI processes (chainer-mn).

Launch with ``mpiexec -n 2 python train_mnist_data_parallel.py`` (Open MPI
as root: ``mpiexec --allow-run-as-root --oversubscribe -n 2 ...``). Rank 0
splits the training and test sets between the processes; each process
trains a replica on its part and the gradients are averaged over all of
them at every step, so ``--batchsize`` is per process (the global batch is
that times the number of processes). By default the digits set that ships
with scikit-learn is used, so the example runs offline; ``--dataset
mnist`` downloads MNIST instead.
"""
import argparse
import os
import re

import chainer_core as chainer
import chainer_core.functions as F
import chainer_core.links as L
from chainer_core import training
from chainer_core.training import extensions
import chainer_mn


class MLP(chainer.Chain):
    """Two hidden layers of ``n_units`` with ReLU."""

    def __init__(self, n_units, n_out):
        super().__init__()
        with self.init_scope():
            # Input sizes are inferred on the first batch.
            self.l1 = L.Linear(None, n_units)
            self.l2 = L.Linear(None, n_units)
            self.l3 = L.Linear(None, n_out)

    def forward(self, x):
        h1 = F.relu(self.l1(x))
        h2 = F.relu(self.l2(h1))
        return self.l3(h2)


def load(name):
    if name == 'digits':
        return chainer.datasets.get_digits()
    return chainer.datasets.get_mnist()


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument('--batchsize', '-b', type=int, default=100,
                        help='examples in each mini-batch of each process')
    parser.add_argument('--epoch', '-e', type=int, default=20,
                        help='number of sweeps over the dataset')
    parser.add_argument('--frequency', '-f', type=int, default=-1,
                        help='snapshot every this many epochs (-1: at the '
                        'end only)')
    parser.add_argument('--device', '-d', type=str, default=None,
                        help="device specifier ('@numpy', 'native:0', ...; "
                        "default: the communicator's GPU for 'pure_nccl', "
                        'else the best installed)')
    parser.add_argument('--out', '-o', default='result',
                        help='folder for the log, plots and snapshots')
    parser.add_argument('--resume', '-r', type=str,
                        help='resume from this snapshot file; "{rank}" in '
                        'the name stands for the process rank (each '
                        'process resumes from its own snapshot)')
    parser.add_argument('--autoload', action='store_true',
                        help='resume from the newest snapshot in --out that '
                        'every process has')
    parser.add_argument('--unit', '-u', type=int, default=1000,
                        help='units in each hidden layer')
    parser.add_argument('--noplot', dest='plot', action='store_false',
                        help='do not write loss.png and accuracy.png')
    parser.add_argument('--dataset', choices=('digits', 'mnist'),
                        default='digits', help='the data to train on')
    parser.add_argument('--communicator', type=str, default='flat',
                        help="chainer-mn communicator: 'flat', 'naive', "
                        "'non_cuda_aware', 'pure_nccl' (GPUs) or 'dummy'")
    args = parser.parse_args()

    comm = chainer_mn.create_communicator(args.communicator)
    # A GPU communicator gives each process its own GPU (by its rank on
    # the node), as ChainerMN's examples choose one.
    device = chainer.get_device(args.device if args.device is not None
                                else getattr(comm, 'device', None))
    if comm.rank == 0:
        print('Processes: {}'.format(comm.size))
        print('Communicator: {}'.format(args.communicator))
        print('Device: {}'.format(device))
        print('# unit: {}'.format(args.unit))
        print('# Minibatch-size: {} per process, {} in all'.format(
            args.batchsize, args.batchsize * comm.size))
        print('# epoch: {}'.format(args.epoch))
        print('')

    model = L.Classifier(MLP(args.unit, 10))
    model.to_device(device)
    device.use()

    optimizer = chainer_mn.create_multi_node_optimizer(
        chainer.optimizers.Adam(), comm)
    optimizer.setup(model)

    # Rank 0 reads the data and sends each process its part.
    train, test = load(args.dataset) if comm.rank == 0 else (None, None)
    train = chainer_mn.scatter_dataset(train, comm, shuffle=True)
    test = chainer_mn.scatter_dataset(test, comm, shuffle=True)
    train_iter = chainer.iterators.SerialIterator(train, args.batchsize)
    test_iter = chainer.iterators.SerialIterator(test, args.batchsize,
                                                 repeat=False, shuffle=False)

    updater = training.updaters.StandardUpdater(train_iter, optimizer,
                                                device=device)
    trainer = training.Trainer(updater, (args.epoch, 'epoch'), out=args.out)

    evaluator = extensions.Evaluator(test_iter, model, device=device)
    trainer.extend(chainer_mn.create_multi_node_evaluator(evaluator, comm))

    # Every process snapshots its own state (its replica, and its position
    # in its part of the data).
    frequency = args.epoch if args.frequency == -1 else max(1, args.frequency)
    trainer.extend(extensions.snapshot(
        filename='snapshot_iter_{{.updater.iteration}}.rank{}'.format(
            comm.rank), n_retains=2), trigger=(frequency, 'epoch'))

    # The reports are the same on every process: rank 0 shows them.
    if comm.rank == 0:
        trainer.extend(extensions.LogReport())
        if args.plot and extensions.PlotReport.available():
            trainer.extend(extensions.PlotReport(
                ['main/loss', 'validation/main/loss'], 'epoch',
                filename='loss.png'))
            trainer.extend(extensions.PlotReport(
                ['main/accuracy', 'validation/main/accuracy'], 'epoch',
                filename='accuracy.png'))
        trainer.extend(extensions.PrintReport(
            ['epoch', 'main/loss', 'validation/main/loss', 'main/accuracy',
             'validation/main/accuracy', 'elapsed_time']))
        trainer.extend(extensions.ProgressBar(update_interval=10))

    if args.resume:
        chainer.serializers.load_npz(args.resume.format(rank=comm.rank),
                                     trainer)
        # Every process loaded its state: no broadcast at the next update.
        optimizer.mark_synchronized()
    elif args.autoload:
        resume_newest_common(trainer, optimizer, comm)

    trainer.run()


def resume_newest_common(trainer, optimizer, comm):
    """Load the newest snapshot of this process whose iteration every
    process has a snapshot of."""
    pattern = re.compile(r'^snapshot_iter_(\d+)\.rank{}$'.format(comm.rank))
    try:
        names = os.listdir(trainer.out)
    except FileNotFoundError:
        names = []
    mine = {int(m.group(1)) for m in map(pattern.match, names) if m}
    common = set.intersection(*[set(s) for s in comm.allgather_obj(mine)])
    if not common:
        return
    newest = max(common)
    chainer.serializers.load_npz(os.path.join(
        trainer.out, 'snapshot_iter_{}.rank{}'.format(newest, comm.rank)),
        trainer)
    optimizer.mark_synchronized()
    if comm.rank == 0:
        print('Resumed from iteration {}'.format(newest))


if __name__ == '__main__':
    main()
