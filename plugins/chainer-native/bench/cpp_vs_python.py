"""The training step of examples/cpp/train_mlp (a 2-64-3 perceptron with
ReLU, softmax cross entropy and Adam on minibatches of 128 spiral points)
through the Python API on native:0, beside the C++ program's own timing.

    python plugins/chainer-native/bench/cpp_vs_python.py \\
        --cpp build/cpp-examples/train_mlp --threads 1

Both time only the step (forward, cleargrads, backward, update), after the
same number of steps; the C++ side is the mean over its run, the Python
side the median of timed blocks (what bench/raw.py reports).
"""
import argparse
import os
import re
import statistics
import subprocess
import sys
import time

import numpy


def spirals(samples_per_class, rng):
    classes = 3
    r = numpy.tile(numpy.arange(samples_per_class) / samples_per_class,
                   classes)
    c = numpy.repeat(numpy.arange(classes), samples_per_class)
    angle = 4.0 * r + 2.0 * numpy.pi * c / classes + \
        rng.normal(0.0, 0.15, r.shape)
    x = numpy.stack([r * numpy.cos(angle), r * numpy.sin(angle)], axis=1)
    return x.astype(numpy.float32), c.astype(numpy.int32)


def python_step_ms(steps, batch, hidden, threads, device_spec):
    import chainer_core as chainer
    import chainer_core.functions as F
    import chainer_core.links as L

    if device_spec.startswith('native'):
        import chainer_native
        chainer_native.set_num_threads(threads)

    class MLP(chainer.Chain):
        def __init__(self):
            super().__init__()
            with self.init_scope():
                self.l1 = L.Linear(2, hidden)
                self.l2 = L.Linear(hidden, 3)

        def forward(self, x):
            return self.l2(F.relu(self.l1(x)))

    rng = numpy.random.RandomState(0)
    x, t = spirals(500, rng)
    device = chainer.get_device(device_spec)
    model = MLP().to_device(device)
    opt = chainer.optimizers.Adam(alpha=0.01).setup(model)
    order = rng.permutation(len(x))
    batches = [(device.send(x[order[i:i + batch]]),
                device.send(t[order[i:i + batch]]))
               for i in range(0, len(x) - batch + 1, batch)]

    def step(xb, tb):
        loss = F.softmax_cross_entropy(model(xb), tb)
        model.cleargrads()
        loss.backward()
        opt.update()
        return loss

    for i in range(20):  # warm up
        step(*batches[i % len(batches)])
    blocks = []
    per_block = max(1, steps // 5)
    for _ in range(5):
        t0 = time.perf_counter()
        for i in range(per_block):
            step(*batches[i % len(batches)])
        blocks.append((time.perf_counter() - t0) / per_block)
    return 1e3 * statistics.median(blocks), float(step(*batches[0]).array)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--cpp', help='the train_mlp program')
    parser.add_argument('--steps', type=int, default=1000)
    parser.add_argument('--batch', type=int, default=128)
    parser.add_argument('--hidden', type=int, default=64)
    parser.add_argument('--threads', type=int, default=1)
    parser.add_argument('--devices', nargs='+', default=['native:0'])
    args = parser.parse_args()

    rows = []
    if args.cpp:
        out = subprocess.run(
            [args.cpp, '--steps', str(args.steps), '--batch',
             str(args.batch), '--hidden', str(args.hidden), '--threads',
             str(args.threads), '--print-every', str(args.steps)],
            check=True, stdout=subprocess.PIPE,
            universal_newlines=True).stdout
        ms = float(re.search(r'time per step: (\S+) ms', out).group(1))
        rows.append(('C++ (train_mlp)', ms))
    for spec in args.devices:
        ms, _ = python_step_ms(args.steps, args.batch, args.hidden,
                               args.threads, spec)
        rows.append(('Python API, {}'.format(spec), ms))
    print('training step, 2-{}-3 MLP, batch {}, Adam, {} thread(s):'.format(
        args.hidden, args.batch, args.threads))
    base = rows[0][1]
    for name, ms in rows:
        print('  {:28s} {:8.4f} ms/step  ({:.1f}x)'.format(name, ms,
                                                          ms / base))


if __name__ == '__main__':
    os.environ.setdefault('OMP_NUM_THREADS', '1')
    sys.exit(main())
