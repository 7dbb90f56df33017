"""Testing utilities (Chainer's ``chainer.testing``): parameterized test
classes, repeated tests, pytest marks, array comparison, function and link
test cases, and device parametrisation over the discovered backends."""
from chainer_core.testing import attr  # NOQA
from chainer_core.testing import backend  # NOQA
from chainer_core.testing import condition  # NOQA
from chainer_core.testing.array import assert_allclose  # NOQA
from chainer_core.testing.backend import BackendConfig  # NOQA
from chainer_core.testing.backend import inject_backend_tests  # NOQA
from chainer_core.testing.function_link import FunctionTestCase  # NOQA
from chainer_core.testing.function_link import FunctionTestError  # NOQA
from chainer_core.testing.function_link import LinkTestCase  # NOQA
from chainer_core.testing.function_link import LinkTestError  # NOQA
from chainer_core.testing.parameterized import parameterize  # NOQA
from chainer_core.testing.parameterized import product  # NOQA
from chainer_core.testing.parameterized import product_dict  # NOQA
from chainer_core.testing.random import fix_random  # NOQA
from chainer_core.testing.serializer import save_and_load  # NOQA
from chainer_core.testing.serializer import save_and_load_npz  # NOQA
from chainer_core.testing.serializer import save_and_load_hdf5  # NOQA
from chainer_core.testing.training import (  # NOQA
    get_trainer_with_mock_updater)
