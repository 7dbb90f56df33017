"""Chainer's GPU names (``chainer.backends.cuda``, ``to_gpu``, integer
device ids) on a GPU, served by this plugin."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F
import chainer_core.links as L
from chainer_core.backends import cuda

pytestmark = pytest.mark.gpu


def test_cuda_module(device, cupy):
    assert cuda.available and cuda.cupy is cupy
    assert cuda.GpuDevice is chainer.backend.GpuDevice
    assert cuda.ndarray is cupy.ndarray
    cuda.check_cuda_available()
    assert isinstance(cuda.cudnn_enabled, bool)
    if not cuda.cudnn_enabled:
        assert not cuda.should_use_cudnn('==always')


def test_to_gpu_and_back(device, cupy):
    a = numpy.arange(6, dtype=numpy.float32).reshape(2, 3)
    g = cuda.to_gpu(a)
    assert isinstance(g, cupy.ndarray) and g.device.id == 0
    assert cuda.to_gpu(g) is g
    assert cuda.to_gpu(a, device=0).device.id == 0
    assert cuda.to_gpu(a, device=cupy.cuda.Device(0)).device.id == 0
    nested = cuda.to_gpu([a, (a, None)])
    assert isinstance(nested[1][0], cupy.ndarray) and nested[1][1] is None
    numpy.testing.assert_array_equal(cuda.to_cpu(g), a)
    stream = cupy.cuda.Stream()
    numpy.testing.assert_array_equal(cuda.to_cpu(g, stream=stream), a)
    assert cuda.get_array_module(g) is cupy
    assert cuda.get_array_module(a) is numpy


def test_devices_of_ids_and_arrays(device, cupy):
    assert cuda.get_device_from_id(0) == cupy.cuda.Device(0)
    assert cuda.get_device_from_id(-1) is cuda.DummyDevice
    g = cupy.zeros(2)
    assert cuda.get_device_from_array(g) == cupy.cuda.Device(0)
    assert cuda.get_device_from_array(chainer.Variable(g)).id == 0
    assert cuda.get_device_from_array(numpy.zeros(1)) is cuda.DummyDevice
    with cuda.get_device_from_id(0):
        assert cupy.cuda.runtime.getDevice() == 0


def test_copy(device, cupy):
    g = cupy.arange(4.0)
    c = cuda.copy(g)
    assert c is not g and c.tolist() == g.tolist()
    out = cupy.empty_like(g)
    assert cuda.copy(g, out=out) is out and out.tolist() == g.tolist()


def test_user_kernels(device, cupy):
    square = cuda.elementwise('T x', 'T y', 'y = x * x', 'cc_test_square')
    assert cuda.elementwise('T x', 'T y', 'y = x * x',
                            'cc_test_square') is square
    assert square(cupy.arange(3.0)).tolist() == [0.0, 1.0, 4.0]
    total = cuda.reduce('T x', 'T y', 'x', 'a + b', 'y = a', '0',
                        'cc_test_sum')
    assert float(total(cupy.arange(4.0))) == 6.0
    fill = cuda.raw(r'''
    extern "C" __global__ void cc_test_fill(float* y, int n) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        if (i < n) y[i] = 7.0f;
    }''', 'cc_test_fill')
    y = cupy.zeros(5, numpy.float32)
    fill((1,), (32,), (y, numpy.int32(5)))
    assert y.tolist() == [7.0] * 5

    @cuda.fuse()
    def axpy(a, x, y):
        return a * x + y

    assert axpy(2.0, cupy.ones(3), cupy.ones(3)).tolist() == [3.0] * 3
    assert axpy(2.0, numpy.ones(3), numpy.ones(3)).tolist() == [3.0] * 3

    calls = []

    @cuda.memoize(for_each_device=True)
    def compiled(n):
        calls.append(n)
        return n * 2

    assert compiled(3) == compiled(3) == 6 and calls == [3]
    cuda.clear_memo()
    compiled(3)
    assert calls == [3, 3]


def test_using_allocator(device, cupy):
    allocated = []
    # A pool of its own: cupy.cuda.alloc would call the allocator in force,
    # this one, again.
    pool = cupy.cuda.MemoryPool()

    def allocator(size):
        allocated.append(size)
        return pool.malloc(size)

    with cuda.using_allocator(allocator):
        x = cupy.empty(1000, numpy.float32)
    assert allocated and pool.used_bytes() >= x.nbytes
    del x
    pool.free_all_blocks()
    cuda.set_max_workspace_size(1 << 20)
    assert cuda.get_max_workspace_size() == 1 << 20


def test_link_and_variable_to_gpu(device, cupy):
    link = L.Linear(3, 2)
    assert link.to_gpu() is link
    assert isinstance(link.W.array, cupy.ndarray)
    assert link.device is device
    link.to_cpu()
    link.to_gpu(0)
    assert link.device is device
    link.to_device('@numpy')
    link.to_device(0)
    assert link.device is device
    v = chainer.Variable(numpy.ones((1, 3), numpy.float32))
    v.to_gpu()
    assert isinstance(v.array, cupy.ndarray)
    y = F.relu(link(v))
    assert isinstance(y.array, cupy.ndarray)
    y.grad = cupy.ones_like(y.array)
    y.backward()
    assert isinstance(v.grad, cupy.ndarray)
    v.to_cpu()
    assert isinstance(v.array, numpy.ndarray)


def test_memory_profile_hook(device, cupy):
    from chainer_core.function_hooks import CupyMemoryProfileHook
    hook = CupyMemoryProfileHook()
    x = device.send(numpy.ones((100, 100), numpy.float32))
    with hook:
        F.relu(F.exp(chainer.Variable(x)))
    assert hook.total_used_bytes() > 0
