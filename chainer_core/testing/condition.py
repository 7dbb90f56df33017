"""Repeat flaky (random) tests: retry, repeat, repeat_with_success_at_least.
"""
import functools
import traceback
import unittest

import pytest

_SKIP = (unittest.SkipTest, pytest.skip.Exception)


def _reset(instance, name):
    """Give the next attempt a fresh fixture: tearDown/setUp of a unittest
    case, teardown_method/setup_method of a pytest class."""
    if isinstance(instance, unittest.TestCase):
        instance.tearDown()
        instance.setUp()
        return
    method = getattr(instance, name, None)
    teardown = getattr(instance, 'teardown_method', None)
    setup = getattr(instance, 'setup_method', None)
    if teardown is not None:
        teardown(method)
    if setup is not None:
        setup(method)


def repeat_with_success_at_least(times, min_success):
    """Run the decorated test up to ``times`` times; it passes as soon as
    ``min_success`` runs have passed and fails once that is out of reach,
    with the counts and the first failure's traceback. A skip ends it at
    once. A test method gets fresh setUp/tearDown (or setup_method/
    teardown_method) between attempts."""
    if not 0 <= min_success <= times:
        raise ValueError('repeat_with_success_at_least: need 0 <= '
                         'min_success <= times, got {} and {}'.format(
                             min_success, times))

    def decorator(f):
        @functools.wraps(f)
        def wrapper(*args, **kwargs):
            instance = args[0] if args else None
            successes = failures = 0
            first_failure = None
            for attempt in range(times):
                if attempt and instance is not None:
                    _reset(instance, f.__name__)
                try:
                    f(*args, **kwargs)
                except _SKIP:
                    raise
                except Exception:
                    failures += 1
                    if first_failure is None:
                        first_failure = traceback.format_exc()
                else:
                    successes += 1
                if successes >= min_success:
                    return
                if failures > times - min_success:
                    break
            raise AssertionError(
                '{}: {} of {} runs failed ({} passed, {} needed); the first '
                'failure:\n{}'.format(f.__name__, failures, attempt + 1,
                                      successes, min_success, first_failure))
        return wrapper
    return decorator


def repeat(times):
    """Run the test ``times`` times; every run must pass."""
    return repeat_with_success_at_least(times, times)


def retry(times):
    """Run the test up to ``times`` times until one run passes."""
    return repeat_with_success_at_least(times, 1)
