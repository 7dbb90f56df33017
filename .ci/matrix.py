"""The test jobs of .ci/matrix.json: the one place .ci/run, noxfile.py and
tox.ini take them from.

    python .ci/matrix.py list [--ci]        job names (--ci: those CI runs)
    python .ci/matrix.py describe JOB       its description
    python .ci/matrix.py install JOB        pip-install what it needs
    python .ci/matrix.py run JOB [ARGS...]  run its steps; ARGS go to pytest

``install`` and ``run`` use the Python that runs this script, so run them
with the Python of the environment under test (a fresh virtual environment,
nox's or tox's). Standard library only: it runs before anything else is
installed, on Python 3.10 too.
"""
import json
import os
import pathlib
import shlex
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
MATRIX = ROOT / '.ci' / 'matrix.json'
JOB_KEYS = {'description', 'ci', 'install', 'env', 'steps'}


def load():
    """The matrix, checked: ``{'env': {...}, 'jobs': {name: job}}``."""
    with open(MATRIX) as f:
        matrix = json.load(f)
    for name, job in matrix['jobs'].items():
        unknown = set(job) - JOB_KEYS
        if unknown:
            raise ValueError('{}: job {!r} has unknown keys {}'.format(
                MATRIX, name, sorted(unknown)))
        for key in ('description', 'install', 'steps'):
            if not job.get(key):
                raise ValueError('{}: job {!r} needs {!r}'.format(
                    MATRIX, name, key))
    return matrix


def job_names(ci_only=False):
    return [name for name, job in load()['jobs'].items()
            if job.get('ci') or not ci_only]


def job(name):
    jobs = load()['jobs']
    if name not in jobs:
        raise SystemExit('unknown job {!r}; the jobs of {} are: {}'.format(
            name, MATRIX.name, ', '.join(jobs)))
    return jobs[name]


def _is_pytest(step):
    return 'pytest' in step


def install(name):
    command = [sys.executable, '-m', 'pip', 'install', '--quiet']
    return subprocess.call(command + job(name)['install'], cwd=str(ROOT))


def run(name, pytest_args=()):
    """Run every step of the job, each even when one before it failed;
    the exit status is 1 if any failed."""
    matrix = load()
    env = dict(os.environ)
    env.update(matrix.get('env', {}))
    env.update(job(name).get('env', {}))
    # The environment's own programs first: python, and mpiexec from the
    # MPICH wheel, which starts the python found on PATH.
    env['PATH'] = os.path.dirname(sys.executable) + os.pathsep + \
        env.get('PATH', '')
    failed = []
    for step in job(name)['steps']:
        step = list(step) + (list(pytest_args) if _is_pytest(step) else [])
        print('== {}: {}'.format(name, shlex.join(step)), flush=True)
        if subprocess.call(step, cwd=str(ROOT), env=env) != 0:
            failed.append(shlex.join(step))
    for step in failed:
        print('== {}: FAILED: {}'.format(name, step), flush=True)
    return 1 if failed else 0


def main(argv):
    usage = __doc__.split('\n\n')[1]
    if not argv or argv[0] not in ('list', 'describe', 'install', 'run'):
        raise SystemExit(usage)
    command, args = argv[0], argv[1:]
    if command == 'list':
        print('\n'.join(job_names(ci_only=args == ['--ci'])))
        return 0
    if not args:
        raise SystemExit(usage)
    if command == 'describe':
        print(job(args[0])['description'])
        return 0
    if command == 'install':
        return install(args[0])
    return run(args[0], args[1:])


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
