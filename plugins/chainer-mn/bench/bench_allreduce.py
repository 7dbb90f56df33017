"""Averaging a ResNet-50's gradients over MPI processes.

Times ``multi_node_mean_grad`` on the 162 gradients (25,557,096 float32)
of ``chainer_core.links.ResNet50Layers`` for each communicator, next to a
single raw mpi4py ``Allreduce`` of one buffer of that many float32 (out of
place, as ``Allreduce(send, recv)``, and in place). Each time is that of
the slowest process; the table shows the median (and the minimum) over
the repetitions, and the median ratio to the raw out-of-place Allreduce
of the same round (the cases take turns, so that a busy machine slows
them alike).

Run: ``mpiexec -n 2 python bench/bench_allreduce.py [--repeat 10]``
(pin the BLAS threads, e.g. ``OMP_NUM_THREADS=1``; nothing here computes).
"""
import argparse
import json
import time

import numpy

import chainer_core.links as L
import chainer_mn


def measure(comm, cases, repeat):
    """For each case ``(label, fn, prepare)``: the times of the slowest
    process over ``repeat`` rounds (after two untimed rounds). The cases
    run in turn within each round, so that a slow spell of the machine
    hits all of them alike."""
    from mpi4py import MPI
    times = {label: [] for label, _, _ in cases}
    for i in range(repeat + 2):
        for label, fn, prepare in cases:
            if prepare is not None:
                prepare()
            comm.mpi_comm.Barrier()
            start = time.perf_counter()
            fn()
            elapsed = time.perf_counter() - start
            slowest = comm.mpi_comm.allreduce(elapsed, op=MPI.MAX)
            if i >= 2:
                times[label].append(slowest)
    return times


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument('--repeat', type=int, default=10)
    parser.add_argument('--json', help='also write the results here')
    args = parser.parse_args()

    comm = chainer_mn.create_communicator('flat')
    numpy.random.seed(comm.rank)
    model = L.ResNet50Layers(pretrained_model=None)
    params = [p for _, p in sorted(model.namedparams())]
    grads = [numpy.random.normal(size=p.shape).astype(p.dtype)
             for p in params]
    n_floats = sum(p.size for p in params)

    def fresh_grads():
        # Every step of training brings new gradient arrays.
        for p, g in zip(params, grads):
            p.grad = g

    from mpi4py import MPI
    send = numpy.ones(n_floats, numpy.float32)
    recv = numpy.empty_like(send)
    raw = 'raw Allreduce(send, recv)'
    cases = [
        (raw, lambda: comm.mpi_comm.Allreduce(send, recv), None),
        ('raw Allreduce(IN_PLACE, buf)',
         lambda: comm.mpi_comm.Allreduce(MPI.IN_PLACE, recv), None)]
    for name, dtype in [('flat', None), ('non_cuda_aware', None),
                        ('naive', None), ('dummy', None),
                        ('flat', 'float16')]:
        c = chainer_mn.create_communicator(name, allreduce_grad_dtype=dtype)
        label = 'multi_node_mean_grad, {}{}'.format(
            name, '' if dtype is None else ' ({} communication)'.format(
                dtype))
        cases.append((label, lambda c=c: c.multi_node_mean_grad(model),
                      fresh_grads))
    times = measure(comm, cases, args.repeat)
    results = []
    for label, _, _ in cases:
        t = numpy.array(times[label])
        # The ratio to the raw Allreduce of the same round.
        ratio = float(numpy.median(t / numpy.array(times[raw])))
        results.append((label, float(numpy.median(t)), float(t.min()),
                        ratio))

    if comm.rank == 0:
        print('{} processes, {} gradients, {} float32 ({:.1f} MB)'.format(
            comm.size, len(params), n_floats, n_floats * 4 / 1e6))
        print('{:<52} {:>9} {:>9} {:>7}'.format(
            'what', 'median s', 'min s', 'ratio'))
        for label, median, minimum, ratio in results:
            print('{:<52} {:>9.4f} {:>9.4f} {:>7.2f}'.format(
                label, median, minimum, ratio))
        if args.json:
            with open(args.json, 'w') as f:
                json.dump({'processes': comm.size, 'floats': n_floats,
                           'results': [
                               {'what': label, 'median_s': median,
                                'min_s': minimum, 'ratio': ratio}
                               for label, median, minimum, ratio
                               in results]},
                          f, indent=1)


if __name__ == '__main__':
    main()
