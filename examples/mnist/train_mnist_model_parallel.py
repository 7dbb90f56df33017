"""Train a multi-layer perceptron on handwritten digits with its layers
split over two MPI processes (model parallelism, chainer-mn).

Launch with ``mpiexec -n 2 python train_mnist_model_parallel.py`` (Open
MPI as root: ``mpiexec --allow-run-as-root --oversubscribe -n 2 ...``).

Rank 0 holds the first hidden layer and the output layer, rank 1 the
second hidden layer::

    rank 0: x -> l1 -> relu --send-->
    rank 1:      l2 -> relu --send-->
    rank 0:      l3 -> loss

Rank 0 reads the data; rank 1 iterates over an empty dataset of the same
length, so that both take the same number of steps. Backprop follows the
same path backwards across the processes.
"""
import argparse

import chainer_core as chainer
import chainer_core.functions as F
import chainer_core.links as L
from chainer_core import training
from chainer_core.training import extensions
import chainer_mn


class FirstHidden(chainer.Chain):
    def __init__(self, n_units):
        super().__init__()
        with self.init_scope():
            self.l1 = L.Linear(None, n_units)

    def forward(self, x):
        return F.relu(self.l1(x))


class SecondHidden(chainer.Chain):
    def __init__(self, n_units):
        super().__init__()
        with self.init_scope():
            self.l2 = L.Linear(None, n_units)

    def forward(self, h):
        return F.relu(self.l2(h))


class Output(chainer.Chain):
    def __init__(self, n_out):
        super().__init__()
        with self.init_scope():
            self.l3 = L.Linear(None, n_out)

    def forward(self, h):
        return self.l3(h)


class Rank0Part(chainer_mn.MultiNodeChainList):
    """x -> first hidden layer -> (rank 1) -> output layer."""

    def __init__(self, comm, n_units, n_out):
        super().__init__(comm)
        self.add_link(FirstHidden(n_units), rank_in=None, rank_out=1)
        self.add_link(Output(n_out), rank_in=1, rank_out=None)


class Rank1Part(chainer_mn.MultiNodeChainList):
    """(rank 0) -> second hidden layer -> (rank 0)."""

    def __init__(self, comm, n_units):
        super().__init__(comm)
        self.add_link(SecondHidden(n_units), rank_in=0, rank_out=0)


def load(name):
    if name == 'digits':
        return chainer.datasets.get_digits()
    return chainer.datasets.get_mnist()


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument('--batchsize', '-b', type=int, default=100,
                        help='examples in each mini-batch')
    parser.add_argument('--epoch', '-e', type=int, default=20,
                        help='number of sweeps over the dataset')
    parser.add_argument('--device', '-d', type=str, default=None,
                        help="device specifier ('@numpy', 'native:0', ...; "
                        'default: the best installed)')
    parser.add_argument('--out', '-o', default='result',
                        help='folder for the log')
    parser.add_argument('--unit', '-u', type=int, default=1000,
                        help='units in each hidden layer')
    parser.add_argument('--dataset', choices=('digits', 'mnist'),
                        default='digits', help='the data to train on')
    parser.add_argument('--communicator', type=str, default='naive',
                        help='chainer-mn communicator')
    args = parser.parse_args()

    comm = chainer_mn.create_communicator(args.communicator)
    if comm.size != 2:
        raise SystemExit('this example runs on exactly 2 processes '
                         '(mpiexec -n 2), not {}'.format(comm.size))
    device = chainer.get_device(args.device)
    if comm.rank == 0:
        print('Device: {}'.format(device))
        print('# unit: {}'.format(args.unit))
        print('# Minibatch-size: {}'.format(args.batchsize))
        print('# epoch: {}'.format(args.epoch))
        print('')

    if comm.rank == 0:
        model = L.Classifier(Rank0Part(comm, args.unit, 10))
    else:
        model = Rank1Part(comm, args.unit)
    model.to_device(device)
    device.use()
    optimizer = chainer.optimizers.Adam()
    optimizer.setup(model)

    # Both processes need the dataset's length: rank 0 tells rank 1.
    train, test = load(args.dataset) if comm.rank == 0 else (None, None)
    lengths = comm.bcast_obj(
        (len(train), len(test)) if comm.rank == 0 else None)
    if comm.rank == 1:
        train = chainer_mn.datasets.create_empty_dataset(range(lengths[0]))
        test = chainer_mn.datasets.create_empty_dataset(range(lengths[1]))
    train_iter = chainer.iterators.SerialIterator(
        train, args.batchsize, shuffle=comm.rank == 0)
    test_iter = chainer.iterators.SerialIterator(
        test, args.batchsize, repeat=False, shuffle=False)

    updater = training.updaters.StandardUpdater(train_iter, optimizer,
                                                device=device)
    trainer = training.Trainer(updater, (args.epoch, 'epoch'), out=args.out)
    trainer.extend(extensions.Evaluator(test_iter, model, device=device))
    if comm.rank == 0:
        trainer.extend(extensions.LogReport())
        trainer.extend(extensions.PrintReport(
            ['epoch', 'main/loss', 'validation/main/loss', 'main/accuracy',
             'validation/main/accuracy', 'elapsed_time']))
    trainer.run()


if __name__ == '__main__':
    main()
