"""Bad input of pooling ops."""
import numpy

import chainer_core.functions as F

from . import bad, i32, f32, _op

MAX2D = _op('MaxPooling2D', 'max_pooling_2d')
bad('max_pooling_2d-x-ndim',
    lambda m: F.max_pooling_2d(m((2, 3, 5)), 2), MAX2D, ('x',))
bad('max_pooling_2d-x-int',
    lambda m: F.max_pooling_2d(m((2, 3, 5, 5), i32), 2), MAX2D, ('x',))
bad('max_pooling_2d-ksize-zero',
    lambda m: F.max_pooling_2d(m((2, 3, 5, 5)), 0), MAX2D, ('ksize',))
bad('max_pooling_2d-ksize-length',
    lambda m: F.max_pooling_2d(m((2, 3, 5, 5)), (2, 2, 2)), MAX2D,
    ('ksize',))
bad('max_pooling_2d-stride-zero',
    lambda m: F.max_pooling_2d(m((2, 3, 5, 5)), 2, stride=0), MAX2D,
    ('stride',))
bad('max_pooling_2d-pad-negative',
    lambda m: F.max_pooling_2d(m((2, 3, 5, 5)), 2, pad=-1), MAX2D,
    ('pad',))
bad('max_pooling_2d-empty-output',
    lambda m: F.max_pooling_2d(m((2, 3, 2, 2)), 3, cover_all=False), MAX2D,
    ('x', 'ksize'))
bad('max_pooling_nd-x-ndim',
    lambda m: F.max_pooling_nd(m((2, 3)), 2),
    _op('MaxPoolingND', 'max_pooling_nd'), ('x',))
bad('max_pooling_nd-ksize-length',
    lambda m: F.max_pooling_nd(m((2, 3, 4, 4, 4)), (2, 2)),
    _op('MaxPoolingND', 'max_pooling_nd'), ('ksize',))

AVG2D = _op('AveragePooling2D', 'average_pooling_2d')
AVGND = _op('AveragePoolingND', 'average_pooling_nd')
bad('average_pooling_2d-x-ndim',
    lambda m: F.average_pooling_2d(m((2, 3, 5, 5, 5)), 2), AVG2D, ('x',))
bad('average_pooling_2d-x-int',
    lambda m: F.average_pooling_2d(m((2, 3, 5, 5), i32), 2), AVG2D, ('x',))
bad('average_pooling_2d-ksize-type',
    lambda m: F.average_pooling_2d(m((2, 3, 5, 5)), 'a'), AVG2D,
    ('ksize',))
bad('average_pooling_nd-pad_value',
    lambda m: F.average_pooling_nd(m((2, 3, 5, 5)), 2, pad_value=1), AVGND,
    ('pad_value',))
bad('average_pooling_nd-stride-length',
    lambda m: F.average_pooling_nd(m((2, 3, 5, 5)), 2, stride=(1, 1, 1)),
    AVGND, ('stride',))

UNPOOL2D = _op('Unpooling2D', 'unpooling_2d')
bad('unpooling_2d-x-ndim',
    lambda m: F.unpooling_2d(m((2, 3, 3)), 2), UNPOOL2D, ('x',))
bad('unpooling_2d-outsize',
    lambda m: F.unpooling_2d(m((2, 3, 3, 3)), 2, outsize=(9, 6)), UNPOOL2D,
    ('outsize',))
bad('unpooling_2d-outsize-zero',
    lambda m: F.unpooling_2d(m((2, 3, 3, 3)), 2, outsize=(0, 6)), UNPOOL2D,
    ('outsize',))
bad('unpooling_nd-ksize-zero',
    lambda m: F.unpooling_nd(m((2, 3, 3, 3, 3)), 0),
    _op('UnpoolingND', 'unpooling_nd'), ('ksize',))

UP = _op('Upsampling2D', 'upsampling_2d')
bad('upsampling_2d-indexes-shape',
    lambda m: F.upsampling_2d(m((2, 3, 3, 3)), m.values(
        numpy.zeros((2, 3, 3, 2))), 2), UP, ('indexes',))
bad('upsampling_2d-indexes-float',
    lambda m: F.upsampling_2d(m((2, 3, 3, 3)), m((2, 3, 3, 3)), 2), UP,
    ('indexes',))
bad('upsampling_2d-indexes-range',
    lambda m: F.upsampling_2d(m((2, 3, 3, 3)), m.values(
        numpy.full((2, 3, 3, 3), 4)), 2), UP, ('indexes',))
bad('upsampling_2d-outsize',
    lambda m: F.upsampling_2d(m((2, 3, 3, 3)), m.values(
        numpy.zeros((2, 3, 3, 3))), 2, outsize=(9, 6)), UP, ('outsize',))

SPP = _op('SpatialPyramidPooling2D', 'spatial_pyramid_pooling_2d')
bad('spatial_pyramid_pooling_2d-x-ndim',
    lambda m: F.spatial_pyramid_pooling_2d(m((2, 3, 4)), 2, pooling='max'),
    SPP, ('x',))
bad('spatial_pyramid_pooling_2d-pooling',
    lambda m: F.spatial_pyramid_pooling_2d(m((2, 3, 4, 4)), 2,
                                           pooling='average'),
    SPP, ('pooling',))
bad('spatial_pyramid_pooling_2d-pooling-missing',
    lambda m: F.spatial_pyramid_pooling_2d(m((2, 3, 4, 4)), 2),
    SPP, ('pooling',))
bad('spatial_pyramid_pooling_2d-pyramid_height',
    lambda m: F.spatial_pyramid_pooling_2d(m((2, 3, 4, 4)), 0,
                                           pooling='max'),
    SPP, ('pyramid_height',))

ROIPOOL = _op('ROIPooling2D', 'roi_pooling_2d')
_ROI5 = [[0, 1, 1, 3, 3]]
bad('roi_pooling_2d-rois-shape',
    lambda m: F.roi_pooling_2d(m((2, 3, 5, 5)), m((1, 4)), 2, 2, 1.0),
    ROIPOOL, ('rois',))
bad('roi_pooling_2d-rois-int',
    lambda m: F.roi_pooling_2d(m((2, 3, 5, 5)), m.values(_ROI5), 2, 2, 1.0),
    ROIPOOL, ('rois',))
bad('roi_pooling_2d-x-ndim',
    lambda m: F.roi_pooling_2d(m((3, 5, 5)), m.values(_ROI5, f32), 2, 2,
                               1.0),
    ROIPOOL, ('x',))
bad('roi_pooling_2d-batch-index',
    lambda m: F.roi_pooling_2d(m((2, 3, 5, 5)),
                               m.values([[2, 1, 1, 3, 3]], f32), 2, 2, 1.0),
    ROIPOOL, ('rois',))
bad('roi_pooling_2d-outh',
    lambda m: F.roi_pooling_2d(m((2, 3, 5, 5)), m.values(_ROI5, f32), 0, 2,
                               1.0),
    ROIPOOL, ('outh',))
bad('roi_pooling_2d-spatial_scale',
    lambda m: F.roi_pooling_2d(m((2, 3, 5, 5)), m.values(_ROI5, f32), 2, 2,
                               -1.0),
    ROIPOOL, ('spatial_scale',))

_ROI4 = [[1, 1, 3, 3]]
for _name, _fn, _label in (
        ('roi_average_align_2d', F.roi_average_align_2d, 'ROIAverageAlign2D'),
        ('roi_max_align_2d', F.roi_max_align_2d, 'ROIMaxAlign2D')):
    _names = _op(_label, _name)
    bad(_name + '-rois-shape',
        lambda m, f=_fn: f(m((2, 3, 5, 5)), m((1, 5)), m.values([0]), 2,
                           1.0),
        _names, ('rois',))
    bad(_name + '-roi_indices-float',
        lambda m, f=_fn: f(m((2, 3, 5, 5)), m.values(_ROI4, f32), m((1,)),
                           2, 1.0),
        _names, ('roi_indices',))
    bad(_name + '-roi_indices-length',
        lambda m, f=_fn: f(m((2, 3, 5, 5)), m.values(_ROI4, f32),
                           m.values([0, 1]), 2, 1.0),
        _names, ('rois', 'roi_indices'))
    bad(_name + '-roi_indices-range',
        lambda m, f=_fn: f(m((2, 3, 5, 5)), m.values(_ROI4, f32),
                           m.values([2]), 2, 1.0),
        _names, ('roi_indices',))
    bad(_name + '-outsize',
        lambda m, f=_fn: f(m((2, 3, 5, 5)), m.values(_ROI4, f32),
                           m.values([0]), (2, 0), 1.0),
        _names, ('outsize',))
    bad(_name + '-sampling_ratio',
        lambda m, f=_fn: f(m((2, 3, 5, 5)), m.values(_ROI4, f32),
                           m.values([0]), 2, 1.0, sampling_ratio=0),
        _names, ('sampling_ratio',))

for _name, _nd in (('max_pooling', 'max_pooling_nd'),
                   ('average_pooling', 'average_pooling_nd'),
                   ('unpooling', 'unpooling_nd')):
    for _n, _shape in ((1, (2, 3, 4, 4)), (3, (2, 3, 4))):
        _fn = '{}_{}d'.format(_name, _n)
        bad(_fn + '-x-ndim', lambda m, f=getattr(F, _fn), s=_shape: f(
            m(s), 2), _op(_fn), ('x',))
RMAX = _op('ROIMaxPooling2D', 'roi_max_pooling_2d')
RAVG = _op('ROIAveragePooling2D', 'roi_average_pooling_2d')
for _ops, _fn in ((RMAX, F.roi_max_pooling_2d),
                  (RAVG, F.roi_average_pooling_2d)):
    bad(_ops[1] + '-rois-shape', lambda m, f=_fn: f(
        m((2, 3, 5, 5)), m((2, 5)), m.values([0, 1]), 2, 1.0), _ops,
        ('rois',))
    bad(_ops[1] + '-indices-float', lambda m, f=_fn: f(
        m((2, 3, 5, 5)), m((2, 4)), m((2,)), 2, 1.0), _ops,
        ('roi_indices',))
    bad(_ops[1] + '-index-out-of-range', lambda m, f=_fn: f(
        m((2, 3, 5, 5)), m((2, 4)), m.values([0, 2]), 2, 1.0), _ops,
        ('roi_indices',))
    bad(_ops[1] + '-outsize', lambda m, f=_fn: f(
        m((2, 3, 5, 5)), m((2, 4)), m.values([0, 1]), 0, 1.0), _ops,
        ('outsize',))
