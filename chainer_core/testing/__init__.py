"""Testing utilities (Chainer's ``chainer.testing``): parameterized test
classes, repeated tests, pytest marks, array comparison, function and link
test cases, and device parametrisation over the discovered backends."""
import sys

from chainer_core.testing import array  # NOQA
from chainer_core.testing import attr  # NOQA
from chainer_core.testing import backend  # NOQA
from chainer_core.testing import condition  # NOQA
from chainer_core.testing import distribution_test  # NOQA
from chainer_core.testing import function_link  # NOQA
from chainer_core.testing import helper  # NOQA
from chainer_core.testing import matrix  # NOQA
from chainer_core.testing import parameterized  # NOQA
from chainer_core.testing import random  # NOQA
from chainer_core.testing import serializer  # NOQA
from chainer_core.testing import training  # NOQA
from chainer_core.testing import unary_math_function_test  # NOQA
from chainer_core.testing.array import assert_allclose  # NOQA
from chainer_core.testing.backend import BackendConfig  # NOQA
from chainer_core.testing.backend import inject_backend_tests  # NOQA
from chainer_core.testing.distribution_test import distribution_unittest  # NOQA
from chainer_core.testing.function_link import FunctionTestCase  # NOQA
from chainer_core.testing.function_link import FunctionTestError  # NOQA
from chainer_core.testing.function_link import InitializerArgument  # NOQA
from chainer_core.testing.function_link import LinkInitializersTestCase  # NOQA
from chainer_core.testing.function_link import LinkTestCase  # NOQA
from chainer_core.testing.function_link import LinkTestError  # NOQA
from chainer_core.testing.helper import assert_warns  # NOQA
from chainer_core.testing.helper import patch  # NOQA
from chainer_core.testing.helper import with_requires  # NOQA
from chainer_core.testing.helper import without_requires  # NOQA
from chainer_core.testing.matrix import generate_matrix  # NOQA
from chainer_core.testing.parameterized import from_pytest_parameterize  # NOQA
from chainer_core.testing.parameterized import parameterize  # NOQA
from chainer_core.testing.parameterized import parameterize_pytest  # NOQA
from chainer_core.testing.parameterized import product  # NOQA
from chainer_core.testing.parameterized import product_dict  # NOQA
from chainer_core.testing.random import fix_random  # NOQA
from chainer_core.testing.random import generate_seed  # NOQA
from chainer_core.testing.serializer import save_and_load  # NOQA
from chainer_core.testing.serializer import save_and_load_npz  # NOQA
from chainer_core.testing.serializer import save_and_load_hdf5  # NOQA
from chainer_core.testing.training import (  # NOQA
    get_trainer_with_mock_updater)
from chainer_core.testing.unary_math_function_test import (  # NOQA
    unary_math_function_unittest)


def run_module(name, file):
    """Run the tests of a test file with pytest when the file is run as a
    script: put ``testing.run_module(__name__, __file__)`` at its bottom.
    Does nothing when the file is imported (as pytest does); as a script
    the process exits with pytest's status.

    Args:
        name: the file's ``__name__``.
        file: the file's ``__file__``.
    """
    if name == '__main__':
        import pytest
        sys.exit(pytest.main([file, '-v', '-rs']))
