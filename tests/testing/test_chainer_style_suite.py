"""chainer_style_suite.py, a test file written against Chainer's
``chainer.testing``, run by pytest in a subprocess: every generated test
is collected, runs or skips on the devices installed here, and the
``slow`` mark deselects."""
import os
import re
import subprocess
import sys

import chainer_core  # NOQA: registers the built-in backend
from chainer_core._runtime.host import get_device

_SUITE = os.path.join(os.path.dirname(__file__), 'chainer_style_suite.py')

# (class-name prefix, spec) of the suite's backend configs.
_CONFIGS = [('backend_0_numpy', '@numpy'), ('backend_1_intel64', '@intel64'),
            ('backend_2_native_0', 'native:0')]


def _available(spec):
    try:
        get_device(spec)
    except Exception:
        return False
    return True


def test_chainer_style_suite_runs_under_pytest():
    proc = subprocess.run(
        [sys.executable, '-m', 'pytest', '-p', 'no:cacheprovider', '-q',
         '-rA', '-m', 'not slow', _SUITE],
        capture_output=True, text=True, timeout=600,
        cwd=os.path.dirname(os.path.dirname(os.path.dirname(_SUITE))))
    out = proc.stdout + proc.stderr
    outcomes = dict((node.split('::', 1)[1], outcome) for outcome, node in
                    re.findall(r'^(PASSED|FAILED|ERROR) (\S+)', out, re.M))
    assert 'ERROR' not in outcomes.values(), out
    per_config = {'TestTanh': 4 * 3, 'TestLinear': 2,
                  'TestBackendConfig': 1}
    expected_skips = 0
    for prefix, spec in _CONFIGS:
        generated = {n: o for n, o in outcomes.items() if prefix in n}
        if not _available(spec):
            expected_skips += sum(per_config.values())
            assert not generated, out
            continue
        for cls, count in per_config.items():
            assert len([n for n in generated if n.startswith(cls)]) == \
                count, out
        for node, outcome in generated.items():
            assert outcome == 'PASSED', (node, out)
    # Not generated: two TestFixedRandom tests and three of
    # TestMarksAndConditions pass; its gpu test skips without a GPU.
    gpu = _available('@cupy:0')
    others = {n: o for n, o in outcomes.items()
              if n.startswith(('TestFixedRandom::',
                               'TestMarksAndConditions::'))}
    assert sorted(others) == sorted(
        ['TestFixedRandom::test_same_numbers_in_each_test',
         'TestFixedRandom::test_seed_for_own_generator',
         'TestMarksAndConditions::test_with_numpy',
         'TestMarksAndConditions::test_retried'] +
        (['TestMarksAndConditions::test_gpu'] if gpu else [])), out
    assert set(others.values()) == {'PASSED'}, out
    expected_skips += 1 + (0 if gpu else 1)  # without_requires('numpy')
    assert re.search(r'\b{} skipped\b'.format(expected_skips), out), out
    assert re.search(r'\b1 deselected\b', out), out


def test_run_module_runs_the_file_as_a_script():
    proc = subprocess.run(
        [sys.executable, _SUITE],
        capture_output=True, text=True, timeout=600)
    # run_module runs pytest on the whole file and exits with its status.
    assert 'TestFixedRandom::test_seed_for_own_generator PASSED' in \
        proc.stdout, proc.stdout + proc.stderr
