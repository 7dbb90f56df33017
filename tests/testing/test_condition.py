"""retry, repeat and repeat_with_success_at_least."""
import unittest

import pytest

from chainer_core.testing import condition

from ._util import run_pytest


def _flaky(outcomes):
    """A test function failing or passing as ``outcomes`` says, in turn;
    its calls are counted."""
    outcomes = iter(outcomes)
    calls = []

    def test():
        calls.append(1)
        if not next(outcomes):
            raise AssertionError('unlucky')

    return test, calls


def test_retry_passes_on_a_later_success():
    test, calls = _flaky([False, False, True, True])
    condition.retry(4)(test)()
    assert len(calls) == 3


def test_retry_fails_when_every_run_fails():
    test, calls = _flaky([False] * 3)
    with pytest.raises(AssertionError, match='3 of 3 runs failed') as info:
        condition.retry(3)(test)()
    assert 'unlucky' in str(info.value) and 'Traceback' in str(info.value)
    assert len(calls) == 3


def test_repeat_needs_every_run():
    test, calls = _flaky([True, True, False, True])
    with pytest.raises(AssertionError, match='1 of 3 runs failed'):
        condition.repeat(4)(test)()
    assert len(calls) == 3
    test, calls = _flaky([True] * 3)
    condition.repeat(3)(test)()
    assert len(calls) == 3


def test_success_at_least_stops_early():
    test, calls = _flaky([True, False, True, False, False])
    condition.repeat_with_success_at_least(5, 2)(test)()
    assert len(calls) == 3
    test, calls = _flaky([False, False, False, False, True])
    with pytest.raises(AssertionError, match='passed, 2 needed'):
        condition.repeat_with_success_at_least(5, 2)(test)()
    # Once two successes are out of reach, it stops.
    assert len(calls) == 4
    with pytest.raises(ValueError):
        condition.repeat_with_success_at_least(2, 3)


def test_skip_ends_at_once():
    calls = []

    def test():
        calls.append(1)
        pytest.skip('not here')

    with pytest.raises(pytest.skip.Exception):
        condition.retry(5)(test)()
    assert calls == [1]


def test_unittest_methods_get_fresh_fixtures():
    events = []

    class Case(unittest.TestCase):
        def setUp(self):
            events.append('setUp')
            self.value = 0

        def tearDown(self):
            events.append('tearDown')

        @condition.retry(3)
        def test_it(self):
            self.value += 1
            events.append(self.value)
            # Passes only with a fresh fixture on the second run.
            assert len([e for e in events if e == 1]) == 2

    result = unittest.TestResult()
    Case('test_it').run(result)
    assert result.wasSuccessful(), result.failures
    assert events == ['setUp', 1, 'tearDown', 'setUp', 1, 'tearDown']


def test_in_pytest(tmp_path):
    code, out = run_pytest(tmp_path, '''
        import itertools
        from chainer_core.testing import condition

        counter = itertools.count()

        class TestFlaky:
            def setup_method(self, method):
                self.fresh = True

            @condition.retry(3)
            def test_third_time_lucky(self):
                assert self.fresh
                self.fresh = False
                assert next(counter) == 2

        @condition.repeat(2)
        def test_always_fails():
            assert False, 'always'
    ''')
    assert code == 1
    assert '1 failed, 1 passed' in out and 'always' in out
