"""Every routine with bad input raises a Python exception: run in a
subprocess so that a crash (a segfault, an abort) fails the test instead of
the test run."""
import os
import subprocess
import sys

import chainer_native as cn
from chainer_native import _core

import _bad_inputs

HERE = os.path.dirname(os.path.abspath(__file__))


def test_every_routine_has_a_bad_input_case():
    covered = {name for name, _ in _bad_inputs.cases()}
    routines = {n for n in dir(_core) if not n.startswith('__')}
    missing = routines - covered - _bad_inputs.NOT_ROUTINES
    assert not missing, 'routines without a bad-input case: {}'.format(
        sorted(missing))


def test_bad_input_raises_and_never_crashes():
    proc = subprocess.run([sys.executable, os.path.join(HERE,
                                                        '_bad_inputs.py')],
                          capture_output=True, text=True, timeout=300)
    lines = proc.stdout.splitlines()
    tried = [ln.split()[1] for ln in lines if ln.startswith('try ')]
    assert proc.returncode == 0, 'crashed (exit {}) in {}:\n{}'.format(
        proc.returncode, tried[-1] if tried else '?', proc.stderr[-2000:])
    raised = {ln.split()[1]: ln.split()[2] for ln in lines
              if ln.startswith('ok ')}
    silent = [ln.split()[1] for ln in lines if ln.startswith('noraise ')]
    assert not silent, 'no exception for: {}'.format(silent)
    assert set(raised) == set(tried)
    assert all(e in ('TypeError', 'ValueError', 'IndexError', 'RuntimeError',
                     'BufferError') for e in raised.values()), raised
    assert cn.ndarray is _core.ndarray
