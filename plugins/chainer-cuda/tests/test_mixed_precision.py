"""Mixed precision on @cupy:0: float16 parameters with float32 master
weights, static and dynamic loss scaling, the mixed16 default dtype and
float16 GEMMs, each against the same program on @numpy."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F
import chainer_core.links as L

pytestmark = pytest.mark.gpu


class _MLP(chainer.Chain):

    def __init__(self, dtype):
        super().__init__()
        with self.init_scope():
            self.l1 = L.Linear(8, 16, initialW=chainer.initializers.Normal(
                0.3, dtype=dtype), initial_bias=chainer.initializers.Zero(
                    dtype=dtype))
            self.l2 = L.Linear(16, 3, initialW=chainer.initializers.Normal(
                0.3, dtype=dtype), initial_bias=chainer.initializers.Zero(
                    dtype=dtype))

    def forward(self, x):
        return self.l2(F.relu(self.l1(x)))


def _train(device, dtype, make_optimizer, steps=5, loss_scale=None,
           poison_step=None):
    """Parameters (on the host) and the optimizer after ``steps`` updates
    of a seeded MLP on ``device``; at ``poison_step`` the loss is inf."""
    numpy.random.seed(0)
    model = _MLP(dtype)
    model.to_device(device)
    optimizer = make_optimizer()
    optimizer.setup(model)
    if loss_scale == 'dynamic':
        optimizer.loss_scaling()
    elif loss_scale is not None:
        optimizer.set_loss_scale(loss_scale)
    rng = numpy.random.RandomState(1)
    for i in range(steps):
        x = device.send(rng.normal(size=(4, 8)).astype(dtype))
        t = device.send(rng.randint(0, 3, 4).astype(numpy.int32))
        loss = F.softmax_cross_entropy(model(x), t)
        if i == poison_step:
            loss = loss * numpy.array(numpy.inf, dtype)
        model.cleargrads()
        loss.backward(loss_scale=optimizer._loss_scale)
        optimizer.update()
    params = {name: numpy.asarray(chainer.backend.CpuDevice().send(p.array))
              for name, p in model.namedparams()}
    return params, optimizer


def _close(a, b, dtype):
    tol = 5e-3 if dtype == numpy.float16 else 1e-5
    assert a.keys() == b.keys()
    for k in a:
        assert a[k].dtype == b[k].dtype, k
        numpy.testing.assert_allclose(a[k].astype(numpy.float64),
                                      b[k].astype(numpy.float64),
                                      rtol=tol, atol=tol, err_msg=k)


def _fp32_update(cls, **kw):
    def make():
        opt = cls(**kw)
        opt.use_fp32_update()
        return opt
    return make


@pytest.mark.parametrize('make', [
    _fp32_update(chainer.optimizers.SGD, lr=0.1),
    _fp32_update(chainer.optimizers.MomentumSGD, lr=0.1),
    _fp32_update(chainer.optimizers.Adam, alpha=0.01),
], ids=['SGD', 'MomentumSGD', 'Adam'])
def test_float16_parameters_with_float32_masters(device, make):
    gpu, opt = _train(device, numpy.float16, make)
    cpu, _ = _train(chainer.backend.CpuDevice(), numpy.float16, make)
    _close(gpu, cpu, numpy.float16)
    for param in opt.target.params():
        master = param.update_rule._fp32_param
        assert master.dtype == numpy.float32
        assert isinstance(master.array, device.xp.ndarray)


def test_static_loss_scale_is_divided_out(device):
    make = _fp32_update(chainer.optimizers.SGD, lr=0.1)
    scaled, _ = _train(device, numpy.float16, make, loss_scale=128.0)
    plain, _ = _train(device, numpy.float16, make)
    _close(scaled, plain, numpy.float16)


def test_dynamic_loss_scaling_skips_an_overflowing_step(device):
    make = _fp32_update(chainer.optimizers.SGD, lr=0.1)
    gpu, opt = _train(device, numpy.float16, make, loss_scale='dynamic',
                      poison_step=2)
    cpu, cpu_opt = _train(chainer.backend.CpuDevice(), numpy.float16, make,
                          loss_scale='dynamic', poison_step=2)
    _close(gpu, cpu, numpy.float16)
    assert opt._loss_scale == cpu_opt._loss_scale
    for p in gpu.values():
        assert numpy.isfinite(p).all()


def test_mixed16_default_dtype(device):
    with chainer.using_config('dtype', chainer.mixed16):
        link = L.Linear(8, 4)
        link.to_device(device)
        x = device.send(numpy.ones((2, 8), numpy.float16))
        y = link(x)
        assert link.W.dtype == numpy.float16
        assert y.dtype == numpy.float16
        assert isinstance(y.array, device.xp.ndarray)


def test_float16_gemm_matches_float32_within_half_precision(device, cupy):
    rng = numpy.random.RandomState(0)
    a = rng.normal(size=(64, 256)).astype(numpy.float16)
    b = rng.normal(size=(256, 32)).astype(numpy.float16)
    y = F.matmul(device.send(a), device.send(b))
    assert y.dtype == numpy.float16
    ref = a.astype(numpy.float32) @ b.astype(numpy.float32)
    numpy.testing.assert_allclose(cupy.asnumpy(y.array).astype(numpy.float32),
                                  ref, rtol=2e-2, atol=0.5)
