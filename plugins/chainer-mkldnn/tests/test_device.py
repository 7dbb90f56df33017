"""The @intel64 device: specifiers, which arrays it claims, its array
namespace, and the plain layout users see."""
import io

import numpy
import pytest

import chainer_core
import chainer_core.functions as F
import chainer_core.links as L
from chainer_core import serializers
from chainer_core.backend import Intel64Device

import chainer_mkldnn
from chainer_mkldnn import mdarray


@pytest.mark.parametrize('spec', ['@intel64', 'intel64', 'mkldnn',
                                  'mkldnn:0'])
def test_specifiers(spec, device):
    assert chainer_core.get_device(spec) is device
    assert device.name == '@intel64'


def test_other_specifiers_are_not_ours(device):
    backend = device.backend
    for spec in ('@numpy', 'mkldnn:1', 'native:0', '@cupy:0', 'intel'):
        assert backend.parse_device_spec(spec) is None


def test_backend_attributes(device):
    backend = device.backend
    assert backend.name == 'mkldnn' and backend.priority == 150
    assert backend.is_available() and backend.device_count() == 1
    with pytest.raises(IndexError):
        backend.get_device(1)


def test_is_an_intel64_device(device):
    assert isinstance(device, Intel64Device)
    assert Intel64Device() is device
    x = device.send(numpy.zeros(3, numpy.float32))
    assert Intel64Device.from_array(x) is device
    assert Intel64Device.from_array(numpy.zeros(3)) is None


def test_claims_mdarray_only(device):
    plain = numpy.arange(6.0, dtype=numpy.float32)
    on = device.send(plain)
    assert type(on) is mdarray
    assert chainer_core.backend.get_device_from_array(on) is device
    assert str(chainer_core.backend.get_device_from_array(plain)) == '@numpy'
    # send wraps without copying, as @numpy's send does
    assert numpy.shares_memory(on, plain)
    assert device.send(on) is on
    assert device.is_array_supported(on)
    assert not device.is_array_supported(plain)


def test_send_scalars_and_lists(device):
    a = device.send(numpy.float32(2))
    assert type(a) is mdarray and a.shape == ()
    pair = device.send((numpy.zeros(2), {'k': numpy.ones(1)}))
    assert type(pair[0]) is mdarray and type(pair[1]['k']) is mdarray


def test_ops_without_kernels_stay_on_device(device):
    x = chainer_core.Variable(device.send(
        numpy.array([[1.0, -2.0], [3.0, 4.0]], numpy.float32)))
    for y in (F.exp(x), F.sum(x), F.transpose(x), F.where(
            x.array > 0, x, numpy.float32(0))):
        assert type(y.array) is mdarray


def test_xp_makes_device_arrays(device):
    xp = device.xp
    assert chainer_core.backend.get_array_module(device.send(
        numpy.zeros(1))) is xp
    for a in (xp.zeros(3), xp.asarray([1, 2]), xp.arange(4),
              xp.concatenate([xp.ones(2), xp.ones(2)]),
              xp.where(xp.ones(2) > 0, 1.0, 0.0), xp.random.uniform(size=3)):
        assert type(a) is mdarray
    assert all(type(v) is mdarray for v in xp.nonzero(xp.ones(3)))
    assert xp.float32 is numpy.float32 and xp.ndarray is numpy.ndarray
    gx = xp.zeros(3)
    xp.add.at(gx, [0, 0], 1.0)
    assert gx[0] == 2.0


def test_copies_and_pickles_are_the_device(device):
    import copy
    import pickle
    with device:
        pass
    assert copy.copy(device) is device
    assert copy.deepcopy(device) is device
    assert pickle.loads(pickle.dumps(device)) is device
    link = L.Linear(2, 3).to_device(device)
    clone = link.copy(mode='copy')
    assert type(clone.W.array) is mdarray


def test_plain_view(device):
    x = device.send(numpy.arange(4, dtype=numpy.float32))
    plain = numpy.asarray(x)
    assert type(plain) is numpy.ndarray and numpy.shares_memory(plain, x)


class _Net(chainer_core.Chain):
    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.conv = L.Convolution2D(3, 8, 3, pad=1)
            self.bn = L.BatchNormalization(8)
            self.fc = L.Linear(8 * 4 * 4, 5)

    def forward(self, x):
        h = F.max_pooling_2d(F.relu(self.bn(self.conv(x))), 2)
        return self.fc(h)


def test_layout_round_trip_of_weights(device, rng):
    # oneDNN runs the convolution on blocked weights; what comes back (and
    # what user code reads) is the plain layout, unchanged.
    lib = chainer_mkldnn._native.lib()
    x = rng.randn(2, 32, 9, 9).astype(numpy.float32)
    W = rng.randn(64, 32, 3, 3).astype(numpy.float32)
    y = numpy.empty((2, 64, 9, 9), numpy.float32)
    out = numpy.empty_like(W)
    layout = lib.conv_weights_roundtrip('convolution_2d', x, W, y, [1, 1],
                                        [0, 0], [1, 1], [1, 1], 1, out)
    assert layout == 'blocked'
    numpy.testing.assert_array_equal(out, W)


def test_parameters_read_plain_after_training(device, rng):
    model = _Net().to_device(device)
    opt = chainer_core.optimizers.MomentumSGD(0.1).setup(model)
    x = device.send(rng.randn(4, 3, 8, 8).astype(numpy.float32))
    t = device.send(rng.randint(0, 5, 4).astype(numpy.int32))
    with chainer_core.using_config('use_ideep', 'always'):
        for _ in range(2):
            loss = F.softmax_cross_entropy(model(x), t)
            model.cleargrads()
            loss.backward()
            opt.update()
    W = model.conv.W.array
    assert type(W) is mdarray and W.flags.c_contiguous
    buf = io.BytesIO()
    serializers.save_npz(buf, model)
    buf.seek(0)
    fresh = _Net()
    serializers.load_npz(buf, fresh)
    numpy.testing.assert_array_equal(fresh.conv.W.array, numpy.asarray(W))
    numpy.testing.assert_array_equal(fresh.bn.avg_mean,
                                     numpy.asarray(model.bn.avg_mean))
