"""Bad input of connection ops."""
import chainer_core.functions as F

from . import bad, i32, _op

bad('linear-W-in-size',
    lambda m: F.linear(m((4, 3)), m((2, 4))),
    _op('LinearFunction', 'linear'), ('x', 'W'))
bad('linear-W-ndim',
    lambda m: F.linear(m((4, 3)), m((3,))),
    _op('LinearFunction', 'linear'), ('W',))
bad('linear-W-dtype',
    lambda m: F.linear(m((4, 3)), m((2, 3), i32)),
    _op('LinearFunction', 'linear'), ('W',))
bad('linear-b-size',
    lambda m: F.linear(m((4, 3)), m((2, 3)), m((3,))),
    _op('LinearFunction', 'linear'), ('b',))
bad('linear-x-1d',
    lambda m: F.linear(m((3,)), m((2, 3))),
    _op('LinearFunction', 'linear'), ('x',))
bad('linear-x-int',
    lambda m: F.linear(m((4, 3), i32), m((2, 3), i32)),
    _op('LinearFunction', 'linear'), ('x',))
bad('linear-n_batch_axes-zero',
    lambda m: F.linear(m((4, 3)), m((2, 3)), n_batch_axes=0),
    _op('LinearFunction', 'linear'), ('n_batch_axes',))
bad('linear-n_batch_axes-too-many',
    lambda m: F.linear(m((4, 3)), m((2, 3)), n_batch_axes=3),
    _op('LinearFunction', 'linear'), ('n_batch_axes',))

# -- convolutions

CONV2D = _op('Convolution2DFunction', 'convolution_2d')
bad('convolution_2d-x-ndim',
    lambda m: F.convolution_2d(m((2, 3, 5)), m((2, 3, 3, 3))),
    CONV2D, ('x',))
bad('convolution_2d-channels',
    lambda m: F.convolution_2d(m((2, 3, 5, 5)), m((2, 4, 3, 3))),
    CONV2D, ('x', 'W'))
bad('convolution_2d-W-dtype',
    lambda m: F.convolution_2d(m((2, 3, 5, 5)), m((2, 3, 3, 3), i32)),
    CONV2D, ('W',))
bad('convolution_2d-x-int',
    lambda m: F.convolution_2d(m((2, 3, 5, 5), i32), m((2, 3, 3, 3), i32)),
    CONV2D, ('x',))
bad('convolution_2d-b-size',
    lambda m: F.convolution_2d(m((2, 3, 5, 5)), m((2, 3, 3, 3)), m((3,))),
    CONV2D, ('b',))
bad('convolution_2d-groups-W',
    lambda m: F.convolution_2d(m((2, 4, 5, 5)), m((3, 2, 3, 3)), groups=2),
    CONV2D, ('W', 'groups'))
bad('convolution_2d-groups-zero',
    lambda m: F.convolution_2d(m((2, 3, 5, 5)), m((2, 3, 3, 3)), groups=0),
    CONV2D, ('groups',))
bad('convolution_2d-stride-zero',
    lambda m: F.convolution_2d(m((2, 3, 5, 5)), m((2, 3, 3, 3)), stride=0),
    CONV2D, ('stride',))
bad('convolution_2d-pad-negative',
    lambda m: F.convolution_2d(m((2, 3, 5, 5)), m((2, 3, 3, 3)), pad=-1),
    CONV2D, ('pad',))
bad('convolution_2d-stride-length',
    lambda m: F.convolution_2d(m((2, 3, 5, 5)), m((2, 3, 3, 3)),
                               stride=(1, 2, 3)),
    CONV2D, ('stride',))
bad('convolution_2d-empty-output',
    lambda m: F.convolution_2d(m((2, 3, 2, 2)), m((2, 3, 3, 3))),
    CONV2D, ('x', 'W'))
bad('dilated_convolution_2d-dilate-zero',
    lambda m: F.dilated_convolution_2d(m((2, 3, 5, 5)), m((2, 3, 3, 3)),
                                       dilate=0),
    _op('DilatedConvolution2DFunction', 'dilated_convolution_2d'),
    ('dilate',))
bad('convolution_nd-x-ndim',
    lambda m: F.convolution_nd(m((2, 3)), m((2, 3, 3))),
    _op('ConvolutionND', 'convolution_nd'), ('x',))
bad('convolution_nd-W-ndim',
    lambda m: F.convolution_nd(m((2, 3, 5, 5, 5)), m((2, 3, 3, 3))),
    _op('ConvolutionND', 'convolution_nd'), ('W',))

DECONV2D = _op('Deconvolution2DFunction', 'deconvolution_2d')
bad('deconvolution_2d-channels',
    lambda m: F.deconvolution_2d(m((2, 3, 3, 3)), m((2, 2, 3, 3))),
    DECONV2D, ('x', 'W'))
bad('deconvolution_2d-b-size',
    lambda m: F.deconvolution_2d(m((2, 3, 3, 3)), m((3, 2, 3, 3)),
                                 m((3,))),
    DECONV2D, ('b',))
bad('deconvolution_2d-outsize',
    lambda m: F.deconvolution_2d(m((2, 3, 3, 3)), m((3, 2, 3, 3)), stride=2,
                                 outsize=(9, 7)),
    DECONV2D, ('outsize',))
bad('deconvolution_2d-outsize-negative',
    lambda m: F.deconvolution_2d(m((2, 3, 3, 3)), m((3, 2, 3, 3)),
                                 outsize=(-1, 5)),
    DECONV2D, ('outsize',))
bad('deconvolution_2d-groups',
    lambda m: F.deconvolution_2d(m((2, 3, 3, 3)), m((3, 2, 3, 3)),
                                 groups=2),
    DECONV2D, ('W', 'groups'))
bad('deconvolution_nd-W-ndim',
    lambda m: F.deconvolution_nd(m((2, 3, 3, 3, 3)), m((3, 2, 3, 3))),
    _op('DeconvolutionND', 'deconvolution_nd'), ('W',))

DEPTHWISE = _op('DepthwiseConvolution2D', 'depthwise_convolution_2d')
bad('depthwise_convolution_2d-channels',
    lambda m: F.depthwise_convolution_2d(m((2, 3, 5, 5)), m((2, 2, 3, 3))),
    DEPTHWISE, ('x', 'W'))
bad('depthwise_convolution_2d-b-size',
    lambda m: F.depthwise_convolution_2d(m((2, 3, 5, 5)), m((2, 3, 3, 3)),
                                         m((3,))),
    DEPTHWISE, ('b',))

LOCAL = _op('LocalConvolution2DFunction', 'local_convolution_2d')
bad('local_convolution_2d-W-ndim',
    lambda m: F.local_convolution_2d(m((2, 3, 5, 5)), m((2, 3, 3, 3, 3))),
    LOCAL, ('W',))
bad('local_convolution_2d-output-too-large',
    lambda m: F.local_convolution_2d(m((2, 3, 5, 5)),
                                     m((2, 4, 3, 3, 3, 3))),
    LOCAL, ('W', 'x'))
bad('local_convolution_2d-b-shape',
    lambda m: F.local_convolution_2d(m((2, 3, 5, 5)), m((2, 3, 3, 3, 3, 3)),
                                     m((2, 3))),
    LOCAL, ('b',))

DEFORM = _op('DeformableConvolution2DSampler',
             'deformable_convolution_2d_sampler')
bad('deformable_convolution_2d_sampler-offset-channels',
    lambda m: F.deformable_convolution_2d_sampler(
        m((2, 2, 4, 4)), m((2, 9, 2, 2)), m((3, 2, 3, 3))),
    DEFORM, ('offset',))
bad('deformable_convolution_2d_sampler-offset-size',
    lambda m: F.deformable_convolution_2d_sampler(
        m((2, 2, 4, 4)), m((2, 18, 3, 3)), m((3, 2, 3, 3))),
    DEFORM, ('offset',))
bad('deformable_convolution_2d_sampler-W-channels',
    lambda m: F.deformable_convolution_2d_sampler(
        m((2, 2, 4, 4)), m((2, 18, 2, 2)), m((3, 3, 3, 3))),
    DEFORM, ('W', 'x'))

# -- embeddings and bilinear forms

EMBED = _op('EmbedIDFunction', 'embed_id')
bad('embed_id-x-float',
    lambda m: F.embed_id(m((2, 3)), m((4, 3))), EMBED, ('x',))
bad('embed_id-W-ndim',
    lambda m: F.embed_id(m.values([0, 1]), m((4,))), EMBED, ('W',))
bad('embed_id-id-out-of-range',
    lambda m: F.embed_id(m.values([0, 4]), m((4, 3))), EMBED, ('x',))
bad('embed_id-negative-id',
    lambda m: F.embed_id(m.values([0, -1]), m((4, 3)), ignore_label=-2),
    EMBED, ('x',))

BILINEAR = _op('BilinearFunction', 'bilinear')
bad('bilinear-batch',
    lambda m: F.bilinear(m((3, 2)), m((4, 4)), m((2, 4, 3))),
    BILINEAR, ('e1', 'e2'))
bad('bilinear-W-shape',
    lambda m: F.bilinear(m((3, 2)), m((3, 4)), m((2, 5, 3))),
    BILINEAR, ('W', 'e2'))
bad('bilinear-V1-shape',
    lambda m: F.bilinear(m((3, 2)), m((3, 4)), m((2, 4, 3)), m((3, 3)),
                         m((4, 3)), m((3,))),
    BILINEAR, ('V1',))
bad('bilinear-partial-linear-terms',
    lambda m: F.bilinear(m((3, 2)), m((3, 4)), m((2, 4, 3)), m((2, 3))),
    BILINEAR, ('V1', 'V2', 'b'))

SHIFT = _op('Shift', 'shift')
bad('shift-ksize-even', lambda m: F.shift(m((1, 9, 4, 4)), 2), SHIFT,
    ('ksize',))
bad('shift-too-few-channels', lambda m: F.shift(m((1, 4, 4, 4)), 3), SHIFT,
    ('x',))
bad('shift-x-ndim', lambda m: F.shift(m((9, 4, 4))), SHIFT, ('x',))
