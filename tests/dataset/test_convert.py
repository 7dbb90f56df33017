"""concat_examples keeps a batch on the device its examples live on."""
import numpy
import pytest

from chainer_core import backend
from chainer_core.dataset import concat_examples
from chainer_core.testing.backend import device_params


@pytest.mark.parametrize('padding', [None, -1])
@pytest.mark.parametrize('device', device_params())
def test_batch_stays_on_the_examples_device(device, padding):
    lengths = (3, 3) if padding is None else (3, 2)
    examples = [device.send(numpy.arange(n, dtype=numpy.int32))
                for n in lengths]
    batch = concat_examples(examples, padding=padding)
    assert type(batch) is type(examples[0])
    assert backend.get_device_from_array(batch) == device
    expected = [[0, 1, 2], [0, 1, 2]] if padding is None else \
        [[0, 1, 2], [0, 1, -1]]
    numpy.testing.assert_array_equal(backend.CpuDevice().send(batch),
                                     expected)


@pytest.mark.parametrize('device', device_params())
def test_tuples_are_sent_to_the_given_device(device):
    batch = [(numpy.ones(2, numpy.float32), numpy.int32(i)) for i in (0, 1)]
    x, t = concat_examples(batch, device)
    assert backend.get_device_from_array(x) == device
    assert backend.get_device_from_array(t) == device
