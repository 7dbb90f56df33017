"""Data-parallel training throughput on 1 and 2 processes.

Trains the MLP of examples/mnist/train_mnist.py (784-1000-1000-10, Adam)
on synthetic MNIST-shaped data with ``--batchsize`` examples per process
per step, through the StandardUpdater and the multi-node optimizer ('flat'
communicator), on ``@numpy``, and reports examples per second over all
processes and the share of the step spent averaging gradients.

Run the comparison (launches mpiexec itself)::

    python bench/bench_throughput.py --compare

or one configuration: ``mpiexec -n 2 python bench/bench_throughput.py``
(set ``OMP_NUM_THREADS``/``OPENBLAS_NUM_THREADS`` for the BLAS threads).
"""
import argparse
import json
import os
import subprocess
import sys
import time


def worker(args):
    import numpy

    import chainer_core as chainer
    import chainer_core.functions as F
    import chainer_core.links as L
    import chainer_mn

    class MLP(chainer.Chain):
        def __init__(self):
            super().__init__()
            with self.init_scope():
                self.l1 = L.Linear(784, 1000)
                self.l2 = L.Linear(1000, 1000)
                self.l3 = L.Linear(1000, 10)

        def forward(self, x):
            return self.l3(F.relu(self.l2(F.relu(self.l1(x)))))

    comm = chainer_mn.create_communicator(args.communicator)
    rng = numpy.random.RandomState(comm.rank)
    n = args.batchsize * 20
    data = chainer.datasets.TupleDataset(
        rng.uniform(size=(n, 784)).astype(numpy.float32),
        rng.randint(0, 10, size=n).astype(numpy.int32))
    model = L.Classifier(MLP())
    opt = chainer_mn.create_multi_node_optimizer(
        chainer.optimizers.Adam(), comm).setup(model)
    it = chainer.iterators.SerialIterator(data, args.batchsize)
    updater = chainer.training.updaters.StandardUpdater(it, opt,
                                                        device='@numpy')
    spent = [0.0]
    mean_grad = comm.multi_node_mean_grad

    def timed_mean_grad(*a, **k):
        start = time.perf_counter()
        mean_grad(*a, **k)
        spent[0] += time.perf_counter() - start
    comm.multi_node_mean_grad = timed_mean_grad

    for _ in range(args.warmup):
        updater.update()
    spent[0] = 0.0
    comm.mpi_comm.Barrier()
    start = time.perf_counter()
    for _ in range(args.steps):
        updater.update()
    comm.mpi_comm.Barrier()
    elapsed = time.perf_counter() - start
    averaging = comm.mpi_comm.allreduce(spent[0]) / comm.size
    if comm.rank == 0:
        result = {
            'processes': comm.size,
            'threads': os.environ.get('OMP_NUM_THREADS', ''),
            'examples_per_s': comm.size * args.batchsize * args.steps /
            elapsed,
            'step_ms': 1000 * elapsed / args.steps,
            'averaging_share': averaging / elapsed,
        }
        print(json.dumps(result), flush=True)


def compare(args):
    mpiexec = os.path.join(os.path.dirname(sys.executable), 'mpiexec')
    if not os.path.exists(mpiexec):
        mpiexec = 'mpiexec'
    rows = []
    for processes, threads in [(1, 1), (1, 2), (2, 1)]:
        env = dict(os.environ, OMP_NUM_THREADS=str(threads),
                   OPENBLAS_NUM_THREADS=str(threads),
                   CHAINER_DEVICE='@numpy')
        out = subprocess.run(
            [mpiexec, '-n', str(processes), sys.executable,
             os.path.abspath(__file__), '--batchsize', str(args.batchsize),
             '--steps', str(args.steps), '--warmup', str(args.warmup),
             '--communicator', args.communicator],
            env=env, capture_output=True, text=True, check=True).stdout
        rows.append(json.loads(out.strip().splitlines()[-1]))
    print('MLP 784-1000-1000-10, batch {} per process, {} steps, '
          "communicator '{}'".format(args.batchsize, args.steps,
                                     args.communicator))
    print('{:>9} {:>14} {:>12} {:>10} {:>14}'.format(
        'processes', 'BLAS threads', 'examples/s', 'step ms',
        'averaging %'))
    for row in rows:
        print('{:>9} {:>14} {:>12.0f} {:>10.1f} {:>14.1f}'.format(
            row['processes'], row['threads'], row['examples_per_s'],
            row['step_ms'], 100 * row['averaging_share']))


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument('--batchsize', type=int, default=100)
    parser.add_argument('--steps', type=int, default=50)
    parser.add_argument('--warmup', type=int, default=5)
    parser.add_argument('--communicator', default='flat')
    parser.add_argument('--compare', action='store_true',
                        help='run 1 process (1 and 2 BLAS threads) and 2 '
                        'processes (1 thread each) and print a table')
    args = parser.parse_args()
    if args.compare:
        compare(args)
    else:
        worker(args)


if __name__ == '__main__':
    main()
