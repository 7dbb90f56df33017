"""assert_allclose, attr marks, save_and_load and the mock updater
trainer."""
import numpy
import pytest

import chainer_core as chainer
from chainer_core import testing
from chainer_core.testing import attr

from ._util import run_pytest


def test_assert_allclose_passes_within_tolerance():
    testing.assert_allclose(numpy.array([1., 2.]),
                            numpy.array([1. + 1e-6, 2.]))
    testing.assert_allclose(chainer.Variable(numpy.ones(3)), numpy.ones(3))
    testing.assert_allclose(numpy.array([numpy.nan, 1.]),
                            numpy.array([numpy.nan, 1.]))
    testing.assert_allclose(2., numpy.full((2, 2), 2.))
    testing.assert_allclose([1., 1.1], [1., 1.], atol=0.2, rtol=0)


def test_assert_allclose_failure_message():
    x = numpy.array([[1., 2.], [3., 4.]])
    y = x.copy()
    y[1, 0] = 3.5
    y[0, 1] = 2.1
    with pytest.raises(AssertionError) as info:
        testing.assert_allclose(x, y)
    message = str(info.value)
    assert 'mismatched: 2 of 4' in message
    assert 'worst at index (1, 0): x=3.0 y=3.5' in message
    assert 'x: [[1. 2.]' in message
    with pytest.raises(AssertionError, match='shapes differ'):
        testing.assert_allclose(numpy.ones(2), numpy.ones(3))
    with pytest.raises(AssertionError, match='mismatched: 1 of 2'):
        testing.assert_allclose(numpy.array([numpy.nan, 1.]),
                                numpy.array([0., 1.]), verbose=False)


def test_attr_marks(tmp_path, monkeypatch):
    monkeypatch.setenv('CHAINER_TEST_GPU_LIMIT', '0')
    code, out = run_pytest(tmp_path, '''
        from chainer_core.testing import attr

        @attr.slow
        def test_slow():
            pass

        @attr.gpu
        def test_gpu():
            pass

        @attr.multi_gpu(2)
        def test_two_gpus():
            pass

        def test_plain():
            pass
    ''', '-m', 'not slow')
    assert code == 0
    assert '1 passed, 2 skipped, 1 deselected' in out
    assert 'GPU(s) needed' in out


def test_attr_gpu_without_a_cuda_backend():
    @attr.gpu
    def f():
        pass

    marks = {m.name: m for m in f.pytestmark}
    assert 'gpu' in marks
    # No CUDA backend is installed here: the test is skipped.
    assert marks['skipif'].args[0] is (attr._gpu_count() < 1)


def test_save_and_load_npz():
    src = chainer.links.Linear(3, 2)
    dst = chainer.links.Linear(3, 2)
    testing.save_and_load_npz(src, dst)
    numpy.testing.assert_array_equal(src.W.array, dst.W.array)


def test_trainer_with_mock_updater(tmp_path):
    trainer = testing.get_trainer_with_mock_updater(
        (2, 'epoch'), iter_per_epoch=3, out=str(tmp_path))
    seen = []
    trainer.extend(lambda t: seen.append(
        (t.updater.iteration, t.updater.epoch, t.updater.is_new_epoch)))
    trainer.run()
    assert seen == [(1, 0, False), (2, 0, False), (3, 1, True),
                    (4, 1, False), (5, 1, False), (6, 2, True)]
    assert trainer.updater.epoch_detail == 2.0
    assert trainer.updater.previous_epoch_detail == pytest.approx(5 / 3)


def test_mock_updater_is_a_configurable_mock():
    trainer = testing.get_trainer_with_mock_updater(iter_per_epoch=2)
    updater = trainer.updater
    assert (updater.iteration, updater.epoch, updater.is_new_epoch,
            updater.previous_epoch_detail) == (0, 0, True, None)
    sentinel = object()
    updater.get_optimizer.return_value = sentinel
    assert updater.get_optimizer('main') is sentinel
    assert updater.get_all_optimizers() == {}
    updater.update()
    assert (updater.epoch_detail, updater.is_new_epoch) == (0.5, False)


def test_attr_device_marks(tmp_path):
    code, out = run_pytest(tmp_path, '''
        from chainer_core.testing import attr

        @attr.ideep
        def test_ideep():
            pass

        @attr.chainerx
        def test_chainerx():
            pass

        @attr.cudnn
        def test_cudnn():
            pass

        @attr.slow
        def test_slow():
            pass
    ''', '-m', 'not cudnn', '-W', 'ignore::pytest.PytestUnknownMarkWarning')
    assert code == 0, out
    expected = sum(testing.BackendConfig({'device': spec}).is_available()
                   for spec in ('@intel64', 'native:0')) + 1
    assert '{} passed'.format(expected) in out and '1 deselected' in out
    assert attr.is_available() and attr.get_error() is None
    attr.check_available()


def test_gradient_check_assert_allclose():
    chainer.gradient_check.assert_allclose(numpy.ones(2), numpy.ones(2))
    with pytest.raises(AssertionError, match='mismatched: 1 of 2'):
        chainer.gradient_check.assert_allclose(numpy.ones(2),
                                               numpy.array([1., 2.]))
