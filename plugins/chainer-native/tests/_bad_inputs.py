"""Bad input for every routine of chainer_native. Run as a script (in a
subprocess, so that a crash is caught): prints one line per case, 'ok NAME
ExceptionType' when the routine raised a Python exception."""
import sys

import numpy

import chainer_native as cn

f32 = numpy.float32
x2 = cn.ones((2, 3), dtype=f32)
x4 = cn.ones((2, 3, 4, 4), dtype=f32)
w4 = cn.ones((5, 3, 3, 3), dtype=f32)
i3 = cn.asarray(numpy.array([0, 1, 2], numpy.int32))
nested = [[1, 2], [3]]


def cases():
    """(routine, call) pairs; every call must raise."""
    return [
        ('array', lambda: cn.array(nested)),
        ('asarray', lambda: cn.asarray(numpy.array(['a']))),
        ('ascontiguousarray', lambda: cn.ascontiguousarray(x2, dtype='c8')),
        ('from_dlpack', lambda: cn.from_dlpack(object())),
        ('empty', lambda: cn.empty((-1, 2))),
        ('zeros', lambda: cn.zeros((2, -3))),
        ('ones', lambda: cn.ones('ab')),
        ('ones_overflow', lambda: cn.ones((2 ** 40, 2 ** 40))),
        ('reshape_overflow', lambda: cn.reshape(x2, (2 ** 62, 4, -1))),
        ('full', lambda: cn.full((2,), x2)),
        ('empty_like', lambda: cn.empty_like(x2, dtype='U3')),
        ('zeros_like', lambda: cn.zeros_like(x2, dtype=object)),
        ('ones_like', lambda: cn.ones_like(x2, dtype='c16')),
        ('full_like', lambda: cn.full_like(x2, x2)),
        ('arange', lambda: cn.arange(0, 5, 0)),
        ('linspace', lambda: cn.linspace(0, 1, -2)),
        ('eye', lambda: cn.eye(-2)),
        ('identity', lambda: cn.identity(-1)),
        ('copy', lambda: cn.copy(nested)),
        ('astype', lambda: cn.astype(x2, 'S4')),
        ('add', lambda: cn.add(x2, cn.ones((4,)))),
        ('subtract', lambda: cn.subtract(x2 > 0, x2 > 0)),
        ('multiply', lambda: cn.multiply(x2, cn.ones((3, 2)))),
        ('divide', lambda: cn.divide(x2, cn.ones((5,)))),
        ('true_divide', lambda: cn.true_divide(x2, cn.ones((5,)))),
        ('power', lambda: cn.power(x2, cn.ones((2, 2)))),
        ('maximum', lambda: cn.maximum(x2, cn.ones((7,)))),
        ('minimum', lambda: cn.minimum(x2, cn.ones((7,)))),
        ('floor_divide', lambda: cn.floor_divide(x2, cn.ones((7,)))),
        ('remainder', lambda: cn.remainder(x2, cn.ones((7,)))),
        ('mod', lambda: cn.mod(x2, cn.ones((7,)))),
        ('negative', lambda: cn.negative(x2 > 0)),
        ('absolute', lambda: cn.absolute(nested)),
        ('abs', lambda: cn.abs(nested)),
        ('sign', lambda: cn.sign(x2 > 0)),
        ('square', lambda: cn.square(object())),
        ('sqrt', lambda: cn.sqrt(object())),
        ('exp', lambda: cn.exp('x')),
        ('log', lambda: cn.log(nested)),
        ('log2', lambda: cn.log2(nested)),
        ('log10', lambda: cn.log10(nested)),
        ('log1p', lambda: cn.log1p(nested)),
        ('expm1', lambda: cn.expm1(nested)),
        ('sin', lambda: cn.sin(nested)),
        ('cos', lambda: cn.cos(nested)),
        ('tan', lambda: cn.tan(nested)),
        ('tanh', lambda: cn.tanh(nested)),
        ('sigmoid', lambda: cn.sigmoid(nested)),
        ('relu', lambda: cn.relu(nested)),
        ('reciprocal', lambda: cn.reciprocal(nested)),
        ('floor', lambda: cn.floor(nested)),
        ('ceil', lambda: cn.ceil(nested)),
        ('arcsin', lambda: cn.arcsin(nested)),
        ('arccos', lambda: cn.arccos(nested)),
        ('arctan', lambda: cn.arctan(nested)),
        ('sinh', lambda: cn.sinh(nested)),
        ('cosh', lambda: cn.cosh(nested)),
        ('rsqrt', lambda: cn.rsqrt(nested)),
        ('equal', lambda: cn.equal(x2, cn.ones((4,)))),
        ('not_equal', lambda: cn.not_equal(x2, cn.ones((4,)))),
        ('less', lambda: cn.less(x2, cn.ones((4,)))),
        ('less_equal', lambda: cn.less_equal(x2, cn.ones((4,)))),
        ('greater', lambda: cn.greater(x2, cn.ones((4,)))),
        ('greater_equal', lambda: cn.greater_equal(x2, cn.ones((4,)))),
        ('logical_and', lambda: cn.logical_and(x2, cn.ones((4,)))),
        ('logical_or', lambda: cn.logical_or(x2, cn.ones((4,)))),
        ('logical_xor', lambda: cn.logical_xor(x2, cn.ones((4,)))),
        ('logical_not', lambda: cn.logical_not(nested)),
        ('isnan', lambda: cn.isnan(nested)),
        ('isinf', lambda: cn.isinf(nested)),
        ('isfinite', lambda: cn.isfinite(nested)),
        ('where', lambda: cn.where(x2 > 0, x2, cn.ones((5,)))),
        ('clip', lambda: cn.clip(x2, cn.ones((4,)), None)),
        ('sum', lambda: cn.sum(x2, axis=2)),
        ('mean', lambda: cn.mean(x2, axis=(0, 0))),
        ('max', lambda: cn.max(cn.ones((0,)))),
        ('amax', lambda: cn.amax(x2, axis=-3)),
        ('min', lambda: cn.min(cn.ones((0, 2)), axis=0)),
        ('amin', lambda: cn.amin(x2, axis=5)),
        ('prod', lambda: cn.prod(x2, axis=1.5)),
        ('var', lambda: cn.var(x2, axis=3)),
        ('std', lambda: cn.std(x2, axis=3)),
        ('logsumexp', lambda: cn.logsumexp(x2, axis=4)),
        ('all', lambda: cn.all(x2, axis=2)),
        ('any', lambda: cn.any(x2, axis=2)),
        ('argmax', lambda: cn.argmax(cn.ones((0,)))),
        ('argmin', lambda: cn.argmin(x2, axis=2)),
        ('matmul', lambda: cn.matmul(x2, x2)),
        ('dot', lambda: cn.dot(x4, x2)),
        ('reshape', lambda: cn.reshape(x2, (4, 2))),
        ('transpose', lambda: cn.transpose(x2, (0, 0))),
        ('swapaxes', lambda: cn.swapaxes(x2, 0, 2)),
        ('moveaxis', lambda: cn.moveaxis(x2, 0, 5)),
        ('squeeze', lambda: cn.squeeze(x2, axis=0)),
        ('expand_dims', lambda: cn.expand_dims(x2, 4)),
        ('broadcast_to', lambda: cn.broadcast_to(x2, (3, 3))),
        ('ravel', lambda: cn.ravel(object())),
        ('concatenate', lambda: cn.concatenate([x2, cn.ones((2, 2, 2))])),
        ('stack', lambda: cn.stack([x2, cn.ones((3, 2))])),
        ('split', lambda: cn.split(x2, 4, axis=1)),
        ('take', lambda: cn.take(x2, cn.asarray(numpy.array([7])), axis=1)),
        ('conv', lambda: cn.conv(x4, cn.ones((5, 2, 3, 3), dtype=f32))),
        ('conv_transpose', lambda: cn.conv_transpose(
            x4, cn.ones((4, 3, 3, 3), dtype=f32))),
        ('conv_grad_weight', lambda: cn.conv_grad_weight(
            x4, cn.ones((2, 5, 9, 9), dtype=f32), 3)),
        ('max_pool', lambda: cn.max_pool(x2, 2)),
        ('average_pool', lambda: cn.average_pool(x4, 2, pad_mode='wrap')),
        # The width of x4 is 4.
        ('roi_max_bins', lambda: cn.roi_max_bins(
            x4, numpy.zeros(1, numpy.int64),
            numpy.zeros((1, 1, 2), numpy.int64),
            numpy.array([[[0, 5]]], numpy.int64))),
        ('batch_norm', lambda: cn.batch_norm(x4, cn.ones((4,), dtype=f32),
                                             cn.ones((3,), dtype=f32))),
        ('fixed_batch_norm', lambda: cn.fixed_batch_norm(
            x4, *[cn.ones((3,), dtype=f32)] * 3, cn.ones((2,), dtype=f32))),
        ('linear', lambda: cn.linear(x2, cn.ones((4, 5), dtype=f32))),
        ('log_softmax', lambda: cn.log_softmax(x2, axis=3)),
        ('softmax', lambda: cn.softmax(i3)),
        ('softmax_cross_entropy', lambda: cn.softmax_cross_entropy(
            x2, cn.asarray(numpy.array([0, 3], numpy.int32)))),
        ('dropout', lambda: cn.dropout(x2, 1.5)),
        ('mean_squared_error', lambda: cn.mean_squared_error(
            x2, cn.ones((3, 2), dtype=f32))),
        ('set_num_threads', lambda: cn.set_num_threads(0)),
        ('getitem', lambda: x2[5]),
        ('getitem_array', lambda: x2[:, numpy.array([0, 9])]),
        ('getitem_float', lambda: x2[1.5]),
        ('setitem', lambda: x2.__setitem__((slice(None), 0),
                                           cn.ones((5,)))),
        ('backward_non_scalar', lambda: (x2.copy().require_grad() * 2)
         .backward()),
        ('grad_shape', lambda: setattr(x2.copy().require_grad(), 'grad',
                                       cn.ones((3, 2), dtype=f32))),
        ('require_grad_int', lambda: i3.require_grad()),
        ('item', lambda: x2.item()),
        ('dlpack_device', lambda: x2.__dlpack__(dl_device=(2, 0))),
        ('grad', lambda: cn.grad([x2.copy().require_grad() * 2], [x2])),
        ('grad_outputs', lambda: cn.grad(
            [x2.copy().require_grad() * 2], [x2], [cn.ones((3,))])),
        ('grad_types', lambda: cn.grad([object()], [x2])),
        ('_record', lambda: cn._record('f', [x2], [x2], None)),
        ('_record_inputs', lambda: cn._record('f', [nested], [x2],
                                              lambda t, g: g)),
        ('_record_backward', lambda: _bad_python_backward()),
        ('_OpHandle.output', lambda: _bad_handle_output()),
        ('_node', lambda: cn._node(numpy.ones(3))),
        ('_name_creator', lambda: cn._name_creator([x2], 'f')),
        ('_graph_and_data', lambda: cn._graph_and_data(numpy.ones(3))),
        ('_get_grad', lambda: cn._get_grad(numpy.ones(3), False)),
        ('_graph_softmax_cross_entropy',
         lambda: cn._graph_softmax_cross_entropy('f', [x2, nested], None, -1,
                                                 True, 'mean')),
        ('_set_grad', lambda: cn._set_grad(x2.copy().require_grad(),
                                           cn.ones((3,), dtype=f32))),
        ('_install_rule', lambda: cn._install_rule(
            'f', (), (1, (('no_such_kernel', ((2, 0),), (), (), (0,)),),
                      (0,)))),
        ('_install_rule_slot', lambda: cn._install_rule(
            'f', (), (1, (('neg', ((6, 5),), (), (), (0,)),), (0,)))),
        ('_install_rule_form', lambda: cn._install_rule('f', (), (1, 2))),
        ('_set_rule_source', lambda: cn._set_rule_source(None)),
        # This script is no zip archive.
        ('_read_npz', lambda: cn._read_npz(__file__)),
        ('_write_npz', lambda: cn._write_npz('unused.npz', {'a': object()})),
    ] + [
        (name, lambda name=name: getattr(cn, name)('f', [x2, nested]))
        for name in ('_graph_add', '_graph_subtract', '_graph_multiply',
                     '_graph_divide')
    ] + [
        (name, lambda name=name: getattr(cn, name)('f', [nested]))
        for name in ('_graph_negative', '_graph_exp', '_graph_log',
                     '_graph_relu', '_graph_sigmoid', '_graph_tanh',
                     '_graph_linear')
    ] + [
        ('_sgd_update', lambda: cn._sgd_update(x2, cn.ones((3,), f32), 0.1)),
        ('_sgd_update_numpy', lambda: cn._sgd_update(
            numpy.ones(3), numpy.ones(3), 0.1)),
        ('_momentum_sgd_update', lambda: cn._momentum_sgd_update(
            x2, cn.ones((2, 3)), cn.zeros((2, 3), dtype=f32), 0.1, 0.9)),
        ('_adam_update', lambda: cn._adam_update(
            x2, x2.copy(), cn.zeros((2, 3), dtype=f32),
            cn.zeros((2, 3), dtype=f32), None, 1e-3, 0.9, 0.999, 1e-8, 1.0,
            0.0, 0.1, None)),
        ('_adam_update_state', lambda: cn._adam_update(
            x2, x2.copy(), cn.zeros((2, 3), dtype=f32), cn.zeros((2, 3)),
            None, 1e-3, 0.9, 0.999, 1e-8, 1.0, 0.0, None, None)),
        ('_adam_update_readonly', lambda: cn._adam_update(
            cn.broadcast_to(x2[0], (2, 3)), x2.copy(),
            cn.zeros((2, 3), dtype=f32), cn.zeros((2, 3), dtype=f32), None,
            1e-3, 0.9, 0.999, 1e-8, 1.0, 0.0, None, None)),
    ]


def _bad_handle_output():
    """Output data of another shape than the op's output."""
    handle, ys = cn._record('f', [x2.copy().require_grad()], [x2],
                            lambda t, g: g)
    handle.output(0, cn.ones((3,)))


def _bad_python_backward():
    """A Python node whose backward returns the wrong number of gradients."""
    x = x2.copy().require_grad()
    _, (y,) = cn._record('f', [x], [x2 * 2], lambda t, g: (g[0], g[0]))
    cn.sum(y).backward()


# Module-level names that are not routines taking array input.
NOT_ROUTINES = {'ndarray', '_OpHandle', '_OpNode', '_VarNode',
                'get_num_threads',
                'is_backprop_required', '_set_backprop_mode'}

if __name__ == '__main__':
    for name, call in cases():
        print('try', name, flush=True)
        try:
            call()
        except Exception as e:
            print('ok', name, type(e).__name__, flush=True)
        else:
            print('noraise', name, flush=True)
    sys.exit(0)
