"""chainer-core Variables on native:0 keep their graph in C++: the same
gradients as the core's own graph on @numpy, for graph kernels, ops
recorded as Python nodes, and graphs mixing both."""
import copy
import gc
import pickle
import weakref

import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F
import chainer_core.links as L
import chainer_native as cn

NATIVE = chainer.get_device('native:0')
NUMPY = chainer.get_device('@numpy')


def _pair(rng, shape, dtype=numpy.float64):
    a = rng.uniform(-1, 1, shape).astype(dtype)
    return (chainer.Variable(NATIVE.send(a)),
            chainer.Variable(a.copy()))


def _host(a):
    return numpy.asarray(a)


def _close(a, b, **kw):
    numpy.testing.assert_allclose(numpy.asarray(a), numpy.asarray(b), **kw)


def test_graph_kernel_outputs_live_in_cpp(rng):
    x, _ = _pair(rng, (2, 3))
    y = F.relu(x)
    assert y._garray is not None and y._garray.is_grad_required()
    assert not y.array.is_grad_required()
    assert type(y.array) is cn.ndarray


def _both(rng, f, shapes, **kw):
    pairs = [_pair(rng, s) for s in shapes]
    out = []
    for side in (0, 1):
        xs = [p[side] for p in pairs]
        y = f(*xs)
        y.grad = y.xp.ones_like(y.array) if side else \
            NATIVE.send(numpy.ones(y.shape, y.dtype))
        y.backward(**kw)
        out.append((y, xs))
    (yn, xn), (yc, xc) = out
    _close(yn.array, yc.array, rtol=1e-12, atol=1e-12)
    for a, b in zip(xn, xc):
        _close(a.grad, b.grad, rtol=1e-10, atol=1e-12)
    return out


def test_backward_of_graph_kernels_matches_numpy(rng):
    def f(x, W, b):
        return F.tanh(F.linear(F.relu(x), W, b)) * 2 + F.exp(x[:, :2])
    _both(rng, f, [(4, 3), (2, 3), (2,)])


def test_backward_through_python_nodes_matches_numpy(rng):
    # clipped_relu, sin, swapaxes and hstack have no graph kernel.
    def f(x, y):
        h = F.clipped_relu(x * 3, 1.5) + F.sin(y)
        return F.hstack([F.swapaxes(h, 0, 1), F.relu(h).T])
    _both(rng, f, [(3, 4), (3, 4)])


def test_double_backprop_through_mixed_graph(rng):
    def gradient_norm(x):
        y = F.sum(F.sin(x) * F.tanh(x) + F.clipped_relu(x, 0.5) ** 2)
        gx, = chainer.grad([y], [x], enable_double_backprop=True)
        return F.sum(gx * gx)

    xn, xc = _pair(rng, (3, 2))
    for x in (xn, xc):
        gradient_norm(x).backward()
    _close(xn.grad, xc.grad, rtol=1e-10)


def test_grad_does_not_touch_leaves(rng):
    xn, _ = _pair(rng, (3,))
    y = F.sum(F.sin(xn) * 2)
    gx, = chainer.grad([y], [xn])
    _close(gx.array, 2 * numpy.cos(_host(xn.array)), rtol=1e-12)
    assert xn.grad is None


def test_retain_grad_and_intermediate_grads(rng):
    xn, xc = _pair(rng, (2, 2))
    grads = []
    for x in (xn, xc):
        h = F.sigmoid(x) * 3
        y = F.sum(F.clipped_relu(h, 2.0))
        y.backward(retain_grad=True)
        grads.append(h.grad)
    _close(grads[0], grads[1], rtol=1e-12)


def test_cleargrads_between_forward_and_backward():
    model = L.Linear(3, 2)
    model.to_device(NATIVE)
    x = NATIVE.send(numpy.ones((1, 3), numpy.float32))
    model.W.grad = NATIVE.send(numpy.full((2, 3), 5.0, numpy.float32))
    loss = F.sum(model(x))
    model.cleargrads()
    loss.backward()
    _close(model.W.grad, numpy.ones((2, 3)))


def test_training_matches_numpy(rng):
    data = rng.uniform(-1, 1, (16, 5)).astype(numpy.float32)
    t = rng.randint(0, 3, 16).astype(numpy.int32)
    results = []
    for device in (NATIVE, NUMPY):
        numpy.random.seed(1)
        model = L.Classifier(chainer.Sequential(
            L.Linear(5, 8), F.relu, L.Linear(8, 3)))
        model.to_device(device)
        opt = chainer.optimizers.MomentumSGD(0.1)
        opt.setup(model)
        for _ in range(5):
            opt.update(model, device.send(data), device.send(t))
        results.append([_host(p.array) for p in model.params()])
    for a, b in zip(*results):
        _close(a, b, rtol=1e-5, atol=1e-6)


def test_loss_scale_is_divided_out(rng):
    model = L.Linear(3, 2)
    model.to_device(NATIVE)
    opt = chainer.optimizers.SGD(1.0)
    opt.setup(model)
    w0 = _host(model.W.array).copy()
    x = NATIVE.send(numpy.ones((1, 3), numpy.float32))
    model.cleargrads()
    loss = F.sum(model(x))
    loss.backward(loss_scale=8.0)
    _close(model.W.grad, 8 * numpy.ones((2, 3)))
    opt.update()
    _close(model.W.array, w0 - 1.0)


def test_no_backprop_mode_records_nothing(rng):
    xn, _ = _pair(rng, (2,))
    with chainer.no_backprop_mode():
        y = F.clipped_relu(F.relu(xn), 0.5)
    assert y._garray is None


def test_function_hooks_see_ops(rng):
    xn, _ = _pair(rng, (2, 3))
    seen = []

    class Recorder(chainer.FunctionHook):
        def forward_preprocess(self, function, in_data):
            seen.append(('f', function.label))

        def backward_preprocess(self, function, in_data, out_grad):
            seen.append(('b', function.label))

    with Recorder():
        y = F.sum(F.relu(xn))
        y.backward()
    assert ('f', 'ReLU') in seen and ('b', 'ReLU') in seen
    _close(xn.grad, (_host(xn.array) > 0).astype(numpy.float64))


def test_python_node_is_released_after_backward(rng):
    xn, _ = _pair(rng, (2,))
    y = F.clipped_relu(xn, 0.5)
    node = y._garray  # keeps the graph; the Python node lives in C++
    refs = []

    class Probe(chainer.FunctionNode):
        def forward(self, inputs):
            return inputs[0] * 2,

        def backward(self, indexes, grad_outputs):
            return grad_outputs[0] * 2,

    probe = Probe()
    refs.append(weakref.ref(probe))
    z = F.sum(probe.apply((y,))[0])
    del probe
    assert refs[0]() is not None  # held by the C++ graph
    z.backward(retain_graph=False)
    assert refs[0]() is None
    del node


def test_python_node_lives_with_the_graph_after_backward(rng):
    # Chainer's default keeps the graph after backward; the node goes
    # with the last reference to the graph.
    xn, _ = _pair(rng, (2,))
    y = F.clipped_relu(xn, 0.5)
    refs = []

    class Probe(chainer.FunctionNode):
        def forward(self, inputs):
            return inputs[0] * 2,

        def backward(self, indexes, grad_outputs):
            return grad_outputs[0] * 2,

    probe = Probe()
    refs.append(weakref.ref(probe))
    z = F.sum(probe.apply((y,))[0])
    del probe
    z.backward()
    assert refs[0]() is not None
    del z, y
    gc.collect()
    assert refs[0]() is None


def test_copy_pickle_and_to_device_keep_the_gradient(rng):
    xn, _ = _pair(rng, (3,))
    F.sum(xn * xn).backward()
    g = _host(xn.grad).copy()
    for other in (copy.copy(xn), copy.deepcopy(xn),
                  pickle.loads(pickle.dumps(xn))):
        _close(other.grad, g)
        assert other._garray is None
    xn.to_device(NUMPY)
    assert isinstance(xn.grad, numpy.ndarray)
    _close(xn.grad, g)


def test_backward_of_several_outputs(rng):
    xn, xc = _pair(rng, (3,))
    for x in (xn, xc):
        a, b = F.sin(x), F.clipped_relu(x, 0.3)
        chainer.backward([a, b], [x.xp.ones_like(a.array) if x is xc else
                                  NATIVE.send(numpy.ones(3)),
                                  x.xp.full(3, 2.0) if x is xc else
                                  NATIVE.send(numpy.full(3, 2.0))])
    _close(xn.grad, xc.grad, rtol=1e-12)


def test_error_in_python_backward_propagates(rng):
    class Broken(chainer.FunctionNode):
        def forward(self, inputs):
            return inputs[0] + 1,

        def backward(self, indexes, grad_outputs):
            raise ArithmeticError('Broken: no gradient')

    xn, _ = _pair(rng, (2,))
    y = F.sum(Broken().apply((xn,))[0])
    with pytest.raises(ArithmeticError, match='Broken: no gradient'):
        y.backward()


def test_wrong_gradient_shape_is_an_error(rng):
    class BadShape(chainer.FunctionNode):
        def forward(self, inputs):
            return inputs[0] + 1,

        def backward(self, indexes, grad_outputs):
            return F.reshape(grad_outputs[0], (1, -1)),

    xn, _ = _pair(rng, (2,))
    y = F.sum(BadShape().apply((xn,))[0])
    with pytest.raises(ValueError, match='BadShape'):
        y.backward()
