"""How links turn their initializer arguments into initializers."""
import numpy
import pytest

import chainer_core as chainer
from chainer_core import initializers
from chainer_core.initializers import _get_initializer


def test_none_is_lecun_normal_with_scale_one():
    init = _get_initializer(None)
    assert type(init) is initializers.LeCunNormal
    assert init.scale == 1.0 and init.dtype is None


def test_none_makes_a_fresh_initializer_each_time():
    assert _get_initializer(None) is not _get_initializer(None)


@pytest.mark.parametrize('value', [0, 2.5, -1, True, numpy.float32(1.5),
                                   numpy.int64(3)])
def test_scalars_are_constants(value):
    init = _get_initializer(value)
    assert type(init) is initializers.Constant
    assert init.fill_value == value
    a = numpy.empty((2, 2), numpy.float32)
    init(a)
    numpy.testing.assert_array_equal(a, numpy.full((2, 2), value))


@pytest.mark.parametrize('value', [numpy.arange(3.0), numpy.array(2.0),
                                   numpy.ones((2, 3), numpy.float16)])
def test_arrays_are_constants(value):
    init = _get_initializer(value)
    assert type(init) is initializers.Constant
    assert init.fill_value is value


def test_initializers_pass_through():
    init = initializers.HeNormal()
    assert _get_initializer(init) is init


def test_callables_pass_through():
    def fill(a):
        a[...] = 3

    assert _get_initializer(fill) is fill


@pytest.mark.parametrize('value', ['0.5', b'1', [1, 2], (1.0,), {'a': 1},
                                   object()])
def test_anything_else_is_a_type_error(value):
    with pytest.raises(TypeError, match='initializer'):
        _get_initializer(value)


def test_a_variable_is_a_type_error():
    with pytest.raises(TypeError, match='Variable'):
        _get_initializer(chainer.Variable(numpy.ones(2)))


def test_links_follow_the_rules():
    numpy.random.seed(0)
    lin = chainer.links.Linear(3, 2, initialW=None, initial_bias=0.5)
    assert lin.W.array.std() > 0
    numpy.testing.assert_array_equal(lin.b.array, [0.5, 0.5])
    w = numpy.arange(6, dtype=numpy.float32).reshape(2, 3)
    lin = chainer.links.Linear(3, 2, initialW=w)
    numpy.testing.assert_array_equal(lin.W.array, w)
    assert lin.W.array is not w
    with pytest.raises(TypeError):
        chainer.links.Linear(3, 2, initialW='zeros')
