"""Op nodes whose backward is a Python callable (chainer_native._record)
inside graphs of native routines: gradients, double backprop, the handle,
errors, and when the callable is released."""
import gc
import weakref

import numpy
import pytest

import chainer_native as cn

rng = numpy.random.RandomState(3)


def _close(a, b, **kw):
    numpy.testing.assert_allclose(numpy.asarray(a), numpy.asarray(b), **kw)


def py_square(x, log=None):
    """y = x * x computed by NumPy; backward 2 x gy with native routines
    (recorded when the engine runs with double backprop)."""
    data = cn.asarray(numpy.asarray(x) ** 2)

    def backward(target_indexes, grad_outputs):
        if log is not None:
            log.append((target_indexes, grad_outputs))
        gy, = grad_outputs
        return [2 * x * gy]

    handle, (y,) = cn._record('py_square', [x], [data], backward)
    return y


def py_exp(x):
    """y = exp(x) whose backward reads its own output back through the
    handle (as a retained output), so double backprop goes through it."""
    data = cn.asarray(numpy.exp(numpy.asarray(x)))
    box = {}

    def backward(target_indexes, grad_outputs):
        gy, = grad_outputs
        return [gy * box['handle'].output(0, data)]

    box['handle'], (y,) = cn._record('py_exp', [x], [data], backward)
    return y


def leaf(shape=(2, 3)):
    return cn.asarray(rng.uniform(0.5, 1.5, shape)).require_grad()


def test_first_order_between_native_ops():
    x = leaf()
    h = cn.sin(x)
    y = py_square(h)
    cn.sum(y * 3).backward()
    xa = numpy.asarray(x)
    _close(x.grad, 6 * numpy.sin(xa) * numpy.cos(xa))


def test_accumulates_with_native_paths():
    x = leaf()
    z = cn.sum(py_square(x)) + cn.sum(x * 2)
    z.backward()
    _close(x.grad, 2 * numpy.asarray(x) + 2)


def test_chained_python_nodes_wait_for_every_gradient():
    # a feeds both b and z: a's op runs only once a's total gradient is in.
    x = leaf()
    a = py_square(x)
    b = py_square(a)
    cn.sum(a + b).backward()
    xa = numpy.asarray(x)
    _close(x.grad, 2 * xa + 4 * xa ** 3)


def test_target_indexes_and_missing_output_gradients():
    a, c = leaf(), leaf()
    b = cn.asarray(numpy.ones((2, 3)))             # no grad wanted
    log = []

    def backward(target_indexes, grad_outputs):
        log.append((target_indexes, grad_outputs))
        return [grad_outputs[0], None]

    handle, (y0, y1) = cn._record('pair', [a, None, b, c], [a * 1, a * 2],
                                  backward)
    cn.sum(y0).backward()
    (targets, gys), = log
    assert targets == (0, 3)
    assert gys[1] is None and type(gys[0]) is cn.ndarray
    _close(a.grad, numpy.ones((2, 3)))
    assert c.grad is None


def test_outputs_are_new_views_with_new_nodes():
    x = leaf()
    handle, (y,) = cn._record('identity', [x], [x], lambda t, g: [g[0]])
    assert y is not x
    assert y.data_ptr == x.data_ptr and y.shape == x.shape
    assert y.strides == x.strides and y.dtype == x.dtype
    assert x.is_leaf and not y.is_leaf and y.is_grad_required()
    assert handle.alive and handle.name == 'identity'
    cn.sum(y * 5).backward()
    _close(x.grad, numpy.full((2, 3), 5.0))


def test_non_float_outputs_get_no_node():
    x = leaf()
    log = []

    def backward(target_indexes, grad_outputs):
        log.append(grad_outputs)
        return [grad_outputs[0]]

    idx = cn.asarray(numpy.array([1, 2], numpy.int32))
    handle, (y, i) = cn._record('with_index', [x], [x * 1, idx], backward)
    assert not i.is_grad_required() and i.data_ptr == idx.data_ptr
    cn.sum(y).backward()
    assert log[0][1] is None


def test_nothing_recorded_without_grad_or_in_no_backprop_mode():
    x = cn.asarray(numpy.ones(3))
    handle, (y,) = cn._record('f', [x, None], [x], lambda t, g: [None])
    assert handle is None and y is not x and not y.is_grad_required()
    xg = leaf((3,))
    with cn.no_backprop_mode():
        handle, (y,) = cn._record('f', [xg], [xg * 1], lambda t, g: [None])
    assert handle is None and not y.is_grad_required()


def test_double_backprop_through_a_python_node():
    x = leaf()
    z = cn.sum(py_square(x) * x)                  # x^3
    z.backward(enable_double_backprop=True)
    gx = x.grad                                     # 3 x^2, with graph
    assert gx.is_grad_required()
    x.cleargrad()
    cn.sum(gx).backward()
    _close(x.grad, 6 * numpy.asarray(x))


def test_double_backprop_with_grad_and_a_reconnected_output():
    x = leaf()
    y = py_exp(x)
    gx, = cn.grad([cn.sum(y)], [x], enable_double_backprop=True)
    _close(gx, numpy.exp(numpy.asarray(x)))
    ggx, = cn.grad([cn.sum(gx * gx)], [x])        # d/dx exp(2x)
    _close(ggx, 2 * numpy.exp(2 * numpy.asarray(x)))


def test_handle_output_connects_to_the_op():
    x = leaf()
    data = x * 1
    with cn.no_backprop_mode():
        data = data.copy()
    log = []
    handle, (y0, y1) = cn._record(
        'two', [x], [data, data * 2],
        lambda t, g: log.append(g) or [g[0] if g[0] is not None else g[1]])
    same = handle.output(0, data)
    assert same is not y0 and not same.is_leaf
    cn.sum(same * 3).backward(retain_grad=True, retain_graph=True)
    _close(x.grad, numpy.full((2, 3), 3.0))
    _close(y0.grad, numpy.full((2, 3), 3.0))       # one node for both views
    # An output whose node died: output() makes one the op created.
    del y0, same
    x.cleargrad()
    again = handle.output(0, data)
    assert again.is_grad_required() and not again.is_leaf
    cn.sum(again).backward()
    assert log[-1][1] is None
    _close(x.grad, numpy.ones((2, 3)))


def test_handle_errors_and_liveness():
    x = leaf()
    handle, (y,) = cn._record('f', [x], [x * 1], lambda t, g: [g[0]])
    with pytest.raises(IndexError, match='f'):
        handle.output(1, x)
    with pytest.raises(TypeError, match='dtype'):
        handle.output(0, cn.ones((2, 3), dtype=numpy.float32))
    with pytest.raises(ValueError, match=r'shape \(3,\), expected \(2, 3\)'):
        handle.output(0, cn.ones((3,)))
    del y
    assert not handle.alive
    with pytest.raises(RuntimeError, match='f is gone'):
        handle.output(0, x)
    assert 'gone' in repr(handle)


class Boom(Exception):
    pass


def test_exception_propagates_and_the_graph_stays_usable():
    x = leaf()
    fail = [True]

    def backward(target_indexes, grad_outputs):
        if fail[0]:
            raise Boom('from the callable')
        return [grad_outputs[0] * 2]

    handle, (y,) = cn._record('boom', [x], [x * 1], backward)
    z = cn.sum(y)
    with cn.no_backprop_mode():
        with pytest.raises(Boom, match='from the callable'):
            z.backward(enable_double_backprop=True)
        assert not cn.is_backprop_required()       # the mode is restored
    with pytest.raises(Boom):
        cn.grad([z], [x], retain_graph=True)
    assert x.grad is None
    # The failing op keeps its closure (the ops that ran before it keep
    # theirs here only because the passes retained the graph).
    fail[0] = False
    z.backward()
    _close(x.grad, numpy.full((2, 3), 2.0))


@pytest.mark.parametrize('result, match', [
    (lambda g: g[0], 'returned a chainer_native.*ndarray; expected a tuple'),
    (lambda g: [g[0], g[0]], 'returned 2 gradients for 1 target'),
    (lambda g: [numpy.ones((2, 3))], r'is a numpy.ndarray; expected'),
    (lambda g: [cn.ones((3, 2))], 'py_bad produced a gradient of shape'),
    (lambda g: [cn.ones((2, 3), dtype=numpy.float32)], 'dtype float32'),
])
def test_bad_results_name_the_op(result, match):
    x = leaf()
    handle, (y,) = cn._record('py_bad', [x], [x * 1],
                              lambda t, g: result(g))
    with pytest.raises(RuntimeError, match='py_bad') as e:
        cn.sum(y).backward()
    assert e.match(match)


def test_a_pass_may_run_inside_a_backward_callable():
    inner = leaf((3,))

    def backward(target_indexes, grad_outputs):
        with cn.force_backprop_mode():   # the pass runs with backprop off
            g, = cn.grad([cn.sum(inner * inner)], [inner])
        return [grad_outputs[0] * cn.sum(g)]

    x = leaf()
    handle, (y,) = cn._record('nested', [x], [x * 1], backward)
    cn.sum(y).backward()
    _close(x.grad, numpy.full((2, 3), 2 * numpy.asarray(inner).sum()))


class Token:
    pass


def _recorded_with_token(x):
    token = Token()

    def backward(target_indexes, grad_outputs, token=token):
        return [grad_outputs[0]]

    handle, (y,) = cn._record('tok', [x], [x * 1], backward)
    return handle, y, weakref.ref(token)


def test_callable_released_by_backward():
    x = leaf()
    handle, y, ref = _recorded_with_token(x)
    z = cn.sum(y)
    assert ref() is not None
    z.backward()
    assert ref() is None                 # no gc needed: no cycle
    assert handle.alive                  # the op stays while y does


def test_callable_kept_by_retain_graph_until_the_graph_goes():
    x = leaf()
    handle, y, ref = _recorded_with_token(x)
    z = cn.sum(y)
    z.backward(retain_graph=True)
    assert ref() is not None
    z.backward()
    assert ref() is None


def test_graph_never_backpropagated_is_freed_with_its_outputs():
    gc.disable()
    try:
        x = leaf()
        handle, y, ref = _recorded_with_token(x)
        z = cn.sum(y * 2)
        del y
        assert ref() is not None         # z's graph holds the op
        del z
        assert ref() is None and not handle.alive
    finally:
        gc.enable()


class FunctionLike:
    """Holds the handle while its bound method is the op's callable, as a
    chainer-core FunctionNode does: no cycle, since the handle is weak."""

    def __init__(self, x):
        self.handle, (self_y,) = cn._record('fn', [x], [x * 1],
                                            self.backward)
        self.y = weakref.ref(self_y)
        self._y = self_y

    def backward(self, target_indexes, grad_outputs):
        return [grad_outputs[0]]


def test_object_holding_its_handle_is_freed_without_gc():
    gc.disable()
    try:
        x = leaf()
        f = FunctionLike(x)
        y = f._y
        del f._y
        ref = weakref.ref(f)
        del f
        assert ref() is not None         # the op's callable holds it
        del y
        assert ref() is None
    finally:
        gc.enable()
