"""Benchmarks side by side: chainer-core on each installed device, PyTorch
CPU and (optionally) the original Chainer, in one run.

Prints one JSON line per measurement, then a table of microseconds per
iteration with each time's ratio to PyTorch's and, where it ran, to
Chainer's.

    python bench/run.py                       # every workload, 2 threads
    python bench/run.py --threads 1 --cases tiny_mlp_step:1 add_grad:1
    python bench/run.py --chainer-python /path/to/venv/bin/python
    python bench/run.py --import-time         # also time each import
    python bench/run.py --warmup 1 --blocks 3 --cases ssd300_predict:1 \
        faster_rcnn_vgg16_predict:1 resnet50_infer:8   # chainer-cv models

Each framework runs in its own process with the thread count pinned (OMP,
OpenBLAS, MKL and PyTorch's intra-op pool) before any library loads. The
chainer-core processes run with ``CHAINER_USE_IDEEP=auto`` (``--use-ideep``)
so that ``@intel64`` uses oneDNN, as a Chainer user asks for it; under
Chainer's default ``'never'`` it runs the NumPy reference, as ``@numpy``.
"""
import argparse
import importlib.util
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_CASES = ('add_grad:1', 'chain10_fwd_bwd:1', 'tiny_mlp_step:1',
                 'mlp_step:1', 'mlp_step:32', 'mlp_step:256', 'conv_step:32',
                 'bn_convnet_step:32')
IMPORT_REPEATS = 5


def chainer_core_devices():
    # available_devices() is the public list; trees from before it existed
    # only had the test suite's.
    code = ('import json\n'
            'try:\n'
            '    from chainer_core.backend import available_devices\n'
            '    names = [d.name for d in available_devices()]\n'
            'except ImportError:\n'
            '    from chainer_core.testing.backend import '
            'discovered_devices\n'
            '    names = discovered_devices()\n'
            'print(json.dumps(names))\n')
    result = subprocess.run([sys.executable, '-c', code], check=True,
                            capture_output=True, text=True)
    return json.loads(result.stdout.strip().splitlines()[-1])


def pinned_env(threads, use_ideep=None):
    env = dict(os.environ)
    for var in ('OMP_NUM_THREADS', 'OPENBLAS_NUM_THREADS', 'MKL_NUM_THREADS',
                'CHAINER_NATIVE_THREADS'):
        env[var] = str(threads)
    if use_ideep is not None:
        env['CHAINER_USE_IDEEP'] = use_ideep
    return env


def run_worker(python, framework, device, threads, cases, warmup=3,
               blocks=7, use_ideep=None):
    cmd = [python, os.path.join(HERE, '_worker.py'), '--framework',
           framework, '--device', device, '--threads', str(threads),
           '--warmup', str(warmup), '--blocks', str(blocks)]
    for case in cases:
        cmd += ['--case', case]
    proc = subprocess.run(cmd, env=pinned_env(threads, use_ideep),
                          capture_output=True, text=True)
    rows = []
    for line in proc.stdout.splitlines():
        if line.startswith('{'):
            print(line, flush=True)
            rows.append(json.loads(line))
    if proc.returncode != 0:
        sys.stderr.write('{} on {} failed:\n{}\n'.format(
            framework, device, proc.stderr[-2000:]))
    return rows


def import_time(python, framework, statement, threads):
    """Best wall time of ``statement`` over fresh interpreters, timed inside
    each so that the interpreter's own start-up is left out."""
    code = ('import time\n'
            't0 = time.perf_counter()\n'
            '{}\n'
            'print(time.perf_counter() - t0)\n').format(statement)
    best = None
    for _ in range(IMPORT_REPEATS):
        proc = subprocess.run([python, '-c', code], env=pinned_env(threads),
                              capture_output=True, text=True)
        if proc.returncode != 0:
            sys.stderr.write('{!r} failed:\n{}\n'.format(
                statement, proc.stderr[-2000:]))
            return None
        seconds = float(proc.stdout.strip().splitlines()[-1])
        best = seconds if best is None else min(best, seconds)
    row = {'framework': framework, 'workload': 'import',
           'statement': statement, 'threads': threads,
           'ms_best_of_{}'.format(IMPORT_REPEATS): best * 1e3}
    print(json.dumps(row), flush=True)
    return row


def _cell(value, refs):
    text = '{:.1f}'.format(value)
    ratios = ['{:.2f}x'.format(value / r) if r else '-' for r in refs]
    if ratios:
        text += ' (' + ' '.join(ratios) + ')'
    return text


def table(rows, cases):
    columns = []
    for r in rows:
        key = (r['framework'], r['device'])
        if key not in columns:
            columns.append(key)
    by = {(r['framework'], r['device'], r['workload'], r['batch']):
          r.get('us_per_iter') for r in rows}
    refs = [c for c in (next((c for c in columns if c[0] == name), None)
                        for name in ('torch', 'chainer')) if c]
    names = ['{} {}'.format(f, d) for f, d in columns]
    width = max([12 + 8 * len(refs)] + [len(n) for n in names]) + 2
    case_width = max([18] + [len(c) + 2 for c in cases])
    lines = ['{:<{}}'.format('us/iter', case_width) + ''.join(
        '{:>{}}'.format(n, width) for n in names)]
    for case in cases:
        name, batch = case.split(':')
        key = (name, int(batch))
        cells = []
        for column in columns:
            if column + key not in by:
                text = '-'
            elif by[column + key] is None:
                text = 'error'
            else:
                text = _cell(by[column + key],
                             [by.get(ref + key) for ref in refs
                              if ref != column])
            cells.append('{:>{}}'.format(text, width))
        lines.append('{:<{}}'.format(case, case_width) + ''.join(cells))
    if refs:
        lines.append('(ratios = time / {}; lower is faster)'.format(
            ', time / '.join('{} {}'.format(*ref) for ref in refs)))
    for r in rows:
        if 'error' in r:
            lines.append('error: {} {} {}:{}: {}'.format(
                r['framework'], r['device'], r['workload'], r['batch'],
                r['error']))
    return '\n'.join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.
                                     RawDescriptionHelpFormatter)
    parser.add_argument('--cases', nargs='+', default=list(DEFAULT_CASES),
                        help='workload:batch items')
    parser.add_argument('--threads', type=int, default=2)
    parser.add_argument('--warmup', type=int, default=3,
                        help='untimed calls before the blocks')
    parser.add_argument('--blocks', type=int, default=7,
                        help='timed blocks (of at least 0.2 s) whose median '
                        'is reported; fewer suit models of seconds a call')
    parser.add_argument('--devices', nargs='*',
                        help='chainer-core devices (default: all available)')
    parser.add_argument('--use-ideep', default='auto',
                        choices=('never', 'auto', 'always'),
                        help='chainer.config.use_ideep for the chainer-core '
                        'devices (CHAINER_USE_IDEEP): @intel64 runs oneDNN '
                        'only when it is not "never", as in Chainer '
                        '(default: %(default)s)')
    parser.add_argument('--no-torch', action='store_true')
    parser.add_argument('--chainer-python',
                        help='a Python with the original Chainer installed')
    parser.add_argument('--import-time', action='store_true',
                        help='also time each framework\'s import (best of '
                        '{} fresh interpreters)'.format(IMPORT_REPEATS))
    args = parser.parse_args()
    use_torch = not args.no_torch and importlib.util.find_spec('torch')
    devices = args.devices or chainer_core_devices()

    rows = []
    for device in devices:
        rows += run_worker(sys.executable, 'chainer_core', device,
                           args.threads, args.cases, args.warmup,
                           args.blocks, use_ideep=args.use_ideep)
    if use_torch:
        rows += run_worker(sys.executable, 'torch', 'cpu', args.threads,
                           args.cases, args.warmup, args.blocks)
    if args.chainer_python:
        rows += run_worker(args.chainer_python, 'chainer', '@numpy',
                           args.threads, args.cases, args.warmup,
                           args.blocks)

    imports = []
    if args.import_time:
        statements = [(sys.executable, 'chainer_core', 'import chainer_core')]
        # chainer-core may load its backends only when a device is first
        # asked for, which a user's script pays before its first step.
        statements += [(sys.executable, 'chainer_core',
                        'import chainer_core; chainer_core.get_device({!r})'
                        .format(device)) for device in devices]
        if use_torch:
            statements.append((sys.executable, 'torch', 'import torch'))
        if args.chainer_python:
            statements.append((args.chainer_python, 'chainer',
                               'import chainer'))
        for python, framework, statement in statements:
            row = import_time(python, framework, statement, args.threads)
            if row:
                imports.append(row)

    print()
    print(table(rows, args.cases))
    if imports:
        print()
        print('import wall time, ms (best of {}):'.format(IMPORT_REPEATS))
        key = 'ms_best_of_{}'.format(IMPORT_REPEATS)
        for row in imports:
            print('  {:>8.1f}  {}'.format(row[key], row['statement']))


if __name__ == '__main__':
    main()
