"""chainer-core on @cupy:0 side by side with PyTorch on CUDA, in one run.

The workloads are bench/workloads.py's, written once for both: the
Chainer-API models on ``@cupy:0``, the PyTorch ones built with CUDA as
PyTorch's default device. Each time is the median of timed blocks of steps,
the GPU synchronized at both ends of a block. Prints one JSON line per
measurement, then a table with chainer-core's time over PyTorch's.

    python plugins/chainer-cuda/tools/bench_gpu.py mlp_step:256 conv_step:128
"""
import argparse
import json
import os
import sys

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..',
                                    '..'))
DEFAULT_CASES = ('mlp_step:256', 'conv_step:128', 'tiny_mlp_step:1')


def frameworks():
    import chainer_core as chainer
    device = chainer.get_device('@cupy:0')
    yield ('chainer_core', chainer.__version__, device.name,
           lambda workloads, name, batch: workloads.build(
               chainer, name, batch, device), device.synchronize)
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
