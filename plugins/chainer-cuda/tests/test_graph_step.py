"""chainer_cuda.graph_step: a training step captured as a CUDA graph and
replayed gives the parameters the eager steps give.

The tests marked ``gpu`` need a GPU (they skip elsewhere, with the reason);
the others check what is decided before any GPU work: the arguments, the
optimizers refused, and the error where CUDA is not usable. The kernels'
part (the matrix products of a graph step, the update kernels reading
their scalars from the device) is checked on the CPU in
test_kernels_emulated.py.
"""
import numpy
import pytest

import chainer_core as chainer
import chainer_cuda
from chainer_cuda import GraphCaptureError

F = chainer.functions
L = chainer.links

N_IN, N_HIDDEN, N_OUT, BATCH = 10, 16, 4, 8


class MLP(chainer.Chain):
    def __init__(self, seed=0, lazy=False):
        super().__init__()
        rng = numpy.random.RandomState(seed)

        def weight(n_out, n_in):
            return rng.normal(0, n_in ** -0.5, (n_out, n_in)).astype(
                numpy.float32)

        with self.init_scope():
            self.l1 = L.Linear(None, N_HIDDEN) if lazy else \
                L.Linear(N_IN, N_HIDDEN, initialW=weight(N_HIDDEN, N_IN))
            self.l2 = L.Linear(N_HIDDEN, N_HIDDEN,
                               initialW=weight(N_HIDDEN, N_HIDDEN))
            self.l3 = L.Linear(N_HIDDEN, N_OUT,
                               initialW=weight(N_OUT, N_HIDDEN))

    def forward(self, x):
        return self.l3(F.relu(self.l2(F.relu(self.l1(x)))))


def _setup(optimizer, model):
    optimizer.setup(model)
    return optimizer


def _lossfun(model):
    return lambda x, t: F.softmax_cross_entropy(model(x), t)


def _batches(n, xp=numpy, batch=BATCH, dtype=numpy.float32, seed=1):
    rng = numpy.random.RandomState(seed)
    return [(xp.asarray(rng.normal(size=(batch, N_IN)).astype(dtype)),
             xp.asarray(rng.randint(0, N_OUT, batch).astype(numpy.int32)))
            for _ in range(n)]


# -- without a GPU ---------------------------------------------------------

def test_without_cuda_the_error_names_the_reason():
    if chainer_cuda.is_available():
        pytest.skip('CUDA is available here')
    model = MLP()
    optimizer = _setup(chainer.optimizers.SGD(), model)
    with pytest.raises(RuntimeError) as info:
        chainer_cuda.graph_step(model, optimizer, _lossfun(model))
    message = str(info.value)
    assert 'chainer_cuda.graph_step' in message
    assert chainer_cuda.unavailable_reason() in message
    assert 'eagerly' in message


@pytest.mark.parametrize('change, error, match', [
    (dict(model=1), TypeError, 'model must be a chainer.Link, got int'),
    (dict(optimizer=object()), TypeError,
     'optimizer must be a chainer.GradientMethod'),
    (dict(optimizer=chainer.optimizers.SGD()), ValueError,
     r'optimizer must be set up on model .* its target is None'),
    (dict(lossfun=3), TypeError, 'lossfun must be callable, got int'),
    (dict(warmup=0), ValueError, r'warmup must be an int >= 1, got 0'),
    (dict(warmup=1.5), ValueError, r'warmup must be an int >= 1, got 1.5'),
    (dict(warmup=True), ValueError, r'warmup must be an int >= 1, got True'),
], ids=['model', 'optimizer', 'not-set-up', 'lossfun', 'warmup-0',
        'warmup-float', 'warmup-bool'])
def test_arguments_are_checked(change, error, match):
    model = MLP()
    args = dict(model=model,
                optimizer=_setup(chainer.optimizers.SGD(), model),
                lossfun=_lossfun(model), warmup=3)
    args.update(change)
    with pytest.raises(error, match=match):
        chainer_cuda.graph_step(**args)


def test_optimizer_set_up_on_another_model_is_refused():
    model = MLP()
    optimizer = _setup(chainer.optimizers.SGD(), MLP())
    with pytest.raises(ValueError, match='its target is MLP'):
        chainer_cuda.graph_step(model, optimizer, _lossfun(model))


def test_optimizer_hooks_are_refused():
    model = MLP()
    optimizer = _setup(chainer.optimizers.MomentumSGD(), model)
    optimizer.add_hook(chainer.optimizer_hooks.WeightDecay(1e-4))
    with pytest.raises(GraphCaptureError, match=r'hooks \(WeightDecay\)'):
        chainer_cuda.graph_step(model, optimizer, _lossfun(model))


def test_update_rule_hooks_are_refused():
    model = MLP()
    optimizer = _setup(chainer.optimizers.SGD(), model)
    model.l2.W.update_rule.add_hook(lambda rule, param: None, name='peek')
    with pytest.raises(GraphCaptureError,
                       match=r'update rule of /l2/W has hooks \(peek\)'):
        chainer_cuda.graph_step(model, optimizer, _lossfun(model))


def test_dynamic_loss_scaling_is_refused():
    model = MLP()
    optimizer = _setup(chainer.optimizers.Adam(), model)
    optimizer.loss_scaling()
    with pytest.raises(GraphCaptureError, match='dynamic loss scaling'):
        chainer_cuda.graph_step(model, optimizer, _lossfun(model))


def test_graph_capture_error_is_a_runtime_error():
    assert issubclass(GraphCaptureError, RuntimeError)


# -- on a GPU ----------------------------------------------------------------

OPTIMIZERS = {
    'SGD': (lambda: chainer.optimizers.SGD(lr=0.1), 'lr'),
    'MomentumSGD': (lambda: chainer.optimizers.MomentumSGD(lr=0.05), 'lr'),
    'Adam': (lambda: chainer.optimizers.Adam(alpha=0.01), 'alpha'),
    'AMSGrad': (lambda: chainer.optimizers.AMSGrad(alpha=0.01), 'alpha'),
}


def _pair(device, make):
    """An eager model and a graphed one, equal, with their optimizers."""
    eager, graphed = MLP(), MLP()
    eager.to_device(device)
    graphed.to_device(device)
    return eager, _setup(make(), eager), graphed, _setup(make(), graphed)


def _assert_same_params(eager, graphed, cupy):
    for (name, a), (_, b) in zip(eager.namedparams(), graphed.namedparams()):
        numpy.testing.assert_allclose(cupy.asnumpy(b.array),
                                      cupy.asnumpy(a.array), rtol=1e-5,
                                      atol=1e-6, err_msg=name)


@pytest.mark.gpu
@pytest.mark.parametrize('name', sorted(OPTIMIZERS))
def test_replays_give_the_eager_parameters(device, cupy, name):
    make, rate = OPTIMIZERS[name]
    eager, eager_opt, graphed, graphed_opt = _pair(device, make)
    step = chainer_cuda.graph_step(graphed, graphed_opt, _lossfun(graphed),
                                   warmup=2)
    eager_losses = []

    def eager_lossfun(x, t):
        loss = F.softmax_cross_entropy(eager(x), t)
        eager_losses.append(loss)
        return loss

    for i, (x, t) in enumerate(_batches(10, cupy)):
        if i == 6:
            # A schedule between replays: the captured kernels read the
            # rate from the device, so the change is followed.
            for opt in (eager_opt, graphed_opt):
                setattr(opt, rate, getattr(opt, rate) * 0.5)
        eager_opt.update(eager_lossfun, x, t)
        loss = step(x, t)
        assert step.captured == (i >= 2)
        numpy.testing.assert_allclose(
            cupy.asnumpy(loss.array), cupy.asnumpy(eager_losses[-1].array),
            rtol=1e-5, atol=1e-6, err_msg='loss of step {}'.format(i))
    assert graphed_opt.t == eager_opt.t == 10
    _assert_same_params(eager, graphed, cupy)


@pytest.mark.gpu
def test_numpy_batches_and_the_caller_stream(device, cupy):
    eager, eager_opt, graphed, graphed_opt = _pair(
        device, OPTIMIZERS['MomentumSGD'][0])
    step = chainer_cuda.graph_step(graphed, graphed_opt, _lossfun(graphed),
                                   warmup=1)
    caller = device.stream(non_blocking=True)
    with caller:
        for x, t in _batches(5):
            eager_opt.update(_lossfun(eager), device.send(x),
                             device.send(t))
            step(x, t)
    caller.synchronize()
    _assert_same_params(eager, graphed, cupy)


@pytest.mark.gpu
def test_lazily_initialised_parameters(device, cupy):
    model = MLP(lazy=True)
    model.to_device(device)
    optimizer = _setup(chainer.optimizers.Adam(alpha=0.01), model)
    step = chainer_cuda.graph_step(model, optimizer, _lossfun(model))
    batches = _batches(6, cupy)
    step(*batches[0])
    assert model.l1.W.array is not None
    before = cupy.asnumpy(model.l1.W.array)
    for x, t in batches[1:]:
        step(x, t)
    assert step.captured
    assert not numpy.allclose(cupy.asnumpy(model.l1.W.array), before)


@pytest.mark.gpu
def test_the_loss_is_the_static_variable(device, cupy):
    model = MLP()
    model.to_device(device)
    optimizer = _setup(chainer.optimizers.SGD(lr=0.1), model)
    step = chainer_cuda.graph_step(model, optimizer, _lossfun(model),
                                   warmup=1)
    batches = _batches(4, cupy)
    step(*batches[0])
    first = step(*batches[1])
    value = float(first.array)
    second = step(*batches[2])
    assert second is first
    assert float(second.array) != value


@pytest.mark.gpu
@pytest.mark.parametrize('batch, dtype, match', [
    (BATCH // 2, numpy.float32,
     r'\(4, 10\) float32, \(4,\) int32, but the step was made for '
     r'\(8, 10\) float32, \(8,\) int32'),
    (BATCH, numpy.float64,
     r'\(8, 10\) float64, \(8,\) int32, but the step was made for '
     r'\(8, 10\) float32, \(8,\) int32'),
], ids=['shape', 'dtype'])
def test_another_batch_shape_or_dtype_raises(device, cupy, batch, dtype,
                                             match):
    model = MLP()
    model.to_device(device)
    optimizer = _setup(chainer.optimizers.SGD(), model)
    step = chainer_cuda.graph_step(model, optimizer, _lossfun(model),
                                   warmup=1)
    for x, t in _batches(3, cupy):
        step(x, t)
    (x, t), = _batches(1, cupy, batch=batch, dtype=dtype)
    with pytest.raises(ValueError, match=match):
        step(x, t)
    assert optimizer.t == 3


@pytest.mark.gpu
def test_a_step_synchronising_with_the_host_raises(device, cupy):
    model = MLP()
    model.to_device(device)
    optimizer = _setup(chainer.optimizers.Adam(), model)
    seen = []

    def lossfun(x, t):
        loss = F.softmax_cross_entropy(model(x), t)
        seen.append(float(loss.array))
        return loss

    step = chainer_cuda.graph_step(model, optimizer, lossfun, warmup=1)
    batches = _batches(3, cupy)
    step(*batches[0])
    params = [cupy.asnumpy(p.array) for p in model.params()]
    with pytest.raises(GraphCaptureError,
                       match=r'in lossfun, (something synchronises with '
                       r'the host|it makes a synchronous copy).* runs '
                       r'eagerly'):
        step(*batches[1])
    # Nothing ran on the GPU and the step was not counted.
    assert optimizer.t == 1
    for before, p in zip(params, model.params()):
        numpy.testing.assert_array_equal(cupy.asnumpy(p.array), before)
    with pytest.raises(GraphCaptureError, match='in lossfun'):
        step(*batches[2])
    # Eager mode works.
    optimizer.update(lossfun, *batches[2])
    assert optimizer.t == 2


@pytest.mark.gpu
def test_cleared_gradients_and_replaced_arrays(device, cupy):
    model = MLP()
    model.to_device(device)
    optimizer = _setup(chainer.optimizers.SGD(), model)
    step = chainer_cuda.graph_step(model, optimizer, _lossfun(model),
                                   warmup=1)
    batches = _batches(4, cupy)
    for x, t in batches[:2]:
        step(x, t)
    model.cleargrads()
    step(*batches[2])
    assert all(p.grad is not None for p in model.params())
    model.l2.W.array = model.l2.W.array.copy()
    with pytest.raises(GraphCaptureError,
                       match='/l2/W was replaced since the capture'):
        step(*batches[3])
