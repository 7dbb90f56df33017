"""fix_random: run tests with fixed random seeds.

Inside a fixed scope NumPy's global generator and Python's :mod:`random`
are seeded with the value of the environment variable
``CHAINER_TEST_RANDOM_SEED`` (100 when unset); when
``CHAINER_TEST_RANDOM_NONDETERMINISTIC=1`` they are seeded from the
system's entropy instead, to look for seed-dependent failures. Leaving the
scope restores the generators' previous states. Scopes nest.
"""
import functools
import inspect
import os
import random
import unittest

import numpy

from chainer_core.testing import parameterized

_DEFAULT_SEED = 100

# The generator states saved by each open scope, innermost last.
_saved_states = []


def _seed():
    if os.environ.get('CHAINER_TEST_RANDOM_NONDETERMINISTIC') == '1':
        return None
    return int(os.environ.get('CHAINER_TEST_RANDOM_SEED', _DEFAULT_SEED))


def do_setup(deterministic=True):
    """Open a fixed scope: save the generators' states and seed them
    (from entropy when ``deterministic`` is False)."""
    _saved_states.append((numpy.random.get_state(), random.getstate()))
    seed = _seed() if deterministic else None
    numpy.random.seed(seed)
    random.seed(seed)


def do_teardown():
    """Close the innermost fixed scope: restore the generators' states."""
    if not _saved_states:
        raise RuntimeError('fix_random: no fixed random scope to close')
    numpy_state, python_state = _saved_states.pop()
    numpy.random.set_state(numpy_state)
    random.setstate(python_state)


def generate_seed():
    """A seed drawn from the fixed NumPy generator, for code that seeds a
    generator of its own. Only valid inside a fixed scope."""
    if not _saved_states:
        raise RuntimeError('generate_seed: random is not fixed here (use '
                           'it in a test under fix_random)')
    return int(numpy.random.randint(0xffffffff, dtype=numpy.int64))


def _fixed_function(f):
    @functools.wraps(f)
    def wrapper(*args, **kwargs):
        do_setup()
        try:
            return f(*args, **kwargs)
        finally:
            do_teardown()
    return wrapper


def _fix_class(cls, setup_name, teardown_name):
    if setup_name is None:
        setup_name = ('setUp' if issubclass(cls, unittest.TestCase)
                      else 'setup_method')
    if teardown_name is None:
        teardown_name = ('tearDown' if issubclass(cls, unittest.TestCase)
                         else 'teardown_method')
    setup = getattr(cls, setup_name, None)
    teardown = getattr(cls, teardown_name, None)

    def fixed_setup(self, *args, **kwargs):
        do_setup()
        if setup is not None:
            try:
                setup(self, *args, **kwargs)
            except BaseException:
                # The runner does not tear down after a failed set-up.
                do_teardown()
                raise

    def fixed_teardown(self, *args, **kwargs):
        try:
            if teardown is not None:
                teardown(self, *args, **kwargs)
        finally:
            do_teardown()

    for name, new, old in ((setup_name, fixed_setup, setup),
                           (teardown_name, fixed_teardown, teardown)):
        if old is not None:
            functools.update_wrapper(new, old)
        new.__name__ = name
        new.__qualname__ = '{}.{}'.format(cls.__qualname__, name)
        setattr(cls, name, new)
    return cls


def fix_random(*, setup_method=None, teardown_method=None):
    """Decorator fixing the random seeds of a test method or test class.

    On a method, the method runs in a fixed scope. On a class (also the
    classes :func:`~chainer_core.testing.parameterize` and
    :func:`~chainer_core.testing.inject_backend_tests` generate), the scope
    opens before the set-up method and closes after the tear-down method,
    so each test sees the same numbers from its set-up on.

    Do not apply it inside :mod:`~chainer_core.testing.condition`'s
    ``repeat``/``retry``: each repetition would draw the same numbers.

    Args:
        setup_method (str): the name of the classes' set-up method
            (default: ``'setUp'`` for a :class:`unittest.TestCase`,
            pytest's ``'setup_method'`` for other classes).
        teardown_method (str): the tear-down method's name (default:
            ``'tearDown'`` or ``'teardown_method'``).
    """
    def decorator(target):
        if isinstance(target, parameterized._Bundle):
            for cls in target.classes:
                _fix_class(cls, setup_method, teardown_method)
            return target
        if inspect.isclass(target):
            return _fix_class(target, setup_method, teardown_method)
        return _fixed_function(target)
    return decorator
