"""Tests marked ``gpu`` need a CUDA GPU; elsewhere they are skipped with
the reason the backend gives (no CuPy, no driver, no device)."""
import pytest


def pytest_collection_modifyitems(config, items):
    import chainer_cuda
    if chainer_cuda.is_available():
        return
    skip = pytest.mark.skip(reason='no usable GPU here: {}'.format(
        chainer_cuda.unavailable_reason()))
    for item in items:
        if 'gpu' in item.keywords:
            item.add_marker(skip)


@pytest.fixture
def device():
    """``@cupy:0``, found through discovery as user code finds it."""
    import chainer_core
    return chainer_core.get_device('@cupy:0')


@pytest.fixture
def cupy(device):
    return device.xp
