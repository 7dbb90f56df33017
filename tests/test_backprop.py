"""The backward engine: graph shapes, order, memory, leaf gradients, grad()."""
import gc
import weakref

import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F
from chainer_core import FunctionNode, Variable


class _Scale(FunctionNode):
    """y = c * x, recording the order its backward runs in."""

    def __init__(self, c, log, tag):
        self.c = c
        self.log = log
        self.tag = tag

    def forward(self, inputs):
        return inputs[0] * self.c,

    def backward(self, indexes, grad_outputs):
        self.log.append(self.tag)
        return grad_outputs[0] * self.c,


class _Join(FunctionNode):
    """y = a + b, recording the order its backward runs in."""

    def __init__(self, log, tag):
        self.log = log
        self.tag = tag

    def forward(self, inputs):
        return inputs[0] + inputs[1],

    def backward(self, indexes, grad_outputs):
        self.log.append(self.tag)
        return grad_outputs[0], grad_outputs[0]


class TestGraphShapes:

    def test_diamond(self):
        # x feeds two branches that meet again: both contributions add up.
        x = Variable(numpy.array([1.0, 2.0, 3.0]))
        a = x * x
        b = x * 3.0
        y = F.sum(a * b)          # 3 x^3
        y.backward()
        numpy.testing.assert_allclose(x.grad, 9 * x.array ** 2)

    def test_variable_used_twice_in_one_op(self):
        x = Variable(numpy.array([1.0, -2.0]))
        y = F.sum(x * x)
        y.backward()
        numpy.testing.assert_allclose(x.grad, 2 * x.array)

    def test_fan_out_to_many_consumers(self):
        x = Variable(numpy.array(2.0))
        y = x * 1.0
        for i in range(2, 11):
            y = y + x * float(i)
        y.backward()
        assert x.grad == sum(range(1, 11))

    def test_long_chain_with_a_skip_connection(self):
        # The skip edge joins late: the shared start must wait for both the
        # long branch and the skip before its backward runs.
        log = []
        x = Variable(numpy.array([1.0, 2.0]))
        h0, = _Scale(2.0, log, 'start').apply((x,))
        h = h0
        for i in range(30):
            h, = _Scale(1.0, log, 'chain{}'.format(i)).apply((h,))
        y, = _Join(log, 'join').apply((h, h0))
        y.grad = numpy.ones(2)
        y.backward()
        assert log[0] == 'join'
        assert log[-1] == 'start'
        assert log.count('start') == 1
        assert log[1:-1] == ['chain{}'.format(i) for i in reversed(range(30))]
        # d/dx (2x + 2x) = 4
        numpy.testing.assert_allclose(x.grad, [4.0, 4.0])

    def test_generations_follow_rank(self):
        log = []
        x = Variable(numpy.array(1.0))
        a, = _Scale(1.0, log, 'a').apply((x,))
        b, = _Scale(1.0, log, 'b').apply((a,))
        c, = _Scale(1.0, log, 'c').apply((x,))
        assert (a.rank, b.rank, c.rank) == (1, 2, 1)
        y, = _Join(log, 'y').apply((b, c))
        assert y.rank == 3
        y.backward()
        assert log.index('b') < log.index('a')
        assert log[0] == 'y'

    def test_unrelated_branch_is_not_visited(self):
        log = []
        x = Variable(numpy.array(1.0))
        a, = _Scale(2.0, log, 'a').apply((x,))
        _Scale(3.0, log, 'other').apply((x,))
        a.backward()
        assert log == ['a']
        assert x.grad == 2.0

    def test_deep_chain_has_no_recursion_limit(self):
        x = Variable(numpy.array(1.0))
        y = x
        for _ in range(5000):
            y = y * 1.0
        y.backward()
        assert x.grad == 1.0


def _with_config_retain_graph(value, fn):
    with chainer.using_config('retain_graph', value):
        fn()


class TestRetainedArrays:

    @pytest.mark.parametrize('free', [
        lambda y: y.backward(retain_graph=False),
        lambda y: _with_config_retain_graph(False, y.backward),
    ])
    def test_retained_inputs_are_freed_on_request(self, free):
        x = Variable(numpy.array([1.0, 2.0]))
        h = x * x
        node = h.creator
        assert node._retained_input_data is not None
        free(F.sum(h))
        assert node._retained_input_data is None

    def test_retained_outputs_are_freed_on_request(self):
        x = Variable(numpy.array([1.0, 2.0]))
        h = F.exp(x)
        node = h.creator
        assert node._retained_output_data is not None
        F.sum(h).backward(retain_graph=False)
        assert node._retained_output_data is None

    def test_second_backward_after_freeing_is_a_clear_runtime_error(self):
        x = Variable(numpy.array([1.0, 2.0]))
        y = F.sum(x * x)
        y.backward(retain_graph=False)
        with pytest.raises(RuntimeError, match=r'_ \* _.*retain_graph=True'):
            y.backward()

    def test_graph_is_kept_after_backward_by_default(self):
        # Chainer's default: a second backward through the same graph
        # (a GAN's discriminator and generator losses share y_fake).
        x = Variable(numpy.array([1.0, 2.0]))
        h = F.tanh(x) * 2.0
        F.sum(h).backward()
        g1 = x.grad.copy()
        F.sum(h * h).backward()
        t = numpy.tanh(x.array)
        numpy.testing.assert_allclose(g1, 2 * (1 - t * t))
        numpy.testing.assert_allclose(
            x.grad, g1 + 8 * t * (1 - t * t), rtol=1e-12)

    def test_retain_graph_allows_a_second_backward(self):
        x = Variable(numpy.array([1.0, 2.0]))
        y = F.sum(x * x)
        with chainer.using_config('retain_graph', False):
            y.backward(retain_graph=True)
        assert y.creator.inputs[0].creator_node._retained_input_data \
            is not None
        y.backward()
        numpy.testing.assert_allclose(x.grad, 4 * x.array)

    def test_graph_memory_is_freed_when_unreachable(self):
        x = Variable(numpy.array([1.0, 2.0]))
        h = F.exp(x)
        ref = weakref.ref(h.creator)
        F.sum(h).backward()
        del h
        gc.collect()
        assert ref() is None

    def test_double_backprop_keeps_the_graph(self):
        x = Variable(numpy.array([1.0, 2.0]))
        y = F.sum(x * x)
        y.backward(enable_double_backprop=True)
        x.cleargrad()
        y.backward()
        numpy.testing.assert_allclose(x.grad, 2 * x.array)

    def test_graph_without_retained_arrays_can_be_walked_twice(self):
        x = Variable(numpy.array([1.0, 2.0]))
        y = F.sum(x * 2.0 + 1.0)
        y.backward()
        y.backward()
        numpy.testing.assert_allclose(x.grad, [4.0, 4.0])

    def test_get_retained_inputs_after_release(self):
        x = Variable(numpy.array(1.0))
        h = x * x
        h.backward(retain_graph=False)
        with pytest.raises(RuntimeError, match='freed'):
            h.creator.get_retained_inputs()


class TestIntermediateArrayLifetime:

    @staticmethod
    def _intermediate_is_freed(consume):
        x = Variable(numpy.array([1.0, -2.0, 3.0]))
        h = x * 2.0
        ref = weakref.ref(h.array)
        y = consume(h)
        del h
        gc.collect()
        return ref() is None, y

    @pytest.mark.parametrize('consume', [
        F.relu,                     # keeps its output, not its input
        F.exp,                      # keeps its output
        lambda h: h * 3.0,          # keeps nothing
        lambda h: h + 1.0,
        F.sum,
    ], ids=['relu', 'exp', 'mul_constant', 'add_constant', 'sum'])
    def test_freed_when_the_consumer_does_not_retain_it(self, consume):
        freed, y = self._intermediate_is_freed(consume)
        assert freed

    @pytest.mark.parametrize('consume', [
        F.log,                      # keeps its input
        lambda h: h * h,            # keeps both inputs
    ], ids=['log', 'mul'])
    def test_kept_when_the_consumer_retains_it(self, consume):
        with numpy.errstate(invalid='ignore'):
            freed, y = self._intermediate_is_freed(consume)
        assert not freed

    def test_retained_input_is_freed_by_a_freeing_backward(self):
        x = Variable(numpy.array([1.0, 2.0]))
        h = x + 1.0
        ref = weakref.ref(h.array)
        y = F.sum(h * h)
        del h
        gc.collect()
        assert ref() is not None
        y.backward(retain_graph=False)
        gc.collect()
        assert ref() is None

    def test_retained_input_is_freed_with_the_graph(self):
        x = Variable(numpy.array([1.0, 2.0]))
        h = x + 1.0
        ref = weakref.ref(h.array)
        y = F.sum(h * h)
        del h
        y.backward()
        gc.collect()
        assert ref() is not None
        del y
        gc.collect()
        assert ref() is None

    def test_graph_is_freed_with_its_output(self):
        x = Variable(numpy.array([1.0, 2.0]))
        y = F.sum(F.exp(x * 2.0))
        node_ref = weakref.ref(y.creator)
        del y
        gc.collect()
        assert node_ref() is None


class TestLeafGradients:

    def test_two_leaves_of_an_add_do_not_share_a_gradient(self):
        x = Variable(numpy.array([1.0, 2.0]))
        y = Variable(numpy.array([3.0, 4.0]))
        F.sum(x + y).backward()
        assert x.grad is not y.grad
        assert not numpy.shares_memory(x.grad, y.grad)
        x.grad[...] = 0
        numpy.testing.assert_array_equal(y.grad, [1.0, 1.0])

    def test_scalar_add_leaves_do_not_share_the_starting_gradient(self):
        x = Variable(numpy.array(1.0))
        y = Variable(numpy.array(2.0))
        z = x + y
        z.grad = numpy.array(5.0)
        given = z.grad
        z.backward()
        # The first leaf takes the array as Chainer hands it on; the second
        # gets its own copy rather than an alias of the first's.
        assert x.grad is given
        assert x.grad is not y.grad
        x.grad[...] = 0
        assert y.grad == 5.0

    def test_gradient_through_an_identity_is_the_given_array(self):
        x = Variable(numpy.array([1.0, 2.0]))
        y = F.identity(x)
        given = numpy.array([3.0, 4.0])
        y.grad = given
        y.backward()
        assert x.grad is given

    def test_leaf_gradient_is_writable(self):
        x = Variable(numpy.ones((2, 3)))
        F.sum(x).backward()
        assert x.grad.flags.writeable
        x.grad *= 2
        numpy.testing.assert_array_equal(x.grad, numpy.full((2, 3), 2.0))

    def test_leaves_broadcast_from_one_gradient_are_independent(self):
        x = Variable(numpy.ones(3))
        y = Variable(numpy.ones(2))
        (F.sum(x) + F.sum(y)).backward()
        x.grad += 1
        numpy.testing.assert_array_equal(y.grad, [1.0, 1.0])

    def test_same_leaf_twice(self):
        x = Variable(numpy.array([1.0, 2.0]))
        F.sum(x + x).backward()
        numpy.testing.assert_array_equal(x.grad, [2.0, 2.0])

    def test_freed_leaf_is_skipped(self):
        x = Variable(numpy.array([1.0, 2.0]))
        w = Variable(numpy.array([3.0, 4.0]))
        y = F.sum(x * w)
        del x
        gc.collect()
        y.backward()
        numpy.testing.assert_array_equal(w.grad, [1.0, 2.0])


class TestBackwardDebugChecks:

    class _BadShape(FunctionNode):
        def forward(self, inputs):
            return inputs[0] * 2,

        def backward(self, indexes, grad_outputs):
            return Variable(numpy.ones(5)),

    class _BadDtype(FunctionNode):
        def forward(self, inputs):
            return inputs[0] * 2,

        def backward(self, indexes, grad_outputs):
            return Variable(numpy.ones(2, numpy.float32)),

    class _NotAVariable(FunctionNode):
        def forward(self, inputs):
            return inputs[0] * 2,

        def backward(self, indexes, grad_outputs):
            return numpy.ones(2),

    class _TooMany(FunctionNode):
        def forward(self, inputs):
            return inputs[0] * 2,

        def backward(self, indexes, grad_outputs):
            return grad_outputs[0], grad_outputs[0], grad_outputs[0]

    @pytest.mark.parametrize('cls,error,pattern', [
        (_BadShape, ValueError, '_BadShape.*shape'),
        (_BadDtype, TypeError, '_BadDtype.*dtype'),
        (_NotAVariable, TypeError, '_NotAVariable'),
        (_TooMany, ValueError, '_TooMany'),
    ])
    def test_bad_backward_is_reported_with_the_op(self, cls, error, pattern):
        x = Variable(numpy.array([1.0, 2.0]))
        y, = cls().apply((x,))
        y.grad = numpy.ones(2)
        with pytest.raises(error, match=pattern):
            y.backward()

    def test_nan_in_backward_with_debug(self):
        class NanGrad(FunctionNode):
            def forward(self, inputs):
                return inputs[0] * 2,

            def backward(self, indexes, grad_outputs):
                return Variable(numpy.full(1, numpy.nan)),

        x = Variable(numpy.array([1.0]))
        y, = NanGrad().apply((x,))
        y.grad = numpy.ones(1)
        with chainer.using_config('debug', True):
            with pytest.raises(RuntimeError, match='NanGrad'):
                y.backward()


class TestBackwardHooks:

    class _Recorder:
        name = 'recorder'

        def __init__(self):
            self.events = []

        def added(self, function):
            self.events.append(('added', function.label))

        def deleted(self, function):
            self.events.append(('deleted', function.label))

        def forward_preprocess(self, function, in_data):
            self.events.append(('forward_pre', function.label))

        def forward_postprocess(self, function, in_data):
            self.events.append(('forward_post', function.label))

        def backward_preprocess(self, function, in_data, out_grad):
            self.events.append(('backward_pre', function.label,
                                out_grad[0].tolist()))

        def backward_postprocess(self, function, in_data, out_grad):
            self.events.append(('backward_post', function.label))

    def test_local_hook_sees_backward(self):
        x = Variable(numpy.array([1.0, 2.0]))
        y = x * 3.0
        hook = self._Recorder()
        y.creator.add_hook(hook)
        y.grad = numpy.array([1.0, 1.0])
        y.backward()
        assert ('backward_pre', '_ * 3.0', [1.0, 1.0]) in hook.events
        assert hook.events[-1] == ('backward_post', '_ * 3.0')
        y.creator.delete_hook('recorder')
        assert hook.events[-1] == ('deleted', '_ * 3.0')


class TestChainerBackward:

    def test_several_outputs_at_once(self):
        x = Variable(numpy.array([1.0, 2.0]))
        y1 = x * x
        y2 = x * 3.0
        chainer.backward([y1, y2], [Variable(numpy.ones(2)),
                                    Variable(numpy.ones(2))])
        numpy.testing.assert_allclose(x.grad, 2 * x.array + 3.0)

    def test_uses_the_outputs_grad(self):
        x = Variable(numpy.array([1.0, 2.0]))
        y = x * 3.0
        y.grad = numpy.array([1.0, 2.0])
        chainer.backward([y])
        numpy.testing.assert_allclose(x.grad, [3.0, 6.0])
        assert y.grad is None

    def test_missing_grad_warns(self):
        x = Variable(numpy.array([1.0, 2.0]))
        y = x * 3.0
        with pytest.warns(RuntimeWarning):
            chainer.backward([y])
        assert x.grad is None

    @pytest.mark.parametrize('args,error', [
        ((Variable(numpy.ones(1)),), TypeError),
        (([numpy.ones(1)],), TypeError),
        (([Variable(numpy.ones(1))], Variable(numpy.ones(1))), TypeError),
        (([Variable(numpy.ones(1))], []), ValueError),
    ])
    def test_bad_arguments(self, args, error):
        with pytest.raises(error):
            chainer.backward(*args)

    def test_unsupported_options(self):
        with pytest.raises(TypeError, match='loss_scale'):
            chainer.backward([Variable(numpy.ones(1))], loss_scale=2.0)


class TestGrad:

    def test_matches_backward(self):
        a = numpy.array([1.0, 2.0, 3.0])
        b = numpy.array([0.5, -1.0, 2.0])
        x1, w1 = Variable(a), Variable(b)
        F.sum(x1 * w1 * x1).backward()
        x2, w2 = Variable(a), Variable(b)
        gx, gw = chainer.grad([F.sum(x2 * w2 * x2)], [x2, w2])
        numpy.testing.assert_allclose(gx.array, x1.grad)
        numpy.testing.assert_allclose(gw.array, w1.grad)

    def test_does_not_touch_grad(self):
        x = Variable(numpy.array([1.0, 2.0]))
        w = Variable(numpy.array([3.0, 4.0]))
        y = F.sum(x * w)
        gx, = chainer.grad([y], [x])
        numpy.testing.assert_array_equal(gx.array, [3.0, 4.0])
        assert x.grad is None
        assert w.grad is None

    def test_set_grad(self):
        x = Variable(numpy.array([1.0, 2.0]))
        gx, = chainer.grad([F.sum(x * x)], [x], set_grad=True)
        assert x.grad_var is gx

    def test_grad_outputs(self):
        x = Variable(numpy.array([1.0, 2.0]))
        y = x * 3.0
        gx, = chainer.grad([y], [x], grad_outputs=[numpy.array([1.0, 2.0])])
        numpy.testing.assert_array_equal(gx.array, [3.0, 6.0])

    def test_default_grad_outputs_are_ones(self):
        x = Variable(numpy.array([1.0, 2.0]))
        gx, = chainer.grad([x * 3.0], [x])
        numpy.testing.assert_array_equal(gx.array, [3.0, 3.0])

    def test_grad_inputs_are_added(self):
        x = Variable(numpy.array([1.0, 2.0]))
        gx, = chainer.grad([F.sum(x * 3.0)], [x],
                           grad_inputs=[Variable(numpy.array([10.0, 20.0]))])
        numpy.testing.assert_array_equal(gx.array, [13.0, 23.0])

    def test_unreachable_input_is_none(self):
        x = Variable(numpy.array(1.0))
        z = Variable(numpy.array(2.0))
        gx, gz = chainer.grad([x * 2.0], [x, z])
        assert gx.array == 2.0
        assert gz is None

    def test_input_that_does_not_require_grad_is_still_differentiated(self):
        # As in Chainer: naming it in inputs asks for its gradient.
        x = Variable(numpy.array(1.0), requires_grad=False)
        w = Variable(numpy.array(2.0))
        y = x * w
        gw, = chainer.grad([y], [w])
        assert gw.array == 1.0
        gx, = chainer.grad([x * w], [x])
        assert gx.array == 2.0
        assert x.grad is None

    def test_intermediate_input(self):
        x = Variable(numpy.array([1.0, 2.0]))
        h = x * x
        y = F.sum(h * 3.0)
        gh, gx = chainer.grad([y], [h, x])
        numpy.testing.assert_array_equal(gh.array, [3.0, 3.0])
        numpy.testing.assert_allclose(gx.array, 6 * x.array)

    def test_walks_only_the_needed_part_of_the_graph(self):
        # The gradient w.r.t. h does not need x * x, so that part is neither
        # computed nor released: backward() through it still works.
        x = Variable(numpy.array([1.0, 2.0]))
        h = x * x
        y = F.sum(h * 3.0)
        chainer.grad([y], [h])
        assert h.creator._retained_input_data is not None
        y.backward()
        numpy.testing.assert_allclose(x.grad, 6 * x.array)

    def test_output_as_input(self):
        x = Variable(numpy.array([1.0, 2.0]))
        y = x * 2.0
        gy, = chainer.grad([y], [y], grad_outputs=[numpy.array([5.0, 6.0])])
        numpy.testing.assert_array_equal(gy.array, [5.0, 6.0])

    def test_loss_scale(self):
        x = Variable(numpy.array([1.0, 2.0]))
        gx, = chainer.grad([F.sum(x * x)], [x], loss_scale=4.0)
        numpy.testing.assert_allclose(gx.array, 8 * x.array)

    def test_retain_grad(self):
        x = Variable(numpy.array([1.0, 2.0]))
        h = x * 2.0
        chainer.grad([F.sum(h * h)], [x], retain_grad=True)
        numpy.testing.assert_allclose(h.grad, 2 * h.array)

    def test_gradient_penalty(self):
        # d/dx sum((d/dx sum(x^3))^2) = d/dx sum(9 x^4) = 36 x^3
        x = Variable(numpy.array([1.0, -2.0, 0.5]))
        gx, = chainer.grad([F.sum(x * x * x)], [x],
                           enable_double_backprop=True)
        assert gx.creator is not None
        numpy.testing.assert_allclose(gx.array, 3 * x.array ** 2)
        penalty = F.sum(gx * gx)
        penalty.backward()
        numpy.testing.assert_allclose(x.grad, 36 * x.array ** 3)

    def test_second_order_with_grad_twice(self):
        x = Variable(numpy.array([1.0, 2.0]))
        gx, = chainer.grad([F.sum(F.exp(x * 2.0))], [x],
                           enable_double_backprop=True)
        ggx, = chainer.grad([F.sum(gx)], [x])
        numpy.testing.assert_allclose(ggx.array, 4 * numpy.exp(2 * x.array))

    def test_without_double_backprop_the_result_has_no_graph(self):
        x = Variable(numpy.array([1.0, 2.0]))
        gx, = chainer.grad([F.sum(x * x)], [x])
        assert gx.creator is None

    @pytest.mark.parametrize('kwargs,error', [
        (dict(outputs=Variable(numpy.ones(1)), inputs=[]), TypeError),
        (dict(outputs=[], inputs=Variable(numpy.ones(1))), TypeError),
        (dict(outputs=[numpy.ones(1)], inputs=[]), TypeError),
        (dict(outputs=[Variable(numpy.ones(1))], inputs=[numpy.ones(1)]),
         TypeError),
        (dict(outputs=[Variable(numpy.ones(1))], inputs=[],
              grad_outputs=numpy.ones(1)), TypeError),
        (dict(outputs=[Variable(numpy.ones(1))], inputs=[],
              grad_outputs=[]), ValueError),
        (dict(outputs=[], inputs=[Variable(numpy.ones(1))],
              grad_inputs=[None, None]), ValueError),
        (dict(outputs=[], inputs=[Variable(numpy.ones(1))],
              grad_inputs=Variable(numpy.ones(1))), TypeError),
    ])
    def test_bad_arguments(self, kwargs, error):
        with pytest.raises(error):
            chainer.grad(**kwargs)
