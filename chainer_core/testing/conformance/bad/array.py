"""Bad input of array ops."""
import numpy

import chainer_core.functions as F

from . import AXIS, INDEX, bad, f64, i32, _op

bad('reshape-size-mismatch',
    lambda m: F.reshape(m((2, 3)), (4,)), _op('Reshape', 'reshape'),
    ('x', 'shape'))
bad('reshape-infer-impossible',
    lambda m: F.reshape(m((2, 3)), (4, -1)), _op('Reshape', 'reshape'),
    ('x', 'shape'))
bad('reshape-two-unknown',
    lambda m: F.reshape(m((2, 3)), (-1, -1)), _op('Reshape', 'reshape'),
    ('shape',))
bad('transpose-axes-too-short',
    lambda m: F.transpose(m((2, 3, 4)), (1, 0)),
    _op('Transpose', 'transpose'), ('axes',))
bad('transpose-axes-repeated',
    lambda m: F.transpose(m((2, 3, 4)), (0, 0, 1)),
    _op('Transpose', 'transpose'), ('axes',))
bad('transpose-axis-out-of-range',
    lambda m: F.transpose(m((2, 3, 4)), (0, 1, 3)),
    _op('Transpose', 'transpose'), ('axes',))
bad('transpose-axis-out-of-range-by-ndim',
    lambda m: F.transpose(m((2, 3, 4)), (0, 1, 5)),
    _op('Transpose', 'transpose'), ('axes',))
bad('transpose-negative-axis-out-of-range',
    lambda m: F.transpose(m((2, 3, 4)), (0, 1, -4)),
    _op('Transpose', 'transpose'), ('axes',))
bad('broadcast_to-incompatible',
    lambda m: F.broadcast_to(m((3, 2)), (3, 4)),
    _op('BroadcastTo', 'broadcast_to'), ('x', 'shape'))
bad('broadcast_to-fewer-axes',
    lambda m: F.broadcast_to(m((2, 3, 4)), (3, 4)),
    _op('BroadcastTo', 'broadcast_to'), ('x', 'shape'))
bad('get_item-int-out-of-range',
    lambda m: F.get_item(m((3, 4)), 3), _op('GetItem', 'get_item'),
    INDEX)
bad('get_item-negative-out-of-range',
    lambda m: F.get_item(m((3, 4)), (slice(None), -5)),
    _op('GetItem', 'get_item'), INDEX)
bad('get_item-array-out-of-range',
    lambda m: F.get_item(m((3, 4)), [0, 3]), _op('GetItem', 'get_item'),
    INDEX)
bad('get_item-device-array-out-of-range',
    lambda m: F.get_item(m((3, 4)), (0, m.values([1, 4]))),
    _op('GetItem', 'get_item'), INDEX)
bad('get_item-too-many-indices',
    lambda m: F.get_item(m((3, 4)), (0, 1, 2)),
    _op('GetItem', 'get_item'), INDEX)
bad('get_item-mask-shape',
    lambda m: F.get_item(m((3, 4)), m.values(numpy.ones((2, 4)), bool)),
    _op('GetItem', 'get_item'), INDEX)
bad('get_item-float-index',
    lambda m: F.get_item(m((3, 4)), 1.5), _op('GetItem', 'get_item'),
    INDEX)

# -- axes

bad('swapaxes-axis-out-of-range',
    lambda m: F.swapaxes(m((2, 3)), 0, 2), _op('Swapaxes', 'swapaxes'),
    ('axis2',))
bad('swapaxes-axis-not-int',
    lambda m: F.swapaxes(m((2, 3)), 0.0, 1), _op('Swapaxes', 'swapaxes'),
    ('axis1',))
bad('rollaxis-axis-out-of-range',
    lambda m: F.rollaxis(m((2, 3)), -3), _op('Rollaxis', 'rollaxis'),
    ('axis',))
bad('rollaxis-start-out-of-range',
    lambda m: F.rollaxis(m((2, 3)), 0, 3), _op('Rollaxis', 'rollaxis'),
    ('start',))
bad('moveaxis-length-mismatch',
    lambda m: F.moveaxis(m((2, 3, 4)), (0, 1), (2,)),
    _op('Moveaxis', 'moveaxis'), ('source', 'destination'))
bad('moveaxis-repeated-source',
    lambda m: F.moveaxis(m((2, 3, 4)), (0, -3), (1, 2)),
    _op('Moveaxis', 'moveaxis'), ('source',))
bad('moveaxis-destination-out-of-range',
    lambda m: F.moveaxis(m((2, 3)), 0, 2), _op('Moveaxis', 'moveaxis'),
    ('destination',))
bad('moveaxis-source-not-int',
    lambda m: F.moveaxis(m((2, 3)), 'a', 0), _op('Moveaxis', 'moveaxis'),
    ('source',))
bad('expand_dims-axis-out-of-range',
    lambda m: F.expand_dims(m((2, 3)), 3), _op('ExpandDims', 'expand_dims'),
    AXIS)
bad('expand_dims-negative-axis-out-of-range',
    lambda m: F.expand_dims(m((2, 3)), -4), _op('ExpandDims', 'expand_dims'),
    AXIS)
bad('squeeze-axis-not-one',
    lambda m: F.squeeze(m((1, 3)), 1), _op('Squeeze', 'squeeze'), AXIS)
bad('squeeze-axis-out-of-range',
    lambda m: F.squeeze(m((1, 3)), 2), _op('Squeeze', 'squeeze'), AXIS)
bad('squeeze-axis-float',
    lambda m: F.squeeze(m((1, 3)), 0.5), _op('Squeeze', 'squeeze'), AXIS)

# -- broadcasting, joining and splitting

bad('broadcast-incompatible',
    lambda m: F.broadcast(m((2, 3)), m((4,))), _op('Broadcast', 'broadcast'),
    ('args',))
bad('concat-shape-mismatch',
    lambda m: F.concat((m((2, 3)), m((3, 3)))), _op('Concat', 'concat'),
    ('xs',))
bad('concat-dtype-mismatch',
    lambda m: F.concat((m((2, 3)), m((2, 3), f64))), _op('Concat', 'concat'),
    ('xs',))
bad('concat-ndim-mismatch',
    lambda m: F.concat((m((2, 3)), m((2, 3, 1)))), _op('Concat', 'concat'),
    ('xs',))
bad('concat-axis-out-of-range',
    lambda m: F.concat((m((2, 3)), m((2, 3))), 2), _op('Concat', 'concat'),
    AXIS)
bad('concat-not-a-sequence',
    lambda m: F.concat(m((2, 3))), _op('Concat', 'concat'), ('xs',))
bad('stack-shape-mismatch',
    lambda m: F.stack((m((2, 3)), m((3, 2)))), _op('Stack', 'stack'),
    ('xs',))
bad('stack-axis-out-of-range',
    lambda m: F.stack((m((2, 3)), m((2, 3))), 3), _op('Stack', 'stack'),
    AXIS)
bad('hstack-shape-mismatch',
    lambda m: F.hstack((m((2, 3)), m((3, 3)))), _op('Hstack', 'hstack'),
    ('xs',))
bad('hstack-ndim-mismatch',
    lambda m: F.hstack((m((3,)), m((1, 3)))), _op('Hstack', 'hstack'),
    ('xs',))
bad('vstack-1d-length-mismatch',
    lambda m: F.vstack((m((3,)), m((2,)))), _op('Vstack', 'vstack'),
    ('xs',))
bad('vstack-shape-mismatch',
    lambda m: F.vstack((m((2, 3)), m((2, 2)))), _op('Vstack', 'vstack'),
    ('xs',))
bad('dstack-shape-mismatch',
    lambda m: F.dstack((m((2, 3)), m((2, 2)))), _op('Dstack', 'dstack'),
    ('xs',))
bad('dstack-dtype-mismatch',
    lambda m: F.dstack((m((2, 3, 1)), m((2, 3, 1), f64))),
    _op('Dstack', 'dstack'), ('xs',))
bad('split_axis-uneven-sections',
    lambda m: F.split_axis(m((2, 5)), 2, 1), _op('SplitAxis', 'split_axis'),
    ('sections', 'indices_or_sections'))
bad('split_axis-zero-sections',
    lambda m: F.split_axis(m((2, 4)), 0, 1), _op('SplitAxis', 'split_axis'),
    ('indices_or_sections',))
bad('split_axis-unsorted-indices',
    lambda m: F.split_axis(m((2, 6)), [4, 1], 1),
    _op('SplitAxis', 'split_axis'), ('indices_or_sections',))
bad('split_axis-float-indices',
    lambda m: F.split_axis(m((2, 6)), [1.5], 1),
    _op('SplitAxis', 'split_axis'), ('indices_or_sections',))
bad('split_axis-axis-out-of-range',
    lambda m: F.split_axis(m((2, 6)), 2, 2), _op('SplitAxis', 'split_axis'),
    AXIS)
bad('separate-axis-out-of-range',
    lambda m: F.separate(m((2, 3)), -3), _op('Separate', 'separate'), AXIS)

# -- selecting

bad('select_item-float-t',
    lambda m: F.select_item(m((3, 4)), m((3,))),
    _op('SelectItem', 'select_item'), ('t',))
bad('select_item-x-not-2d',
    lambda m: F.select_item(m((3, 4, 1)), m.values([0, 1, 2])),
    _op('SelectItem', 'select_item'), ('x',))
bad('select_item-batch-mismatch',
    lambda m: F.select_item(m((3, 4)), m.values([0, 1])),
    _op('SelectItem', 'select_item'), ('x', 't'))
bad('select_item-t-out-of-range',
    lambda m: F.select_item(m((3, 4)), m.values([0, 4, 1])),
    _op('SelectItem', 'select_item'), ('t',))
bad('where-condition-not-bool',
    lambda m: F.where(m((2, 3)), m((2, 3)), m((2, 3))),
    _op('Where', 'where'), ('condition',))
bad('where-dtype-mismatch',
    lambda m: F.where(m.values(numpy.ones((2, 3)), bool), m((2, 3)),
                      m((2, 3), f64)), _op('Where', 'where'), ('x', 'y'))
bad('where-shape-mismatch',
    lambda m: F.where(m.values(numpy.ones((2, 3)), bool), m((2, 3)),
                      m((3, 2))), _op('Where', 'where'), ('x', 'y'))
bad('where-two-scalars',
    lambda m: F.where(m.values(numpy.ones((2, 3)), bool), 1.0, 2.0),
    _op('Where', 'where'), ('x', 'y'))
bad('take_along_axis-float-indices',
    lambda m: F.take_along_axis(m((3, 4)), m((3, 2)), 1),
    _op('TakeAlongAxis', 'take_along_axis'), ('indices',))
bad('take_along_axis-ndim-mismatch',
    lambda m: F.take_along_axis(m((3, 4)), m.values([0, 1]), 1),
    _op('TakeAlongAxis', 'take_along_axis'), ('indices',))
bad('take_along_axis-out-of-range',
    lambda m: F.take_along_axis(m((3, 4)), m.values([[0], [4], [1]]), 1),
    _op('TakeAlongAxis', 'take_along_axis'), ('indices',))
bad('take_along_axis-shape-mismatch',
    lambda m: F.take_along_axis(m((3, 4)), m.values([[0], [1]]), 1),
    _op('TakeAlongAxis', 'take_along_axis'), ('indices', 'x'))
bad('take_along_axis-axis-out-of-range',
    lambda m: F.take_along_axis(m((3, 4)), m.values([[0], [1], [2]]), 2),
    _op('TakeAlongAxis', 'take_along_axis'), AXIS)
bad('gather-indices-larger',
    lambda m: F.gather(m((3, 4)), 1, m.values(numpy.zeros((4, 1)))),
    _op('TakeAlongAxis', 'gather'), ('indices',))
bad('gather-ndim-mismatch',
    lambda m: F.gather(m((3, 4)), 1, m.values([0, 1])),
    _op('TakeAlongAxis', 'gather'), ('indices',))
bad('gather-axis-out-of-range',
    lambda m: F.gather(m((3, 4)), -3, m.values([[0]])),
    _op('TakeAlongAxis', 'gather'), AXIS)
bad('scatter-out-of-range',
    lambda m: F.scatter(m((3, 4)), 1, m.values([[4]]), m((1, 1))),
    _op('Scatter', 'scatter'), ('indices',))
bad('scatter-indices-larger',
    lambda m: F.scatter(m((3, 4)), 1, m.values(numpy.zeros((4, 1))),
                        m((4, 1))), _op('Scatter', 'scatter'), ('indices',))
bad('scatter-updates-shape',
    lambda m: F.scatter(m((3, 4)), 1, m.values([[0], [1]]), m((3, 1))),
    _op('Scatter', 'scatter'), ('updates',))
bad('scatter-updates-dtype',
    lambda m: F.scatter(m((3, 4)), 1, m.values([[0], [1]]), m((2, 1), f64)),
    _op('Scatter', 'scatter'), ('updates',))
bad('sort-axis-out-of-range',
    lambda m: F.sort(m((3, 4)), 2), _op('Sort', 'sort'), AXIS)
bad('sort-0dim', lambda m: F.sort(m(())), _op('Sort', 'sort'), ('x',))
bad('argsort-axis-not-int',
    lambda m: F.argsort(m((3, 4)), 0.5), _op('Argsort', 'argsort'), AXIS)
bad('top_k-k-too-large',
    lambda m: F.top_k(m((3, 4)), 5), _op('TopK', 'top_k'), ('k',))
bad('top_k-k-negative',
    lambda m: F.top_k(m((3, 4)), -1, 0), _op('TopK', 'top_k'), ('k',))
bad('top_k-axis-out-of-range',
    lambda m: F.top_k(m((3, 4)), 1, 2), _op('TopK', 'top_k'), AXIS)
bad('permutate-not-a-permutation',
    lambda m: F.permutate(m((3, 2)), m.values([0, 0, 2])),
    _op('Permutate', 'permutate'), ('indices',))
bad('permutate-length-mismatch',
    lambda m: F.permutate(m((3, 2)), m.values([0, 1])),
    _op('Permutate', 'permutate'), ('indices', 'x'))
bad('permutate-float-indices',
    lambda m: F.permutate(m((3, 2)), m((3,))),
    _op('Permutate', 'permutate'), ('indices',))

# -- reversing, padding, tiling, repeating

bad('flip-axis-out-of-range',
    lambda m: F.flip(m((2, 3)), 2), _op('Flip', 'flip'), AXIS)
bad('flip-axis-none',
    lambda m: F.flip(m((2, 3)), None), _op('Flip', 'flip'), AXIS)
bad('fliplr-1d', lambda m: F.fliplr(m((3,))), _op('FlipLR', 'fliplr'),
    ('a',))
bad('flipud-0dim', lambda m: F.flipud(m(())), _op('FlipUD', 'flipud'),
    ('a',))
bad('pad-bad-mode',
    lambda m: F.pad(m((2, 3)), 1, 'mean'), _op('Pad', 'pad'), ('mode',))
bad('pad-width-shape',
    lambda m: F.pad(m((2, 3)), ((1, 1), (1, 1), (1, 1)), 'constant'),
    _op('Pad', 'pad'), ('pad_width',))
bad('pad-negative-width',
    lambda m: F.pad(m((2, 3)), -1, 'constant'), _op('Pad', 'pad'),
    ('pad_width',))
bad('pad-float-width',
    lambda m: F.pad(m((2, 3)), 1.5, 'constant'), _op('Pad', 'pad'),
    ('pad_width',))
bad('pad-int-input',
    lambda m: F.pad(m((2, 3), i32), 1, 'constant'), _op('Pad', 'pad'),
    ('x',))
bad('pad-constant-values-other-mode',
    lambda m: F.pad(m((2, 3)), 1, 'edge', constant_values=1),
    _op('Pad', 'pad'), ('constant_values',))
bad('pad-reflect-empty-axis',
    lambda m: F.pad(m((0, 3)), 1, 'reflect'), _op('Pad', 'pad'), ('x',))
bad('pad_sequence-trailing-shape',
    lambda m: F.pad_sequence([m((2, 3)), m((1, 2))]),
    _op('PadSequence', 'pad_sequence'), ('xs',))
bad('pad_sequence-too-long',
    lambda m: F.pad_sequence([m((2, 3)), m((4, 3))], length=3),
    _op('PadSequence', 'pad_sequence'), ('length',))
bad('pad_sequence-dtype-mismatch',
    lambda m: F.pad_sequence([m((2,)), m((2,), f64)]),
    _op('PadSequence', 'pad_sequence'), ('xs',))
bad('tile-negative-reps',
    lambda m: F.tile(m((2, 3)), (1, -1)), _op('Tile', 'tile'), ('reps',))
bad('tile-float-reps',
    lambda m: F.tile(m((2, 3)), 1.5), _op('Tile', 'tile'), ('reps',))
bad('repeat-length-mismatch',
    lambda m: F.repeat(m((2, 3)), (1, 2), 1), _op('Repeat', 'repeat'),
    ('repeats',))
bad('repeat-negative',
    lambda m: F.repeat(m((2, 3)), -1), _op('Repeat', 'repeat'),
    ('repeats',))
bad('repeat-axis-out-of-range',
    lambda m: F.repeat(m((2, 3)), 2, 2), _op('Repeat', 'repeat'), AXIS)

# -- dtype and device

bad('cast-not-a-dtype',
    lambda m: F.cast(m((2, 3)), 'no-such-dtype'), _op('Cast', 'cast'),
    ('typ',))
bad('copy-bad-device',
    lambda m: F.copy(m((2, 3)), '@no-such-backend'), _op('Copy', 'copy'),
    ('dst',))

# -- image layout

bad('depth2space-channels',
    lambda m: F.depth2space(m((1, 6, 2, 2)), 2),
    _op('Depth2Space', 'depth2space'), ('X', 'r'))
bad('depth2space-ndim',
    lambda m: F.depth2space(m((4, 2, 2)), 2),
    _op('Depth2Space', 'depth2space'), ('X',))
bad('depth2space-bad-r',
    lambda m: F.depth2space(m((1, 4, 2, 2)), 0),
    _op('Depth2Space', 'depth2space'), ('r',))
bad('space2depth-size',
    lambda m: F.space2depth(m((1, 1, 3, 4)), 2),
    _op('Space2Depth', 'space2depth'), ('X', 'r'))
bad('space2depth-int-input',
    lambda m: F.space2depth(m((1, 1, 2, 2), i32), 2),
    _op('Space2Depth', 'space2depth'), ('X',))
bad('resize_images-ndim',
    lambda m: F.resize_images(m((2, 3, 4)), (2, 2)),
    _op('ResizeImages', 'resize_images'), ('x',))
bad('resize_images-bad-mode',
    lambda m: F.resize_images(m((1, 1, 3, 4)), (2, 2), mode='bicubic'),
    _op('ResizeImages', 'resize_images'), ('mode',))
bad('resize_images-bad-shape',
    lambda m: F.resize_images(m((1, 1, 3, 4)), (2, 0)),
    _op('ResizeImages', 'resize_images'), ('output_shape',))
bad('resize_images-align-corners-not-bool',
    lambda m: F.resize_images(m((1, 1, 3, 4)), (2, 2), align_corners=None),
    _op('ResizeImages', 'resize_images'), ('align_corners',))
bad('im2col-ndim',
    lambda m: F.im2col(m((1, 3, 4)), 2), _op('Im2Col', 'im2col'), ('x',))
bad('im2col-kernel-too-large',
    lambda m: F.im2col(m((1, 1, 3, 3)), 4), _op('Im2Col', 'im2col'),
    ('ksize',))
bad('im2col-zero-stride',
    lambda m: F.im2col(m((1, 1, 3, 3)), 2, stride=0),
    _op('Im2Col', 'im2col'), ('stride',))
bad('im2col-bad-pad',
    lambda m: F.im2col(m((1, 1, 3, 3)), 2, pad=(1, 1, 1)),
    _op('Im2Col', 'im2col'), ('pad',))

# -- indexed updates and views

bad('scatter_add-shape-mismatch',
    lambda m: F.scatter_add(m((3, 4)), [0, 1], m((3, 4))),
    _op('ScatterAdd', 'scatter_add'), ('b',))
bad('scatter_add-dtype-mismatch',
    lambda m: F.scatter_add(m((3, 4)), 0, m((4,), f64)),
    _op('ScatterAdd', 'scatter_add'), ('a', 'b'))
bad('scatter_add-out-of-range',
    lambda m: F.scatter_add(m((3, 4)), [0, 3], m((2, 4))),
    _op('ScatterAdd', 'scatter_add'), INDEX)
bad('diagonal-same-axes',
    lambda m: F.diagonal(m((3, 3)), 0, 1, -1), _op('Diagonal', 'diagonal'),
    ('axis1', 'axis2'))
bad('diagonal-1d',
    lambda m: F.diagonal(m((3,))), _op('Diagonal', 'diagonal'), ('x',))
bad('diagonal-axis-out-of-range',
    lambda m: F.diagonal(m((3, 3)), 0, 0, 2), _op('Diagonal', 'diagonal'),
    ('axis2',))
bad('as_strided-out-of-bounds',
    lambda m: F.as_strided(m((2, 3)), (3, 3), (2, 1)),
    _op('AsStrided', 'as_strided'), ('strides',))
bad('as_strided-length-mismatch',
    lambda m: F.as_strided(m((2, 3)), (3, 2), (1,)),
    _op('AsStrided', 'as_strided'), ('shape', 'strides'))
bad('as_strided-negative-offset',
    lambda m: F.as_strided(m((2, 3)), (2,), (1,), -1),
    _op('AsStrided', 'as_strided'), ('storage_offset',))

TSEQ = _op('TransposeSequence', 'transpose_sequence')
bad('transpose_sequence-unsorted',
    lambda m: F.transpose_sequence([m((2, 3)), m((3, 3))]), TSEQ, ('xs',))
bad('transpose_sequence-shape-mismatch',
    lambda m: F.transpose_sequence([m((3, 3)), m((2, 4))]), TSEQ, ('xs',))
bad('transpose_sequence-not-a-list',
    lambda m: F.transpose_sequence(m((3, 3))), TSEQ, ('xs',))
bad('spatial_transformer_grid-theta-shape',
    lambda m: F.spatial_transformer_grid(m((2, 3, 3)), (3, 4)),
    _op('spatial_transformer_grid'), ('theta',))
bad('spatial_transformer_grid-output_shape',
    lambda m: F.spatial_transformer_grid(m((2, 2, 3)), (3, 0)),
    _op('spatial_transformer_grid'), ('output_shape',))
bad('spatial_transformer_sampler-grid-channels',
    lambda m: F.spatial_transformer_sampler(m((2, 3, 4, 4)),
                                            m((2, 3, 2, 2))),
    _op('SpatialTransformerSampler', 'spatial_transformer_sampler'),
    ('grid',))
