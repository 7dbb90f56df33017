"""chainer_rl.v_functions against NumPy with their own weights, on every
device."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F
import chainer_core.links as L
from chainer_core import gradient_check

from chainer_rl import v_function
from chainer_rl import v_functions

from array_testing import host


def linear_np(link, x):
    return x @ host(link.W).T + host(link.b)


OBS = numpy.random.RandomState(0).standard_normal((3, 4)).astype(
    numpy.float32)


def test_fc_v_function(device):
    numpy.random.seed(0)
    v = v_functions.FCVFunction(4, n_hidden_layers=2, n_hidden_channels=5,
                                nonlinearity=F.tanh, last_wscale=0.01)
    v.to_device(device)
    assert isinstance(v, v_function.VFunction)
    h = numpy.tanh(linear_np(v.model.hidden_layers[0], OBS))
    h = numpy.tanh(linear_np(v.model.hidden_layers[1], h))
    numpy.testing.assert_allclose(host(v(device.send(OBS))),
                                  linear_np(v.model.output, h), rtol=1e-5,
                                  atol=1e-7)
    linear = v_functions.FCVFunction(4)
    linear.to_device(device)
    numpy.testing.assert_allclose(host(linear(device.send(OBS))),
                                  linear_np(linear.model.output, OBS),
                                  rtol=1e-5, atol=1e-6)
    with pytest.raises(ValueError, match='FCVFunction: n_hidden_channels '
                                         'must be given'):
        v_functions.FCVFunction(4, n_hidden_layers=1)
    with pytest.raises(ValueError, match='n_hidden_layers must be at least'):
        v_functions.FCVFunction(4, n_hidden_layers=-1)


def test_fc_v_function_gradient(device):
    with chainer.using_config('dtype', numpy.float64):
        v = v_functions.FCVFunction(3, 1, 4)
    v.to_device(device)
    rng = numpy.random.RandomState(0)
    gradient_check.check_backward(
        v, device.send(rng.standard_normal((2, 3))),
        device.send(rng.standard_normal((2, 1))), params=tuple(v.params()))


def test_single_model_v_function():
    v = v_functions.SingleModelVFunction(L.LSTM(4, 1))
    first = v(OBS).array
    assert not numpy.allclose(v(OBS).array, first)
    v.reset_state()
    numpy.testing.assert_array_equal(v(OBS).array, first)
    with pytest.raises(NotImplementedError, match='has no model'):
        v_functions.SingleModelVFunction()(OBS)
    with pytest.raises(TypeError, match='SingleModelVFunction: model must be '
                                        'a Link'):
        v_functions.SingleModelVFunction(F.relu)
