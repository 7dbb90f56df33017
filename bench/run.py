"""Benchmarks side by side: chainer-core on each installed device, PyTorch
CPU and (optionally) the original Chainer, in one run.

Prints one JSON line per measurement, then a table of microseconds per
iteration with each time's ratio to PyTorch's.

    python bench/run.py                       # every workload, 2 threads
    python bench/run.py --threads 1 --cases tiny_mlp_step:1 op_overhead:1
    python bench/run.py --chainer-python /path/to/venv/bin/python

Each framework runs in its own process with the thread count pinned (OMP,
OpenBLAS, MKL and PyTorch's intra-op pool) before any library loads.
"""
import argparse
import importlib.util
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_CASES = ('tiny_mlp_step:1', 'op_overhead:1', 'mlp_step:1',
                 'mlp_step:32', 'mlp_step:256', 'conv_step:32')


def chainer_core_devices():
    code = ('import json, chainer_core\n'
            'from chainer_core._runtime.host import host\n'
            'out = []\n'
            'for b in host.ordered_backends():\n'
            '    if b.is_available():\n'
            '        out += [str(b.get_device(i)) for i in '
            'range(b.device_count())]\n'
            'print(json.dumps(out))\n')
    result = subprocess.run([sys.executable, '-c', code], check=True,
                            capture_output=True, text=True)
    return json.loads(result.stdout.strip().splitlines()[-1])


def run_worker(python, framework, device, threads, cases):
    env = dict(os.environ)
    for var in ('OMP_NUM_THREADS', 'OPENBLAS_NUM_THREADS', 'MKL_NUM_THREADS',
                'CHAINER_NATIVE_THREADS'):
        env[var] = str(threads)
    cmd = [python, os.path.join(HERE, '_worker.py'), '--framework',
           framework, '--device', device, '--threads', str(threads)]
    for case in cases:
        cmd += ['--case', case]
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True)
    rows = []
    for line in proc.stdout.splitlines():
        if line.startswith('{'):
            print(line, flush=True)
            rows.append(json.loads(line))
    if proc.returncode != 0:
        sys.stderr.write('{} on {} failed:\n{}\n'.format(
            framework, device, proc.stderr[-2000:]))
    return rows


def table(rows, cases):
    columns = []
    for r in rows:
        key = (r['framework'], r['device'])
        if key not in columns:
            columns.append(key)
    by = {(r['framework'], r['device'], r['workload'], r['batch']):
          r['us_per_iter'] for r in rows}
    torch_col = next((c for c in columns if c[0] == 'torch'), None)
    names = ['{} {}'.format(f, d) for f, d in columns]
    width = max([12] + [len(n) for n in names]) + 2
    lines = ['{:<18}'.format('us/iter') + ''.join(
        '{:>{}}'.format(n, width) for n in names)]
    for case in cases:
        name, batch = case.split(':')
        batch = int(batch)
        ref = by.get(torch_col + (name, batch)) if torch_col else None
        cells = []
        for f, d in columns:
            v = by.get((f, d, name, batch))
            if v is None:
                cells.append('{:>{}}'.format('-', width))
            elif ref and (f, d) != torch_col:
                cells.append('{:>{}}'.format('{:.1f} ({:.2f}x)'.format(
                    v, v / ref), width))
            else:
                cells.append('{:>{}}'.format('{:.1f}'.format(v), width))
        lines.append('{:<18}'.format(case) + ''.join(cells))
    if torch_col:
        lines.append('(ratio = time / PyTorch time; lower is faster)')
    return '\n'.join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.
                                     RawDescriptionHelpFormatter)
    parser.add_argument('--cases', nargs='+', default=list(DEFAULT_CASES),
                        help='workload:batch items')
    parser.add_argument('--threads', type=int, default=2)
    parser.add_argument('--devices', nargs='*',
                        help='chainer-core devices (default: all available)')
    parser.add_argument('--no-torch', action='store_true')
    parser.add_argument('--chainer-python',
                        help='a Python with the original Chainer installed')
    args = parser.parse_args()

    rows = []
    for device in args.devices or chainer_core_devices():
        rows += run_worker(sys.executable, 'chainer_core', device,
                           args.threads, args.cases)
    if not args.no_torch and importlib.util.find_spec('torch'):
        rows += run_worker(sys.executable, 'torch', 'cpu', args.threads,
                           args.cases)
    if args.chainer_python:
        rows += run_worker(args.chainer_python, 'chainer', '@numpy',
                           args.threads, args.cases)
    print()
    print(table(rows, args.cases))


if __name__ == '__main__':
    main()
