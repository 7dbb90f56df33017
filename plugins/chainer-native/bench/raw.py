"""The workloads of chainer-core's bench/ written on the raw chainer_native
API (arrays with autograd in C++, no chainer_core objects), side by side
with PyTorch CPU: microseconds per training step and the ratio to PyTorch.

    python plugins/chainer-native/bench/raw.py --threads 2
    python plugins/chainer-native/bench/raw.py --cases op_overhead:1

Each framework runs in its own process with its thread count pinned before
it loads.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time

import numpy

CASES = ('tiny_mlp_step:1', 'op_overhead:1', 'mlp_step:1', 'mlp_step:32',
         'mlp_step:256', 'conv_step:32')


def measure(step, min_block_s=0.2, blocks=7):
    """Median seconds per call over ``blocks`` timed blocks."""
    for _ in range(3):
        step()
    n = 1
    while True:
        t0 = time.perf_counter()
        for _ in range(n):
            step()
        if time.perf_counter() - t0 >= min_block_s / 4 or n >= 1 << 20:
            break
        n *= 4
    n = max(1, int(n * min_block_s / max(time.perf_counter() - t0, 1e-9)))
    times = []
    for _ in range(blocks):
        t0 = time.perf_counter()
        for _ in range(n):
            step()
        times.append((time.perf_counter() - t0) / n)
    return statistics.median(times)


def _init(rng, shape):
    fan_in = int(numpy.prod(shape[1:]))
    return rng.normal(0, numpy.sqrt(1.0 / fan_in), shape).astype(
        numpy.float32)


def build_native(name, batch):
    import chainer_native as cn
    rng = numpy.random.RandomState(0)
    if name == 'op_overhead':
        x = cn.ones((1,), dtype=numpy.float32).require_grad()

        def step():
            x + x
        return step
    if name in ('tiny_mlp_step', 'mlp_step'):
        sizes = (10, 10, 10, 10) if name == 'tiny_mlp_step' else \
            (784, 1000, 1000, 10)
        params = []
        for a, b in zip(sizes[:-1], sizes[1:]):
            params.append(cn.asarray(_init(rng, (b, a))).require_grad())
            params.append(cn.zeros((b,), dtype=numpy.float32).require_grad())
        x = cn.asarray(rng.normal(size=(batch, sizes[0])).astype(
            numpy.float32))

        def forward():
            h = x
            for i in range(0, len(params), 2):
                h = cn.linear(h, params[i], params[i + 1])
                if i < len(params) - 2:
                    h = cn.relu(h)
            return h
    elif name == 'conv_step':
        shapes = [(32, 3, 3, 3), (32,), (64, 32, 3, 3), (64,),
                  (128, 64, 3, 3), (128,), (10, 128 * 8 * 8), (10,)]
        params = [cn.asarray(_init(rng, s) if len(s) > 1 else
                             numpy.zeros(s, numpy.float32)).require_grad()
                  for s in shapes]
        x = cn.asarray(rng.normal(size=(batch, 3, 32, 32)).astype(
            numpy.float32))

        def forward():
            w1, b1, w2, b2, w3, b3, w4, b4 = params
            h = cn.relu(cn.conv(x, w1, b1, pad=1))
            h = cn.max_pool(cn.relu(cn.conv(h, w2, b2, pad=1)), 2)
            h = cn.max_pool(cn.relu(cn.conv(h, w3, b3, pad=1)), 2)
            return cn.linear(h.reshape(batch, -1), w4, b4)
    else:
        raise ValueError(name)
    t = cn.asarray(rng.randint(0, 10, batch).astype(numpy.int32))
    lr = 0.01

    def step():
        loss = cn.softmax_cross_entropy(forward(), t)
        for p in params:
            p.cleargrad()
        loss.backward()
        for p in params:
            p -= lr * p.grad
    return step


def build_torch(name, batch):
    import torch
    nn, F = torch.nn, torch.nn.functional
    torch.manual_seed(0)
    if name == 'op_overhead':
        x = torch.ones(1, requires_grad=True)

        def step():
            x + x
        return step
    if name in ('tiny_mlp_step', 'mlp_step'):
        sizes = (10, 10, 10, 10) if name == 'tiny_mlp_step' else \
            (784, 1000, 1000, 10)
        layers = []
        for i, (a, b) in enumerate(zip(sizes[:-1], sizes[1:])):
            layers.append(nn.Linear(a, b))
            if i < len(sizes) - 2:
                layers.append(nn.ReLU())
        model = nn.Sequential(*layers)
        x = torch.randn(batch, sizes[0])
    else:
        model = nn.Sequential(
            nn.Conv2d(3, 32, 3, padding=1), nn.ReLU(),
            nn.Conv2d(32, 64, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(64, 128, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Flatten(), nn.Linear(128 * 8 * 8, 10))
        x = torch.randn(batch, 3, 32, 32)
    t = torch.randint(0, 10, (batch,))
    opt = torch.optim.SGD(model.parameters(), lr=0.01)

    def step():
        loss = F.cross_entropy(model(x), t)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
    return step


def worker(framework, threads, cases):
    if framework == 'torch':
        import torch
        torch.set_num_threads(threads)
        build = build_torch
    else:
        import chainer_native as cn
        cn.set_num_threads(threads)
        build = build_native
    for case in cases:
        name, batch = case.split(':')
        us = measure(build(name, int(batch))) * 1e6
        print(json.dumps({'framework': framework, 'workload': name,
                          'batch': int(batch), 'threads': threads,
                          'us_per_iter': us}), flush=True)


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.
                                RawDescriptionHelpFormatter)
    p.add_argument('--threads', type=int, default=2)
    p.add_argument('--cases', nargs='+', default=list(CASES))
    p.add_argument('--framework', help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.framework:
        worker(args.framework, args.threads, args.cases)
        return
    rows = {}
    for fw in ('native', 'torch'):
        env = dict(os.environ)
        for var in ('OMP_NUM_THREADS', 'OPENBLAS_NUM_THREADS',
                    'MKL_NUM_THREADS', 'CHAINER_NATIVE_THREADS'):
            env[var] = str(args.threads)
        out = subprocess.run([sys.executable, __file__, '--framework', fw,
                              '--threads', str(args.threads), '--cases',
                              *args.cases], env=env, capture_output=True,
                             text=True)
        if out.returncode:
            sys.stderr.write(out.stderr[-2000:])
        for line in out.stdout.splitlines():
            if line.startswith('{'):
                print(line)
                r = json.loads(line)
                rows[(fw, r['workload'], r['batch'])] = r['us_per_iter']
    print('\n{:<18}{:>14}{:>14}{:>10}'.format('us/iter', 'native (raw)',
                                              'torch', 'ratio'))
    for case in args.cases:
        name, batch = case.split(':')
        a = rows.get(('native', name, int(batch)))
        b = rows.get(('torch', name, int(batch)))
        if a is None or b is None:
            continue
        print('{:<18}{:>14.1f}{:>14.1f}{:>9.2f}x'.format(case, a, b, a / b))


if __name__ == '__main__':
    main()
