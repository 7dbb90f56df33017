"""Test attributes as pytest marks: ``@attr.slow``, ``@attr.gpu``,
``@attr.multi_gpu(n)``.

Select with ``pytest -m "not slow"`` or ``-m gpu``. GPU tests are also
skipped where fewer GPUs are available than they need: the number of
devices of the available ``cuda`` backend, capped by the environment
variable ``CHAINER_TEST_GPU_LIMIT`` when it is set (0 skips them all).
"""
import os

import pytest


def _gpu_count():
    limit = int(os.environ.get('CHAINER_TEST_GPU_LIMIT', '-1'))
    if limit == 0:
        return 0
    import chainer_core  # NOQA: registers the built-in backend
    from backend_api._host import host
    count = 0
    for backend in host.ordered_backends():
        if backend.name == 'cuda' and backend.is_available():
            count = backend.device_count()
    return count if limit < 0 else min(count, limit)


def slow(*args, **kwargs):
    """Mark a long-running test."""
    return pytest.mark.slow(*args, **kwargs)


def multi_gpu(gpu_num):
    """Mark a test needing ``gpu_num`` GPUs (skipped with fewer)."""
    def decorator(f):
        available = _gpu_count()
        f = pytest.mark.gpu(f)
        return pytest.mark.skipif(
            available < gpu_num,
            reason='{} GPU(s) needed, {} available'.format(
                gpu_num, available))(f)
    return decorator


def gpu(f):
    """Mark a test needing a GPU (skipped without one)."""
    return multi_gpu(1)(f)
