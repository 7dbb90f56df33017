"""chainer-core on @cupy:0 side by side with PyTorch on CUDA, in one run.

The workloads are bench/workloads.py's, written once for both: the
Chainer-API models on ``@cupy:0``, the PyTorch ones built with CUDA as
PyTorch's default device. Each time is the median of timed blocks of steps,
the GPU synchronized at both ends of a block. Prints one JSON line per
measurement, then a table with chainer-core's time over PyTorch's.

The ``*_graph_step`` workloads are the MLP steps captured as one CUDA graph
and replayed: ``chainer_cuda.graph_step`` on ``@cupy:0``,
``torch.cuda.CUDAGraph`` for PyTorch (next to ``tiny_mlp_step``, the
eager step, in the default cases).

    python plugins/chainer-cuda/tools/bench_gpu.py mlp_step:256 conv_step:128
"""
import argparse
import json
import os
import sys

import numpy

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..',
                                    '..'))
DEFAULT_CASES = ('mlp_step:256', 'conv_step:128', 'tiny_mlp_step:1',
                 'tiny_mlp_graph_step:1')
# The layer sizes of bench/workloads.py's MLP steps, by the name of their
# graph-captured variant.
GRAPH_STEPS = {'tiny_mlp_graph_step': (10, 10, 10, 10),
               'mlp_graph_step': (784, 1000, 1000, 10)}
# Eager steps before the capture, for both frameworks.
GRAPH_WARMUP = 3


def build_graph_step(chainer, workloads, name, batch, device):
    """The MLP step of ``name`` as a ``chainer_cuda.graph_step``."""
    import chainer_cuda
    sizes = GRAPH_STEPS[name]
    model = workloads._mlp(chainer, sizes)
    model.to_device(device)
    rng = numpy.random.RandomState(0)
    x = device.send(rng.normal(size=(batch, sizes[0])).astype(numpy.float32))
    t = device.send(rng.randint(0, sizes[-1], batch).astype(numpy.int32))
    optimizer = chainer.optimizers.SGD(0.01)
    optimizer.setup(model)
    step = chainer_cuda.graph_step(
        model, optimizer,
        lambda x, t: chainer.functions.softmax_cross_entropy(model(x), t),
        warmup=GRAPH_WARMUP)
    return lambda: step(x, t)


def build_torch_graph_step(torch, name, batch):
    """The MLP step of ``name`` captured whole with torch.cuda.graph, as
    PyTorch's CUDA graphs notes describe: warm-up on a side stream, the
    gradients set to None before the capture, static inputs copied in
    before each replay."""
    nn = torch.nn
    sizes = GRAPH_STEPS[name]
    layers = []
    for i, (a, b) in enumerate(zip(sizes[:-1], sizes[1:])):
        layers.append(nn.Linear(a, b))
        if i < len(sizes) - 2:
            layers.append(nn.ReLU())
    model = nn.Sequential(*layers)
    x = torch.randn(batch, sizes[0])
    t = torch.randint(0, sizes[-1], (batch,))
    static_x, static_t = x.clone(), t.clone()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)

    def train():
        optimizer.zero_grad(set_to_none=True)
        nn.functional.cross_entropy(model(static_x), static_t).backward()
        optimizer.step()

    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        for _ in range(GRAPH_WARMUP):
            train()
    torch.cuda.current_stream().wait_stream(side)
    graph = torch.cuda.CUDAGraph()
    optimizer.zero_grad(set_to_none=True)
    with torch.cuda.graph(graph):
        nn.functional.cross_entropy(model(static_x), static_t).backward()
        optimizer.step()

    def step():
        static_x.copy_(x)
        static_t.copy_(t)
        graph.replay()

    return step


def frameworks():
    import chainer_core as chainer
    device = chainer.get_device('@cupy:0')

    def build(workloads, name, batch):
        if name in GRAPH_STEPS:
            return build_graph_step(chainer, workloads, name, batch, device)
        return workloads.build(chainer, name, batch, device)
    yield ('chainer_core', chainer.__version__, device.name, build,
           device.synchronize)
    try:
        import torch
    except ImportError as e:
        print('PyTorch is not installed: {}'.format(e), file=sys.stderr)
        return
    if not torch.cuda.is_available():
        print('PyTorch has no CUDA here', file=sys.stderr)
        return

    def build_torch(workloads, name, batch):
        # The workloads create tensors and modules without a device.
        torch.set_default_device('cuda')
        try:
            if name in GRAPH_STEPS:
                return build_torch_graph_step(torch, name, batch)
            return workloads.build_torch(torch, name, batch)
        finally:
            torch.set_default_device(None)
    yield ('torch', torch.__version__, 'cuda:0', build_torch,
           torch.cuda.synchronize)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument('cases', nargs='*', default=DEFAULT_CASES,
                        help='workload:batch (default: %(default)s)')
    parser.add_argument('--block-seconds', type=float, default=0.3)
    parser.add_argument('--blocks', type=int, default=5)
    args = parser.parse_args()
    sys.path.insert(0, os.path.join(REPO, 'bench'))
    import workloads
    from _worker import measure

    rows = []
    for framework, version, device, build, synchronize in frameworks():
        for case in args.cases:
            name, batch = case.split(':')
            row = {'framework': framework, 'version': version,
                   'device': device, 'workload': name, 'batch': int(batch)}
            try:
                median, fastest, n = measure(
                    build(workloads, name, int(batch)), args.block_seconds,
                    args.blocks, synchronize)
            except Exception as e:
                row['error'] = '{}: {}'.format(type(e).__name__, e)[:300]
            else:
                row.update(us=median * 1e6, fastest_us=fastest * 1e6,
                           steps_per_block=n)
            print(json.dumps(row), flush=True)
            rows.append(row)

    times = {(r['framework'], r['workload'], r['batch']): r.get('us')
             for r in rows}
    print('\n{:<16} {:>6} {:>16} {:>12} {:>8}'.format(
        'workload', 'batch', 'chainer_core us', 'torch us', 'ratio'))
    for case in args.cases:
        name, batch = case.split(':')
        ours = times.get(('chainer_core', name, int(batch)))
        theirs = times.get(('torch', name, int(batch)))
        ratio = ours / theirs if ours and theirs else None
        print('{:<16} {:>6} {:>16} {:>12} {:>8}'.format(
            name, batch, '-' if ours is None else '{:.1f}'.format(ours),
            '-' if theirs is None else '{:.1f}'.format(theirs),
            '-' if ratio is None else '{:.2f}x'.format(ratio)))


if __name__ == '__main__':
    main()
