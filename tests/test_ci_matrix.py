"""One matrix of test jobs (.ci/matrix.json) drives CI (.ci/run), nox and
tox, and its "all" job is the README's test command."""
import importlib.util
import json
import pathlib
import re
import shlex
import subprocess
import sys
import types

import pytest

REPO = pathlib.Path(__file__).resolve().parents[1]


def _load_runner():
    spec = importlib.util.spec_from_file_location(
        'ci_matrix', str(REPO / '.ci' / 'matrix.py'))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


matrix = _load_runner()
JOBS = matrix.load()['jobs']


def test_jobs():
    assert list(JOBS) == ['core', 'native', 'mkldnn', 'mn', 'cuda', 'cv',
                         'rl', 'all']
    assert matrix.job_names(ci_only=True) == ['core', 'cuda', 'all']
    core = JOBS['core']
    assert 'numpy==1.23.5' in core['install']
    assert ['python', '-m', 'pytest', '-q', 'tests'] in core['steps']


@pytest.mark.parametrize('name', list(JOBS))
def test_steps_name_what_exists(name):
    job = JOBS[name]
    for target in job['install']:
        if target.startswith('.'):
            assert (REPO / target.split('[')[0]).is_dir(), target
    pytest_runs = [s for s in job['steps'] if 'pytest' in s]
    assert pytest_runs
    for step in pytest_runs:
        args = step[step.index('pytest') + 1:]
        if '--pyargs' in args:
            assert args[-1] == 'chainer_core.testing.conformance'
        else:
            assert (REPO / args[-1]).is_dir(), step


def test_all_is_the_readme_test_command():
    readme = (REPO / 'README.md').read_text()
    command, = [line for line in readme.splitlines()
                if line.startswith('python3 -m venv .venv') and
                'pytest' in line]
    parts = [shlex.split(p) for p in command.split('&&')]
    install, = [p for p in parts if 'install' in p]
    assert install[install.index('install') + 1:] == JOBS['all']['install']
    assert [p for p in parts if 'pytest' in p] == \
        [s for s in JOBS['all']['steps'] if 'pytest' in s]


def test_tox_runs_every_job_through_the_runner():
    text = (REPO / 'tox.ini').read_text()
    envlist = re.search(r'^envlist\s*=\s*(.+)$', text, re.M).group(1)
    assert [e.strip() for e in envlist.split(',')] == list(JOBS)
    assert 'python .ci/matrix.py install {envname}' in text
    assert 'python .ci/matrix.py run {envname} {posargs}' in text


def test_nox_has_one_session_per_job(monkeypatch):
    sessions = {}

    def session(func, name):
        sessions[name] = func
        return func

    fake = types.SimpleNamespace(session=session,
                                 options=types.SimpleNamespace())
    monkeypatch.setitem(sys.modules, 'nox', fake)
    spec = importlib.util.spec_from_file_location(
        'noxfile', str(REPO / 'noxfile.py'))
    spec.loader.exec_module(importlib.util.module_from_spec(spec))
    assert list(sessions) == list(JOBS)
    assert fake.options.sessions == ['core']

    calls = []
    nox_session = types.SimpleNamespace(
        posargs=['-k', 'relu'], run=lambda *args: calls.append(args))
    sessions['mkldnn'](nox_session)
    assert calls == [('python', '.ci/matrix.py', 'install', 'mkldnn'),
                     ('python', '.ci/matrix.py', 'run', 'mkldnn', '-k',
                      'relu')]


def test_ci_runs_the_ci_jobs_through_the_runner():
    script = (REPO / '.ci' / 'run').read_text()
    subprocess.run(['bash', '-n', str(REPO / '.ci' / 'run')], check=True)
    assert 'python3 .ci/matrix.py list --ci' in script
    assert '.ci/matrix.py install "$job"' in script
    assert '.ci/matrix.py run "$job"' in script


def test_runner_runs_every_step_and_passes_pytest_arguments(
        tmp_path, monkeypatch, capfd):
    log = tmp_path / 'log'
    record = ('import os, sys; open({!r}, "a").write(" ".join('
              'sys.argv[1:] + [os.environ["STEP_ENV"]]) + "\\n")'.format(
                  str(log)))
    path = tmp_path / 'matrix.json'
    path.write_text(json.dumps({'env': {'STEP_ENV': 'global'}, 'jobs': {
        'job': {'description': 'd', 'install': ['x'],
                'env': {'STEP_ENV': 'job'},
                'steps': [[sys.executable, '-c', 'raise SystemExit(3)'],
                          [sys.executable, '-c', record, 'pytest', 'a'],
                          [sys.executable, '-c', record, 'b']]}}}))
    monkeypatch.setattr(matrix, 'MATRIX', path)
    assert matrix.run('job', ['-k', 'relu']) == 1
    assert log.read_text().splitlines() == ['pytest a -k relu job', 'b job']
    assert 'FAILED: ' + shlex.join([sys.executable, '-c',
                                    'raise SystemExit(3)']) in \
        capfd.readouterr().out
    with pytest.raises(SystemExit, match="unknown job 'nojob'"):
        matrix.run('nojob')
