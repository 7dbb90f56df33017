"""chainer_native.grad: gradients of outputs with respect to chosen inputs,
leaves or intermediate, without touching any leaf's grad."""
import numpy
import pytest

import chainer_native as cn

rng = numpy.random.RandomState(5)


def _close(a, b, **kw):
    numpy.testing.assert_allclose(numpy.asarray(a), numpy.asarray(b), **kw)


def leaf(shape=(2, 3)):
    return cn.asarray(rng.uniform(0.5, 1.5, shape)).require_grad()


def test_leaf_gradient_without_touching_grad():
    x = leaf()
    old = cn.asarray(numpy.full((2, 3), 7.0))
    x.grad = old
    y = cn.sum(x * x)
    gx, = cn.grad([y], [x])
    _close(gx, 2 * numpy.asarray(x))
    assert x.grad is old
    assert y.grad is None
    assert not gx.is_grad_required()


def test_same_as_backward_on_a_mixed_graph():
    a, b, w = leaf((2, 3)), leaf((3,)), leaf((3, 4))

    def f():
        h = cn.tanh(cn.matmul(a * b + 1, w))
        return cn.sum(cn.exp(h) * h) + cn.sum(cn.square(b))

    ga, gb, gw = cn.grad([f()], [a, b, w])
    f().backward()
    for g, x in ((ga, a), (gb, b), (gw, w)):
        _close(g, x.grad, rtol=1e-12)


def test_intermediate_inputs_get_their_total_and_propagation_goes_on():
    x = leaf()
    h = x * 2
    y = cn.sum(h * h) + cn.sum(h)
    gh, gx = cn.grad([y], [h, x])
    _close(gh, 2 * numpy.asarray(h) + 1)
    _close(gx, 2 * (2 * numpy.asarray(h) + 1))
    assert x.grad is None and h.grad is None


def test_only_the_paths_to_the_inputs_run():
    a, b = leaf(), leaf()
    log = []

    def backward(target_indexes, grad_outputs):
        log.append(target_indexes)
        return [grad_outputs[0] for _ in target_indexes]

    _, (y,) = cn._record('pair', [a, b], [a + b], backward)
    cn.grad([cn.sum(y)], [b])
    assert log == [(1,)]


def test_no_path_and_no_grad_give_none():
    x, u = leaf(), leaf()
    c = cn.asarray(numpy.ones((2, 3)))
    y = cn.sum(x * c)
    assert cn.grad([y], [u, c, None]) == [None, None, None]


def test_outputs_without_graph_take_no_part():
    x = leaf()
    plain = cn.asarray(numpy.ones(()))
    gx, = cn.grad([plain, cn.sum(x)], [x])
    _close(gx, numpy.ones((2, 3)))


def test_grad_outputs_weights_and_defaults():
    x = leaf((3,))
    y1 = x * 3                         # non-scalar: needs its gradient
    y2 = cn.sum(x * x)                 # scalar: ones by default
    g1 = cn.asarray(numpy.array([1.0, 2.0, 3.0]))
    gx, = cn.grad([y1, y2], [x], [g1, None], retain_graph=True)
    _close(gx, 3 * numpy.asarray(g1) + 2 * numpy.asarray(x))
    gx, = cn.grad([y1, y1], [x], [g1, g1],          # an output twice: sum
                  retain_graph=True)
    _close(gx, 6 * numpy.asarray(g1))
    with pytest.raises(RuntimeError, match=r'outputs\[0\] has shape \(3,\)'):
        cn.grad([y1], [x])
    with pytest.raises(ValueError, match='2 entries for 1 outputs'):
        cn.grad([y1], [x], [g1, g1])
    with pytest.raises(ValueError, match=r'grad_outputs\[0\] has shape'):
        cn.grad([y1], [x], [cn.ones((2,))])
    with pytest.raises(TypeError, match=r'grad_outputs\[0\] has dtype'):
        cn.grad([y1], [x], [cn.ones((3,), dtype=numpy.float32)])


def test_single_arrays_for_outputs_inputs_and_grad_outputs():
    x = leaf((3,))
    y = x * 2
    g = cn.asarray(numpy.array([1.0, 0.0, -1.0]))
    result = cn.grad(y, x, g)
    assert isinstance(result, list) and len(result) == 1
    _close(result[0], 2 * numpy.asarray(g))


def test_output_that_is_an_input():
    x = leaf(())
    y = x * 3
    gx, gy = cn.grad([y], [x, y])
    _close(gx, 3.0)
    _close(gy, 1.0)
    g, = cn.grad([x], [x])
    _close(g, 1.0)


def test_retain_grad_keeps_intermediate_gradients_only():
    x = leaf()
    h = x * 2
    y = cn.sum(h * h)
    cn.grad([y], [x], retain_grad=True)
    _close(h.grad, 2 * numpy.asarray(h))
    assert x.grad is None


def test_retain_graph():
    x = leaf()
    y = cn.sum(cn.exp(x))
    cn.grad([y], [x], retain_graph=True)
    cn.grad([y], [x])
    with pytest.raises(RuntimeError, match='retain_graph'):
        cn.grad([y], [x])


def test_double_backprop():
    x = leaf()
    gx, = cn.grad([cn.sum(x * x * x)], [x], enable_double_backprop=True)
    assert gx.is_grad_required()
    _close(gx, 3 * numpy.asarray(x) ** 2)
    ggx, = cn.grad([cn.sum(gx)], [x])
    _close(ggx, 6 * numpy.asarray(x))
    assert x.grad is None


def test_results_share_no_buffer():
    a, b = leaf(), leaf()
    y = a + b                           # the same gradient for a and b
    g = cn.asarray(numpy.ones((2, 3)))
    ga, gb, ga2 = cn.grad([y], [a, b, a], [g])
    ptrs = {r.data_ptr for r in (ga, gb, ga2)}
    assert len(ptrs) == 3 and g.data_ptr not in ptrs
    ga *= 5
    for r in (gb, ga2, g):
        _close(r, numpy.ones((2, 3)))
    c = leaf()
    gc_, = cn.grad([cn.copy(c)], [c], [g])        # copy passes g through
    assert gc_.data_ptr != g.data_ptr


def test_results_are_writeable():
    x = leaf()
    gx, = cn.grad([cn.sum(x)], [x])     # sum's backward broadcasts
    assert gx.writeable
    gx += 1
    _close(gx, numpy.full((2, 3), 2.0))


def test_bad_arguments():
    x = leaf()
    with pytest.raises(TypeError, match=r'grad: outputs\[0\]'):
        cn.grad([numpy.ones(3)], [x])
    with pytest.raises(TypeError, match=r'grad: inputs\[1\]'):
        cn.grad([cn.sum(x)], [x, 3])
    with pytest.raises(TypeError, match='grad_outputs'):
        cn.grad([cn.sum(x)], [x], 1.0)
