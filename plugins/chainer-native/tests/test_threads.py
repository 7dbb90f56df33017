"""CHAINER_NATIVE_THREADS and set_num_threads; threaded kernels agree with
the single-threaded ones."""
import os
import subprocess
import sys

import numpy

import chainer_native as cn


def _threads_in_subprocess(value, omp=None):
    env = dict(os.environ)
    env.pop('CHAINER_NATIVE_THREADS', None)
    env.pop('OMP_NUM_THREADS', None)
    if value is not None:
        env['CHAINER_NATIVE_THREADS'] = value
    if omp is not None:
        env['OMP_NUM_THREADS'] = omp
    out = subprocess.run(
        [sys.executable, '-c',
         'import chainer_native as cn; print(cn.get_num_threads())'],
        env=env, capture_output=True, text=True, check=True)
    return int(out.stdout.strip())


def test_env_var_sets_the_thread_count():
    assert _threads_in_subprocess('3') == 3
    assert _threads_in_subprocess('1') == 1


def test_omp_num_threads_counts_when_the_own_variable_is_unset():
    assert _threads_in_subprocess(None, omp='3') == 3
    # The first level of a nested OpenMP setting.
    assert _threads_in_subprocess(None, omp='2,4') == 2
    assert _threads_in_subprocess('5', omp='3') == 5
    assert _threads_in_subprocess(None, omp='junk') == len(
        os.sched_getaffinity(0))


def test_default_is_the_available_cores():
    assert _threads_in_subprocess(None) == len(os.sched_getaffinity(0))


def test_results_do_not_depend_on_threads():
    a = numpy.random.RandomState(0).uniform(-1, 1, (257, 311))
    x = cn.asarray(a)
    before = cn.get_num_threads()
    try:
        results = []
        for n in (1, 3):
            cn.set_num_threads(n)
            assert cn.get_num_threads() == n
            results.append([numpy.asarray(r) for r in (
                cn.exp(x) * 2 + x, cn.sum(x, axis=0), cn.max(x, axis=1),
                x @ x.T, cn.log_softmax(x, 1))])
        for r1, r3 in zip(*results):
            numpy.testing.assert_allclose(r1, r3, rtol=1e-12, atol=1e-12)
    finally:
        cn.set_num_threads(before)
