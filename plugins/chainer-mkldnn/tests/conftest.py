import os

import numpy
import pytest

import chainer_core


def pytest_configure(config):
    os.environ.setdefault('OMP_NUM_THREADS', '2')


@pytest.fixture(scope='session')
def device():
    import chainer_mkldnn
    if not chainer_mkldnn.is_available():
        pytest.skip('oneDNN is not available here: {}'.format(
            chainer_mkldnn._backend.unavailable_reason()))
    return chainer_core.get_device('@intel64')


@pytest.fixture
def rng():
    return numpy.random.RandomState(0)
