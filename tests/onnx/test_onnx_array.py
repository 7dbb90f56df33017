"""Converters of chainer_core.functions.array, against ONNX Runtime."""
import numpy
import pytest

import chainer_core.functions as F
from onnx_check import case_ids, check, DEFAULT_OPSET, f32, OPSETS

x = f32(2, 3, 4, 5)
m = f32(3, 4, seed=1)
v = f32(6, seed=2)
CASES = [
    ('cast_f64', lambda a: F.cast(a, numpy.float64), [x]),
    ('cast_i32', lambda a: F.cast(a * 10, numpy.int32), [x]),
    ('concat', lambda a, b: F.concat((a, b), axis=1), [x, f32(2, 1, 4, 5)]),
    ('copy', lambda a: F.copy(a, '@numpy') * 1, [x]),
    ('depth2space', lambda a: F.depth2space(a, 2), [f32(2, 8, 3, 4)]),
    ('space2depth', lambda a: F.space2depth(a, 2), [f32(2, 3, 4, 6)]),
    ('dstack_1d', lambda a, b: F.dstack((a, b)), [v, f32(6, seed=3)]),
    ('dstack_2d', lambda a, b: F.dstack((a, b)), [m, f32(3, 4, seed=3)]),
    ('hstack_1d', lambda a, b: F.hstack((a, b)), [v, f32(4, seed=3)]),
    ('hstack_2d', lambda a, b: F.hstack((a, b)), [m, f32(3, 2, seed=3)]),
    ('vstack_1d', lambda a, b: F.vstack((a, b)), [v, f32(6, seed=3)]),
    ('vstack_2d', lambda a, b: F.vstack((a, b)), [m, f32(2, 4, seed=3)]),
    ('stack', lambda a, b: F.stack((a, b), axis=1), [m, m * 2]),
    ('stack_last', lambda a, b: F.stack((a, b), axis=-1), [m, m * 2]),
    ('expand_dims', lambda a: F.expand_dims(a, 1), [m]),
    ('expand_dims_neg', lambda a: F.expand_dims(a, -1), [m]),
    ('get_item_slices', lambda a: a[1:, ::2, -3:-1], [x]),
    ('get_item_int', lambda a: a[1, :, 2], [x]),
    ('get_item_negative_step', lambda a: a[:, ::-1, 3:0:-2], [x]),
    ('get_item_ellipsis_none', lambda a: a[..., None, 1:3], [x]),
    ('get_item_array', lambda a: a[:, [2, 0, 2]], [x]),
    ('get_item_bool', lambda a: a[numpy.array([True, False, True])], [m]),
    ('get_item_all', lambda a: a[...], [m]),
    ('get_item_numpy_int', lambda a: a[numpy.int64(-1), None], [m]),
    ('moveaxis', lambda a: F.moveaxis(a, 0, -1), [x]),
    ('moveaxis_tuple', lambda a: F.moveaxis(a, (0, 1), (3, 2)), [x]),
    ('rollaxis', lambda a: F.rollaxis(a, 3, 1), [x]),
    ('swapaxes', lambda a: F.swapaxes(a, 1, 3), [x]),
    ('transpose', F.transpose, [x]),
    ('transpose_axes', lambda a: F.transpose(a, (0, 2, 3, 1)), [x]),
    ('pad_constant', lambda a: F.pad(a, ((0, 0), (1, 2), (0, 1), (2, 0)),
                                     'constant', constant_values=0.5), [x]),
    ('pad_edge', lambda a: F.pad(a, 1, 'edge'), [m]),
    ('pad_reflect', lambda a: F.pad(a, ((1, 2), (2, 1)), 'reflect'), [m]),
    ('permutate', lambda a: F.permutate(a, numpy.array([2, 0, 1],
                                                       numpy.int32), 1),
     [x]),
    ('permutate_inv', lambda a: F.permutate(
        a, numpy.array([2, 0, 1], numpy.int32), 1, inv=True), [x]),
    ('permutate_input_indices', lambda a, i: F.permutate(a, i, 0, inv=True),
     [m, numpy.array([1, 2, 0], numpy.int32)]),
    ('repeat', lambda a: F.repeat(a, 2, axis=1), [m]),
    ('repeat_each', lambda a: F.repeat(a, (1, 0, 3), axis=0), [m]),
    ('repeat_flat', lambda a: F.repeat(a, 2), [m]),
    ('reshape', lambda a: F.reshape(a, (6, -1)), [x]),
    ('flatten', F.flatten, [x]),
    ('resize_bilinear', lambda a: F.resize_images(a, (7, 3)),
     [f32(2, 3, 4, 5)]),
    ('resize_bilinear_half_pixel', lambda a: F.resize_images(
        a, (9, 3), align_corners=False), [f32(2, 3, 4, 5)]),
    ('resize_nearest', lambda a: F.resize_images(a, (5, 9), mode='nearest'),
     [f32(2, 3, 3, 5)]),
    ('resize_nearest_half_pixel', lambda a: F.resize_images(
        a, (7, 3), mode='nearest', align_corners=False), [f32(2, 3, 4, 5)]),
    ('select_item', F.select_item, [m, numpy.array([3, 0, 2], numpy.int32)]),
    ('separate', lambda a: F.separate(a, axis=1), [x]),
    ('split_axis', lambda a: F.split_axis(a, 2, axis=2), [x]),
    ('split_axis_indices', lambda a: F.split_axis(a, [1, 4], axis=-1), [x]),
    ('squeeze', F.squeeze, [f32(2, 1, 3, 1)]),
    ('squeeze_axis', lambda a: F.squeeze(a, axis=3), [f32(2, 1, 3, 1)]),
    ('tile', lambda a: F.tile(a, (2, 1, 3)), [m]),
    ('tile_short', lambda a: F.tile(a, 2), [m]),
    ('where', lambda c_, a, b: F.where(c_, a, b),
     [m > 0, m, f32(3, 4, seed=5)]),
    ('where_constant_condition', lambda a: F.where(
        numpy.array([True, False, True, False]), a, -a), [m]),
    ('broadcast_to', lambda a: F.broadcast_to(a, (2, 3, 4)), [m]),
    ('broadcast', lambda a, b: F.broadcast(a, b),
     [f32(3, 1), f32(1, 4, seed=2)]),
    ('flip', lambda a: F.flip(a, 2), [x]),
    ('fliplr', F.fliplr, [m]),
    ('flipud', F.flipud, [m]),
    ('take_along_axis', lambda a, i: F.take_along_axis(a, i, 1),
     [m, numpy.array([[0, 3], [1, 1], [2, 0]], numpy.int64)]),
]


@pytest.mark.parametrize('opset_version', OPSETS)
@pytest.mark.parametrize('case', CASES, ids=case_ids(CASES))
class TestArray:

    def test_output(self, case, opset_version):
        _, fn, args = case
        check(fn, args, opset_version)


@pytest.mark.parametrize('opset_version', sorted({19, max(19, DEFAULT_OPSET)}))
def test_pad_wrap(opset_version):
    check(lambda a: F.pad(a, ((1, 2), (3, 1)), 'wrap'), [m], opset_version)
