"""@cupy:0 as a Device: transfers, streams and events, the memory pool,
DLPack with NumPy and PyTorch, device specifiers, and the errors of bad
input."""
import pickle

import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F
from backend_api import DeviceMismatchError
from chainer_core.backend import GpuDevice

pytestmark = pytest.mark.gpu


def test_device_is_found_by_every_spelling(device, cupy):
    assert device.name == '@cupy:0'
    assert isinstance(device, GpuDevice)
    assert device.xp is cupy
    for spec in ('@cupy:0', 0, '0', 'cuda:0', device):
        assert chainer.get_device(spec) is device
    assert GpuDevice(cupy.cuda.Device(0)) is device
    assert GpuDevice.from_device_id(0) is device
    assert chainer.get_device() is device
    assert isinstance(device.device, cupy.cuda.Device)
    assert device.device.id == 0


def test_host_round_trip_keeps_values_and_dtype(device, cupy):
    for dtype in (numpy.float16, numpy.float32, numpy.float64, numpy.int32,
                  numpy.int64, numpy.bool_, numpy.uint8):
        a = (numpy.arange(24).reshape(2, 3, 4) % 7).astype(dtype)
        g = device.send(a)
        assert isinstance(g, cupy.ndarray) and g.dtype == dtype
        assert device.is_array_supported(g)
        assert not device.is_array_supported(a)
        back = device.to_host(g)
        assert type(back) is numpy.ndarray
        numpy.testing.assert_array_equal(back, a)
    # A strided view and a 0-dim array.
    a = numpy.arange(20.0).reshape(4, 5)[:, ::2]
    numpy.testing.assert_array_equal(device.to_host(device.send(a)), a)
    assert device.send(numpy.float32(3)).shape == ()


def test_the_source_may_change_after_send(device):
    a = numpy.ones(1 << 20, numpy.float32)
    g = device.send(a)
    a[:] = 2
    assert float(g.sum()) == 1 << 20


def test_send_walks_containers(device, cupy):
    a = numpy.zeros(2)
    out = device.send({'a': [a, (a, None)]})
    assert isinstance(out['a'][0], cupy.ndarray)
    assert isinstance(out['a'][1], tuple) and out['a'][1][1] is None
    g = out['a'][0]
    assert device.send(g) is g
    assert chainer.get_device('@numpy').send(g).__class__ is numpy.ndarray


def test_device_of_arrays(device, cupy):
    g = cupy.zeros(3)
    assert chainer.backend.get_device_from_array(g) is device
    assert chainer.backend.get_array_module(g) is cupy
    assert chainer.backend.get_array_module(chainer.Variable(g)) is cupy
    assert GpuDevice.from_array(g) is device
    assert GpuDevice.from_array(numpy.zeros(1)) is None


def test_two_gpus(device, cupy):
    if cupy.cuda.runtime.getDeviceCount() < 2:
        pytest.skip('one GPU here')
    other = chainer.get_device('@cupy:1')
    g = device.send(numpy.arange(4.0))
    h = other.send(g)
    assert h.device.id == 1 and g.device.id == 0
    numpy.testing.assert_array_equal(other.to_host(h), numpy.arange(4.0))
    with pytest.raises(DeviceMismatchError, match='@cupy:0.*@cupy:1|'
                       '@cupy:1.*@cupy:0'):
        F.add(g, h)


def test_with_device_restores_the_current_gpu(device, cupy):
    before = cupy.cuda.runtime.getDevice()
    with device as d:
        assert d is device
        assert chainer.get_device() is device
        assert cupy.cuda.runtime.getDevice() == 0
    assert cupy.cuda.runtime.getDevice() == before
    device.use()
    device.synchronize()


def test_streams_and_events(device, cupy):
    stream = device.stream(non_blocking=True)
    start, end = device.event(), device.event()
    with stream:
        assert device.current_stream() == stream
        start.record()
        g = device.send(numpy.arange(1000.0))
        total = g.sum()
        end.record()
    end.synchronize()
    assert cupy.cuda.get_elapsed_time(start, end) >= 0
    assert float(total) == sum(range(1000))
    assert device.current_stream() != stream


def test_memory_pool_can_be_freed(device, cupy):
    g = cupy.ones((1 << 20,), numpy.float32)
    info = device.memory_info()
    assert info['pool_used'] >= g.nbytes
    assert 0 < info['free'] <= info['total']
    del g
    device.free_memory()
    assert device.memory_info()['pool_held'] <= info['pool_held']
    assert device.memory_pool() is cupy.get_default_memory_pool()


def test_out_of_memory_names_the_size(device, cupy):
    with pytest.raises(cupy.cuda.memory.OutOfMemoryError,
                       match='allocating'):
        cupy.empty(1 << 50, numpy.uint8)
    # The device is usable afterwards.
    assert float(device.send(numpy.ones(3)).sum()) == 3


def test_dlpack_with_numpy(device, cupy):
    a = numpy.arange(6.0).reshape(2, 3)
    g = device.from_dlpack(a)
    assert isinstance(g, cupy.ndarray)
    numpy.testing.assert_array_equal(device.to_host(g), a)
    assert hasattr(g, '__dlpack__')


def test_dlpack_with_torch(device, cupy):
    torch = pytest.importorskip('torch')
    if not torch.cuda.is_available():
        pytest.skip('PyTorch without CUDA')
    t = torch.arange(6, dtype=torch.float32, device='cuda:0')
    g = device.send(t)
    assert isinstance(g, cupy.ndarray)
    # Shared, not copied: a write through CuPy shows in the tensor.
    g[0] = 42
    torch.cuda.synchronize()
    assert float(t[0]) == 42
    back = torch.from_dlpack(device.send(numpy.arange(3.0)))
    assert back.is_cuda and back.tolist() == [0.0, 1.0, 2.0]
    cpu = device.send(torch.arange(3, dtype=torch.float64))
    assert isinstance(cpu, cupy.ndarray) and cpu.tolist() == [0, 1, 2]


def test_pickled_device_is_the_same(device):
    assert pickle.loads(pickle.dumps(device)) is device


def test_mixed_devices_name_both(device):
    g = device.send(numpy.ones(3, numpy.float32))
    with pytest.raises(DeviceMismatchError) as info:
        F.add(g, numpy.ones(3, numpy.float32))
    assert '@cupy:0' in str(info.value) and '@numpy' in str(info.value)


def test_unsupported_dtype_names_the_op(device):
    g = device.send(numpy.ones(3, numpy.int32))
    with pytest.raises(TypeError, match='[Ss]oftmax'):
        F.softmax(g.reshape(1, 3))


def test_training_step_runs_on_the_gpu(device, cupy):
    model = chainer.links.Classifier(chainer.links.Linear(4, 3))
    model.to_device(device)
    opt = chainer.optimizers.Adam().setup(model)
    x = device.send(numpy.random.RandomState(0).rand(8, 4).astype('f'))
    t = device.send(numpy.arange(8, dtype=numpy.int32) % 3)
    for _ in range(3):
        loss = model(x, t)
        model.cleargrads()
        loss.backward()
        opt.update()
    for p in model.params():
        assert isinstance(p.array, cupy.ndarray)
        assert isinstance(p.grad, cupy.ndarray)
    assert numpy.isfinite(float(loss.array))
