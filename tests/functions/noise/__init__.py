"""Helpers of the noise tests."""
import math


def assert_fraction(count, n, p, sigmas=5):
    """``count`` successes in ``n`` trials agree with probability ``p``
    within ``sigmas`` binomial standard deviations."""
    sd = math.sqrt(n * p * (1 - p))
    assert abs(count - n * p) <= sigmas * sd + 1e-9, \
        '{} of {} where {} was expected'.format(count, n, n * p)
