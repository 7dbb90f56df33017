"""with_requires, without_requires, assert_warns, patch, the doctest
conditions and generate_matrix."""
import os.path
import unittest
import warnings

import numpy
import pytest

from chainer_core import testing
from chainer_core.testing import doctest_helper


def _outcomes(case):
    result = unittest.TestResult()
    unittest.defaultTestLoader.loadTestsFromTestCase(case).run(result)
    return result


def test_with_and_without_requires():
    class Case(unittest.TestCase):
        @testing.with_requires('numpy>=1.0')
        def test_installed(self):
            pass

        @testing.with_requires('numpy>=1.0', 'numpy<1.0')
        def test_too_new(self):
            pass

        @testing.with_requires('no-such-distribution-here')
        def test_missing(self):
            pass

        @testing.without_requires('numpy')
        def test_absent(self):
            pass

    result = _outcomes(Case)
    assert result.testsRun == 4 and result.wasSuccessful()
    reasons = sorted(reason for _, reason in result.skipped)
    assert reasons == ['requires the absence of: numpy',
                       'requires: no-such-distribution-here',
                       'requires: numpy>=1.0, numpy<1.0']
    with pytest.raises(ValueError, match='invalid requirement'):
        testing.with_requires('numpy >= >=')


def test_with_requires_skips_a_class():
    @testing.with_requires('numpy<1.0')
    class Case(unittest.TestCase):
        def test_a(self):
            raise AssertionError('not skipped')

    assert len(_outcomes(Case).skipped) == 1


def test_assert_warns():
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')  # even where warnings are ignored
        with testing.assert_warns(DeprecationWarning):
            warnings.warn('old', DeprecationWarning)
    with testing.assert_warns(Warning):
        warnings.warn('any', RuntimeWarning)
    with pytest.raises(AssertionError, match='UserWarning not triggered'):
        with testing.assert_warns(UserWarning):
            pass
    with pytest.raises(AssertionError, match='issued: DeprecationWarning'):
        with testing.assert_warns(UserWarning):
            warnings.warn('other', DeprecationWarning)


def test_patch_wraps_the_original():
    with testing.patch('os.path.join') as join:
        assert os.path.join('a', 'b') == 'a' + os.sep + 'b'
    join.assert_called_once_with('a', 'b')
    with testing.patch('os.path.join', wraps=lambda *a: 'x') as join:
        assert os.path.join('a') == 'x'
    with testing.patch('os.path.join', return_value='y'):
        # An explicit return value wins over the wrapped object.
        assert os.path.join('a') == 'y'
    assert os.path.join('a', 'b') == 'a' + os.sep + 'b'


def test_doctest_conditions(monkeypatch):
    assert doctest_helper.skipif(1) is True
    assert doctest_helper.skipif([]) is False
    assert doctest_helper.skipif_requires_satisfied('numpy')
    assert not doctest_helper.skipif_requires_satisfied('numpy<1.0')
    monkeypatch.setenv('CHAINER_TEST_GPU_LIMIT', '0')
    assert doctest_helper.skipif_not_enough_cuda_devices(1)
    assert not doctest_helper.skipif_not_enough_cuda_devices(0)


@pytest.mark.parametrize('shape,dtype,values', [
    ((3, 3), numpy.float64, [3., 2., 1.]),
    ((2, 4, 3), numpy.float32, [[5., 1., 0.], [2., 2., 2.]]),
    ((2, 5), numpy.complex128, 1.5),
])
def test_generate_matrix(shape, dtype, values):
    a = testing.generate_matrix(shape, dtype, singular_values=values)
    assert a.shape == shape and a.dtype == dtype
    s = numpy.linalg.svd(a, compute_uv=False)
    expected = numpy.broadcast_to(values, s.shape)
    testing.assert_allclose(s, -numpy.sort(-expected, axis=-1), atol=1e-5)


def test_generate_matrix_errors():
    with pytest.raises(TypeError, match='singular_values is not given'):
        testing.generate_matrix((2, 2))
    with pytest.raises(TypeError, match="'foo'"):
        testing.generate_matrix((2, 2), singular_values=1, foo=1)
    with pytest.raises(ValueError, match='too few axes'):
        testing.generate_matrix((3,), singular_values=1)
    with pytest.raises(TypeError, match='int32 is not supported'):
        testing.generate_matrix((2, 2), numpy.int32, singular_values=1)
    with pytest.raises(ValueError, match='negative'):
        testing.generate_matrix((2, 2), singular_values=[1, -1])
    with pytest.raises(ValueError):
        testing.generate_matrix((2, 2), singular_values=[1, 2, 3])
