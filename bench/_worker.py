"""Time one framework's workloads in this process; print JSON lines.

Run by bench/run.py in a fresh process per framework, with the thread
count pinned through the environment before NumPy or PyTorch load.
"""
import argparse
import json
import statistics
import sys
import time


def measure(step, min_block_s=0.2, blocks=7, synchronize=None, warmup=3):
    """Median and fastest seconds per call over ``blocks`` timed blocks.

    ``synchronize`` (for a device that queues work, as a GPU does) is called
    at the end of every block, so that a block's time includes its work.
    """
    sync = synchronize or (lambda: None)
    for _ in range(warmup):
        step()
    sync()
    n = 1
    while True:
        t0 = time.perf_counter()
        for _ in range(n):
            step()
        sync()
        if time.perf_counter() - t0 >= min_block_s / 4 or n >= 1 << 20:
            break
        n *= 4
    elapsed = time.perf_counter() - t0
    n = max(1, int(n * min_block_s / max(elapsed, 1e-9)))
    times = []
    for _ in range(blocks):
        t0 = time.perf_counter()
        for _ in range(n):
            step()
        sync()
        times.append((time.perf_counter() - t0) / n)
    return statistics.median(times), min(times), n


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--framework', required=True,
                        choices=('chainer_core', 'chainer', 'torch'))
    parser.add_argument('--device', default='@numpy')
    parser.add_argument('--threads', type=int, required=True)
    parser.add_argument('--case', action='append', required=True,
                        help='workload:batch')
    parser.add_argument('--warmup', type=int, default=3)
    parser.add_argument('--blocks', type=int, default=7)
    args = parser.parse_args()
    sys.path.insert(0, __file__.rsplit('/', 1)[0])
    import cv_workloads
    import workloads

    if args.framework == 'torch':
        import torch
        torch.set_num_threads(args.threads)
        version = torch.__version__

        def make(name, batch):
            if name in cv_workloads.CV_WORKLOADS:
                return cv_workloads.build_torch(torch, name, batch)
            return workloads.build_torch(torch, name, batch)
        device_name = 'cpu'
    else:
        if args.framework == 'chainer':
            import chainer
        else:
            import chainer_core as chainer
        version = chainer.__version__
        device = chainer.get_device(args.device)
        device_name = str(device)
        if device_name == '@intel64':
            # Whether oneDNN ran at all (Chainer's default is 'never').
            device_name += ' ideep={}'.format(chainer.config.use_ideep)

        def make(name, batch):
            if name in cv_workloads.CV_WORKLOADS:
                return cv_workloads.build(chainer, name, batch, device)
            return workloads.build(chainer, name, batch, device)

    for case in args.case:
        name, batch = case.split(':')
        row = {'framework': args.framework, 'version': version,
               'device': device_name, 'workload': name, 'batch': int(batch),
               'threads': args.threads}
        # One workload that a runtime lacks an op for must not cost the
        # measurements of the others.
        try:
            median, fastest, n = measure(make(name, int(batch)),
                                         blocks=args.blocks,
                                         warmup=args.warmup)
        except Exception as e:
            row['error'] = '{}: {}'.format(type(e).__name__, e)[:300]
        else:
            # The fastest block next to the median shows how much other load
            # on the machine moved the number.
            row.update(us_per_iter=median * 1e6, us_min_block=fastest * 1e6,
                       iterations_per_block=n, blocks=args.blocks)
        print(json.dumps(row), flush=True)


if __name__ == '__main__':
    main()
