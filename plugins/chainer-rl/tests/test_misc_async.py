"""chainer_rl.misc.async_: parameters and optimizer states in shared memory
are updated by several processes as one copy."""
import multiprocessing

import numpy
import pytest

import chainer_core
import chainer_core.links as L

from chainer_rl.misc import async_


def _grad_step(link, optimizer):
    link.cleargrads()
    link.W.grad = numpy.ones_like(link.W.array)
    link.b.grad = numpy.ones_like(link.b.array)
    optimizer.update()


def test_processes_share_one_copy_of_params_and_states():
    link = L.Linear(2, 3)
    link.W.array[...] = 0.0
    link.b.array[...] = 0.0
    optimizer = chainer_core.optimizers.MomentumSGD(lr=0.5, momentum=0.5)
    optimizer.setup(link)
    shared = async_.as_shared_objects((link, optimizer))
    assert set(shared[0]) == {'/W', '/b'}
    assert set(shared[1]['/W']) == {'v'}

    def run(process_idx):
        _grad_step(link, optimizer)

    # Processes run one after another so that the result is exact:
    # v1 = -0.5, W1 = -0.5; v2 = 0.5 * v1 - 0.5 = -0.75, W2 = -1.25.
    codes = []
    for _ in range(2):
        codes += async_.run_async(1, run)
    assert codes == [0, 0]
    numpy.testing.assert_allclose(link.W.array, numpy.full((3, 2), -1.25))
    numpy.testing.assert_allclose(link.W.update_rule.state['v'],
                                  numpy.full((3, 2), -0.75))


def test_set_shared_params_links_a_copy():
    a = L.Linear(2, 2)
    shared = async_.share_params_as_shared_arrays(a)
    b = L.Linear(2, 2)
    async_.set_shared_params(b, shared)
    numpy.testing.assert_array_equal(a.W.array, b.W.array)
    b.W.array[0, 0] = 42.0
    assert a.W.array[0, 0] == 42.0


def test_run_async_gives_indices_and_distinct_seeds():
    results = multiprocessing.get_context('fork').Array('d', 3)

    def run(process_idx):
        results[process_idx] = numpy.random.rand() + 10 * process_idx

    numpy.random.seed(0)
    assert async_.run_async(3, run) == [0, 0, 0]
    values = list(results)
    assert [int(v // 10) for v in values] == [0, 1, 2]
    assert len({v % 10 for v in values}) == 3


def test_run_async_reports_failure():
    def run(process_idx):
        if process_idx == 1:
            raise SystemExit(3)

    with pytest.warns(UserWarning, match='process 1 exited with code 3'):
        assert async_.run_async(2, run) == [0, 3]


def test_non_numpy_device_is_refused(device):
    if device.xp is numpy:
        pytest.skip('@numpy arrays can be shared')
    link = L.Linear(2, 2)
    link.to_device(device)
    with pytest.raises(ValueError, match=str(device)):
        async_.share_params_as_shared_arrays(link)


def test_as_shared_objects_rejects_other_types():
    with pytest.raises(TypeError, match='as_shared_objects'):
        async_.as_shared_objects([1, 2])
