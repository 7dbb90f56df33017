"""Test attributes as pytest marks: ``@attr.slow``, ``@attr.gpu``,
``@attr.multi_gpu(n)``, ``@attr.cudnn``, ``@attr.ideep``, ``@attr.chainerx``.

Select with ``pytest -m "not slow"``, ``-m gpu`` and so on. A marked test
also skips where what it needs is missing, naming what is missing:

* ``gpu``, ``multi_gpu(n)`` and ``cudnn``: fewer GPUs than needed, counted
  as the devices of the available ``cuda`` backend, capped by the
  environment variable ``CHAINER_TEST_GPU_LIMIT`` when it is set (0 skips
  them all);
* ``ideep``: no ``@intel64`` device (the chainer-mkldnn plugin);
* ``chainerx``: no ``native:0`` device (the chainer-native plugin).

``slow`` only marks.
"""
import os

import pytest


def is_available():
    """Whether the marks can be used: pytest imports here."""
    return True


def get_error():
    """The error importing pytest raised (None: it imports)."""
    return None


def check_available():
    """Raise if the marks cannot be used (see :func:`is_available`)."""
    if not is_available():
        raise RuntimeError('chainer_core.testing.attr needs pytest: {}'
                           .format(get_error()))


def _gpu_limit():
    return int(os.environ.get('CHAINER_TEST_GPU_LIMIT', '-1'))


def _gpu_count():
    limit = _gpu_limit()
    if limit == 0:
        return 0
    import chainer_core  # NOQA: registers the built-in backend
    from chainer_core._runtime.host import host
    count = 0
    for backend in host.ordered_backends():
        if backend.name == 'cuda' and backend.is_available():
            count = backend.device_count()
    return count if limit < 0 else min(count, limit)


def _device_missing(spec):
    """Why the device ``spec`` cannot be used here (None when it can)."""
    import chainer_core  # NOQA: registers the built-in backend
    from chainer_core._runtime.host import get_device
    try:
        get_device(spec)
    except Exception as e:
        return 'device {} is not available: {}'.format(spec, e)
    return None


def _mark(name, *args, **kwargs):
    return getattr(pytest.mark, name)(*args, **kwargs)


def slow(*args, **kwargs):
    """Mark a long-running test."""
    return _mark('slow', *args, **kwargs)


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


def _mark_or_decorator(make, args, kwargs):
    """Allow both ``@mark`` and ``@mark(...)``: a lone callable argument is
    the decorated test, otherwise the arguments are the mark's."""
    if len(args) == 1 and not kwargs and callable(args[0]):
        return make((), {})(args[0])
    return make(args, kwargs)


def cudnn(*args, **kwargs):
    """Mark a test needing cuDNN, hence a GPU (skipped without one)."""
    def make(mark_args, mark_kwargs):
        return lambda f: gpu(_mark('cudnn', *mark_args, **mark_kwargs)(f))
    return _mark_or_decorator(make, args, kwargs)


def _device_mark(name, spec, doc):
    def mark(*args, **kwargs):
        def make(mark_args, mark_kwargs):
            def decorator(f):
                reason = _device_missing(spec)
                f = _mark(name, *mark_args, **mark_kwargs)(f)
                return pytest.mark.skipif(reason is not None,
                                          reason=reason or '')(f)
            return decorator
        return _mark_or_decorator(make, args, kwargs)
    mark.__name__ = mark.__qualname__ = name
    mark.__doc__ = doc
    return mark


ideep = _device_mark('ideep', '@intel64', 'Mark a test needing the '
                     '``@intel64`` device (skipped without chainer-mkldnn).')
chainerx = _device_mark('chainerx', 'native:0', 'Mark a test needing the '
                        '``native:0`` device (skipped without '
                        'chainer-native).')
