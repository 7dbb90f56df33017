"""Connection links: parameters as Chainer names and shapes them, forward
equal to the function with the link's parameters, gradients reaching the
parameters, npz round trips, short forms and lazy initialization."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F
import chainer_core.links as L
from chainer_core import initializers

from ._util import (assert_allclose, check_grads_reach_params,
                    check_param_grads, check_round_trip, float64, npz_keys,
                    rand)


def _sigmoid(x):
    return 1 / (1 + numpy.exp(-x))


# name: (make, inputs, reference(link, *inputs), parameter shapes)
CASES = {
    'conv2d': (
        lambda: L.Convolution2D(3, 4, 3, stride=2, pad=1),
        lambda: (rand((2, 3, 5, 5), 1),),
        lambda m, x: F.convolution_2d(x, m.W, m.b, 2, 1),
        {'/W': (4, 3, 3, 3), '/b': (4,)}),
    'conv2d_groups_dilate': (
        lambda: L.Convolution2D(4, 6, (3, 2), pad=2, dilate=2, groups=2),
        lambda: (rand((1, 4, 5, 5), 2),),
        lambda m, x: F.convolution_2d(x, m.W, m.b, 1, 2, dilate=2, groups=2),
        {'/W': (6, 2, 3, 2), '/b': (6,)}),
    'convnd': (
        lambda: L.ConvolutionND(3, 2, 3, 2, pad=1, cover_all=True),
        lambda: (rand((1, 2, 3, 3, 2), 3),),
        lambda m, x: F.convolution_nd(x, m.W, m.b, 1, 1, cover_all=True),
        {'/W': (3, 2, 2, 2, 2), '/b': (3,)}),
    'conv1d': (
        lambda: L.Convolution1D(2, 3, 3, stride=2, nobias=True),
        lambda: (rand((2, 2, 7), 4),),
        lambda m, x: F.convolution_nd(x, m.W, None, 2),
        {'/W': (3, 2, 3)}),
    'conv3d': (
        lambda: L.Convolution3D(1, 2, 2),
        lambda: (rand((1, 1, 3, 3, 3), 5),),
        lambda m, x: F.convolution_nd(x, m.W, m.b),
        {'/W': (2, 1, 2, 2, 2), '/b': (2,)}),
    'deconv2d': (
        lambda: L.Deconvolution2D(3, 2, 3, stride=2, pad=1, outsize=(6, 6)),
        lambda: (rand((1, 3, 3, 3), 6),),
        lambda m, x: F.deconvolution_2d(x, m.W, m.b, 2, 1, (6, 6)),
        {'/W': (3, 2, 3, 3), '/b': (2,)}),
    'deconv2d_groups': (
        lambda: L.Deconvolution2D(4, 2, 2, groups=2, dilate=2),
        lambda: (rand((1, 4, 3, 2), 7),),
        lambda m, x: F.deconvolution_2d(x, m.W, m.b, dilate=2, groups=2),
        {'/W': (4, 1, 2, 2), '/b': (2,)}),
    'deconvnd': (
        lambda: L.DeconvolutionND(1, 2, 3, 3, stride=2),
        lambda: (rand((2, 2, 4), 8),),
        lambda m, x: F.deconvolution_nd(x, m.W, m.b, 2),
        {'/W': (2, 3, 3), '/b': (3,)}),
    'deconv3d': (
        lambda: L.Deconvolution3D(2, 2, 2, pad=1),
        lambda: (rand((1, 2, 2, 3, 2), 9),),
        lambda m, x: F.deconvolution_nd(x, m.W, m.b, 1, 1),
        {'/W': (2, 2, 2, 2, 2), '/b': (2,)}),
    'deconv1d': (
        lambda: L.Deconvolution1D(2, 1, 2),
        lambda: (rand((1, 2, 3), 10),),
        lambda m, x: F.deconvolution_nd(x, m.W, m.b),
        {'/W': (2, 1, 2), '/b': (1,)}),
    'dilated': (
        lambda: L.DilatedConvolution2D(2, 3, 3, pad=2, dilate=2),
        lambda: (rand((1, 2, 5, 4), 11),),
        lambda m, x: F.dilated_convolution_2d(x, m.W, m.b, 1, 2, 2),
        {'/W': (3, 2, 3, 3), '/b': (3,)}),
    'depthwise': (
        lambda: L.DepthwiseConvolution2D(2, 3, 3, pad=1),
        lambda: (rand((1, 2, 4, 4), 12),),
        lambda m, x: F.depthwise_convolution_2d(x, m.W, m.b, 1, 1),
        {'/W': (3, 2, 3, 3), '/b': (6,)}),
    'local': (
        lambda: L.LocalConvolution2D(2, 3, (5, 4), 3, stride=2),
        lambda: (rand((2, 2, 5, 4), 13),),
        lambda m, x: F.local_convolution_2d(x, m.W, m.b, 2),
        {'/W': (3, 2, 1, 2, 3, 3), '/b': (3, 2, 1)}),
    'embed_id': (
        lambda: L.EmbedID(5, 3, ignore_label=-1),
        lambda: (numpy.array([[0, 4], [-1, 4]], numpy.int32),),
        lambda m, x: F.embed_id(x, m.W, ignore_label=-1),
        {'/W': (5, 3)}),
    'bilinear': (
        lambda: L.Bilinear(2, 3, 4),
        lambda: (rand((2, 2), 14), rand((2, 3), 15)),
        lambda m, a, b: F.bilinear(a, b, m.W, m.V1, m.V2, m.b),
        {'/W': (2, 3, 4), '/V1': (2, 4), '/V2': (3, 4), '/b': (4,)}),
    'bilinear_nobias': (
        lambda: L.Bilinear(2, 3, 4, nobias=True),
        lambda: (rand((2, 2), 16), rand((2, 3), 17)),
        lambda m, a, b: F.bilinear(a, b, m.W),
        {'/W': (2, 3, 4)}),
    'bias': (
        lambda: L.Bias(axis=1, shape=(3,)),
        lambda: (rand((2, 3, 4), 18),),
        lambda m, x: x + m.b.array[:, None],
        {'/b': (3,)}),
    'scale': (
        lambda: L.Scale(axis=1, W_shape=(3, 4), bias_term=True),
        lambda: (rand((2, 3, 4, 2), 19),),
        lambda m, x: x * m.W.array[..., None] + m.bias.b.array[..., None],
        {'/W': (3, 4), '/bias/b': (3, 4)}),
    'highway': (
        lambda: L.Highway(3),
        lambda: (rand((2, 3), 20),),
        lambda m, x: (
            numpy.maximum(x.dot(m.plain.W.array.T) + m.plain.b.array, 0) *
            _sigmoid(x.dot(m.transform.W.array.T) + m.transform.b.array) +
            x * (1 - _sigmoid(x.dot(m.transform.W.array.T) +
                              m.transform.b.array))),
        {'/plain/W': (3, 3), '/plain/b': (3,), '/transform/W': (3, 3),
         '/transform/b': (3,)}),
    'inception': (
        lambda: L.Inception(3, 2, 2, 3, 2, 3, 2),
        lambda: (rand((1, 3, 5, 5), 21),),
        lambda m, x: F.relu(F.concat((
            F.convolution_2d(x, m.conv1.W, m.conv1.b),
            F.convolution_2d(F.relu(F.convolution_2d(x, m.proj3.W,
                                                     m.proj3.b)),
                             m.conv3.W, m.conv3.b, pad=1),
            F.convolution_2d(F.relu(F.convolution_2d(x, m.proj5.W,
                                                     m.proj5.b)),
                             m.conv5.W, m.conv5.b, pad=2),
            F.convolution_2d(F.max_pooling_2d(x, 3, 1, 1), m.projp.W,
                             m.projp.b)), axis=1)),
        {'/conv1/W': (2, 3, 1, 1), '/proj3/W': (2, 3, 1, 1),
         '/conv3/W': (3, 2, 3, 3), '/proj5/W': (2, 3, 1, 1),
         '/conv5/W': (3, 2, 5, 5), '/projp/W': (2, 3, 1, 1),
         '/conv1/b': (2,), '/proj3/b': (2,), '/conv3/b': (3,),
         '/proj5/b': (2,), '/conv5/b': (3,), '/projp/b': (2,)}),
}


@pytest.mark.parametrize('case', sorted(CASES))
class TestConnectionLinks:

    def _make(self, case):
        make, inputs, reference, shapes = CASES[case]
        return float64(make), inputs(), reference, shapes

    def test_forward_matches_function(self, case):
        link, inputs, reference, _ = self._make(case)
        y = link(*inputs)
        assert isinstance(y, chainer.Variable)
        assert_allclose(y, reference(link, *inputs))

    def test_parameter_shapes(self, case):
        link, inputs, _, shapes = self._make(case)
        link(*inputs)
        assert {n: p.shape for n, p in link.namedparams()} == shapes
        assert npz_keys(link) == sorted(n[1:] for n in shapes)

    def test_parameter_gradients(self, case):
        link, inputs, _, _ = self._make(case)
        check_param_grads(link, inputs)

    def test_round_trip(self, case):
        make, inputs, _, _ = CASES[case]
        check_round_trip(lambda: float64(make), inputs())

    def test_float32_by_default(self, case):
        make, inputs, _, _ = CASES[case]
        link = make()
        xs = [x.astype(numpy.float32) if x.dtype.kind == 'f' else x
              for x in inputs()]
        y = link(*xs)
        assert y.dtype == numpy.float32
        assert all(p.dtype == numpy.float32 for p in link.params())


class TestConvolution2D:

    def test_defaults(self):
        link = L.Convolution2D(64, 32, 3)
        assert (link.stride, link.pad, link.dilate, link.groups) == \
            ((1, 1), (0, 0), (1, 1), 1)
        numpy.testing.assert_array_equal(link.b.array, numpy.zeros(32))
        # LeCun normal: standard deviation sqrt(1 / fan_in).
        std = link.W.array.std()
        assert abs(std - (1 / (64 * 9)) ** 0.5) < 0.03 * std

    def test_short_form(self):
        link = L.Convolution2D(7, 5)
        assert link.in_channels is None and link.W.array is None
        y = link(rand((1, 3, 10, 10), 0, dtype=numpy.float32))
        assert y.shape == (1, 7, 6, 6) and link.W.shape == (7, 3, 5, 5)

    def test_lazy(self):
        link = L.Convolution2D(None, 4, 3, groups=2)
        assert link.W.array is None and link.b.shape == (4,)
        link(numpy.ones((1, 6, 4, 4), numpy.float32))
        assert link.W.shape == (4, 3, 3, 3)

    def test_initializers(self):
        W = numpy.arange(24, dtype=numpy.float32).reshape(2, 3, 2, 2)
        link = L.Convolution2D(3, 2, 2, initialW=W, initial_bias=0.5)
        numpy.testing.assert_array_equal(link.W.array, W)
        numpy.testing.assert_array_equal(link.b.array, [0.5, 0.5])
        link = L.Convolution2D(3, 2, 2, initialW=initializers.One(),
                               nobias=True)
        assert (link.W.array == 1).all() and link.b is None
        assert npz_keys(link) == ['W']

    def test_groups_errors(self):
        with pytest.raises(ValueError):
            L.Convolution2D(4, 5, 3, groups=2)
        with pytest.raises(ValueError):
            L.Convolution2D(3, 4, 3, groups=2)
        link = L.Convolution2D(None, 4, 3, groups=2)
        with pytest.raises(ValueError):
            link(numpy.ones((1, 3, 4, 4), numpy.float32))

    def test_removed_and_unknown_arguments(self):
        with pytest.raises(ValueError, match='deterministic'):
            L.Convolution2D(3, 4, 3, deterministic=True)
        with pytest.raises(TypeError, match='foo'):
            L.Convolution2D(3, 4, 3, foo=1)

    def test_str(self):
        assert str(L.Convolution2D(3, 4, 3, stride=2)) == (
            'Convolution2D(in_channels=3, out_channels=4, ksize=3, '
            'stride=(2, 2), pad=(0, 0), nobias=False, dilate=(1, 1), '
            'groups=1)')


class TestConvolutionND:

    def test_short_form_and_lazy(self):
        link = L.ConvolutionND(2, 5, 3)
        assert link.W.array is None and link.ksize == (3, 3)
        link(numpy.ones((1, 2, 4, 4), numpy.float32))
        assert link.W.shape == (5, 2, 3, 3)
        link = L.Convolution1D(None, 4, 2)
        link(numpy.ones((1, 3, 5), numpy.float32))
        assert link.W.shape == (4, 3, 2)

    def test_tuples(self):
        link = L.ConvolutionND(2, 1, 1, (2, 3), stride=(1, 2), pad=1)
        assert link.stride == (1, 2) and link.pad == (1, 1)
        assert link.W.shape == (1, 1, 2, 3)


class TestDeconvolution:

    def test_short_form(self):
        link = L.Deconvolution2D(4, 3, stride=2)
        y = link(numpy.ones((1, 2, 3, 3), numpy.float32))
        assert link.W.shape == (2, 4, 3, 3) and y.shape == (1, 4, 7, 7)

    def test_nd_lazy(self):
        link = L.DeconvolutionND(2, None, 3, 2)
        link(numpy.ones((1, 5, 2, 2), numpy.float32))
        assert link.W.shape == (5, 3, 2, 2)

    def test_nobias(self):
        link = L.Deconvolution2D(2, 3, 2, nobias=True)
        assert link.b is None and npz_keys(link) == ['W']


class TestOtherConvolutions:

    def test_dilated_short_form(self):
        link = L.DilatedConvolution2D(4, 3, dilate=2)
        y = link(numpy.ones((1, 2, 7, 7), numpy.float32))
        assert link.W.shape == (4, 2, 3, 3) and y.shape == (1, 4, 3, 3)

    def test_depthwise_lazy(self):
        link = L.DepthwiseConvolution2D(None, 2, 3)
        assert link.W.array is None and link.b.array is None
        y = link(numpy.ones((1, 3, 4, 4), numpy.float32))
        assert link.W.shape == (2, 3, 3, 3) and link.b.shape == (6,)
        assert y.shape == (1, 6, 2, 2)

    def test_local_lazy(self):
        link = L.LocalConvolution2D(None, 2, ksize=2)
        link(numpy.ones((1, 3, 4, 5), numpy.float32))
        assert link.W.shape == (2, 3, 4, 3, 2, 2)
        assert link.b.shape == (2, 3, 4)

    def test_deformable(self):
        link = float64(lambda: L.DeformableConvolution2D(
            2, 3, 3, pad=1, deform_initialW=initializers.Normal(0.3)))
        assert sorted(n for n, _ in link.namedparams()) == [
            '/deform_conv/W', '/deform_conv/b', '/offset_conv/W',
            '/offset_conv/b']
        assert link.offset_conv.W.shape == (18, 2, 3, 3)
        assert link.deform_conv.W.shape == (3, 2, 3, 3)
        x = rand((1, 2, 4, 4), 0)
        offset = F.convolution_2d(x, link.offset_conv.W, link.offset_conv.b,
                                  1, 1)
        expected = F.deformable_convolution_2d_sampler(
            x, offset, link.deform_conv.W, link.deform_conv.b, 1, 1)
        assert_allclose(link(x), expected)
        check_grads_reach_params(link, (x,))
        check_round_trip(lambda: float64(lambda: L.DeformableConvolution2D(
            2, 3, 3, pad=1, deform_initialW=initializers.Normal(0.3))), (x,))

    def test_deformable_defaults(self):
        link = L.DeformableConvolution2D(None, 3, 2)
        link(numpy.ones((1, 2, 3, 3), numpy.float32))
        # The deformable convolution's weight starts at zero.
        assert (link.deform_conv.W.array == 0).all()
        assert link.deform_conv.W.shape == (3, 2, 2, 2)
        assert link.offset_conv.W.shape == (8, 2, 2, 2)


class TestEmbedID:

    def test_default_initializer_is_standard_normal(self):
        link = L.EmbedID(200, 100)
        assert abs(link.W.array.std() - 1) < 0.03
        assert link.ignore_label is None

    def test_ignore_label_rows_are_zero(self):
        link = L.EmbedID(3, 2, ignore_label=-1)
        y = link(numpy.array([-1, 2], numpy.int32))
        numpy.testing.assert_array_equal(y.array[0], [0, 0])
        numpy.testing.assert_array_equal(y.array[1], link.W.array[2])


class TestBilinear:

    def test_initial_bias(self):
        V1 = numpy.ones((2, 4), numpy.float32)
        V2 = numpy.full((3, 4), 2, numpy.float32)
        link = L.Bilinear(2, 3, 4, initial_bias=(V1, V2, 3))
        numpy.testing.assert_array_equal(link.V2.array, V2)
        numpy.testing.assert_array_equal(link.b.array, [3] * 4)
        with pytest.raises(ValueError):
            L.Bilinear(2, 3, 4, initial_bias=(V2, V1, 0))
        with pytest.raises(ValueError):
            L.Bilinear(2, 3, 4, initial_bias=0)

    def test_default_bias_is_zero(self):
        numpy.testing.assert_array_equal(L.Bilinear(2, 2, 3).b.array,
                                         numpy.zeros(3))


class TestScaleAndBias:

    def test_scale_given_as_input(self):
        link = L.Scale(axis=1)
        x, y = rand((2, 3, 4), 0), rand((3,), 1)
        assert_allclose(link(x, y), x * y[:, None])
        assert list(link.params()) == []

    def test_scale_bias_shape_without_W(self):
        link = float64(lambda: L.Scale(axis=2, bias_term=True,
                                       bias_shape=(4,)))
        x, y = rand((2, 3, 4), 0), rand((4,), 1)
        link.bias.b.array[...] = [1, 2, 3, 4]
        assert_allclose(link(x, y), x * y + [1, 2, 3, 4])
        with pytest.raises(ValueError):
            L.Scale(bias_term=True)

    def test_scale_initial_values(self):
        link = L.Scale(W_shape=(3,), bias_term=True)
        assert (link.W.array == 1).all() and (link.bias.b.array == 0).all()

    def test_bias_given_as_input(self):
        x, b = rand((2, 3), 0), rand((3,), 1)
        assert_allclose(L.Bias()(x, b), x + b)
        with pytest.raises(TypeError):
            L.Bias(shape=(3,))(x, b)


class TestHighway:

    def test_transform_bias_starts_at_minus_one(self):
        link = L.Highway(4)
        assert (link.transform.b.array == -1).all()
        assert (link.plain.b.array == 0).all()

    def test_activation(self):
        link = float64(lambda: L.Highway(2, activate=F.tanh, nobias=True))
        x = rand((3, 2), 0)
        t = _sigmoid(x.dot(link.transform.W.array.T))
        expected = numpy.tanh(x.dot(link.plain.W.array.T)) * t + x * (1 - t)
        assert_allclose(link(x), expected)


class TestInceptionBN:

    def _make(self, **kw):
        args = dict(in_channels=3, out1=2, proj3=2, out3=3, proj33=2,
                    out33=2, pooltype='max', proj_pool=2)
        args.update(kw)
        return float64(lambda: L.InceptionBN(**args))

    def test_output_channels(self):
        link = self._make()
        y = link(rand((2, 3, 4, 4), 0))
        assert y.shape == (2, 2 + 3 + 2 + 2, 4, 4)

    def test_gradients_and_round_trip(self):
        x = rand((2, 3, 4, 4), 0)
        link = self._make()
        check_param_grads(link, (x,), atol=1e-6, rtol=1e-5)
        check_round_trip(self._make, (x,))
        assert 'conv3n/avg_mean' in npz_keys(link)
        assert 'conv1/b' not in npz_keys(link)

    def test_avg_pool_without_projection_strided(self):
        link = self._make(out1=0, pooltype='avg', proj_pool=None, stride=2)
        assert not hasattr(link, 'conv1') and not hasattr(link, 'poolp')
        x = rand((2, 3, 5, 5), 1)
        y = link(x)
        assert y.shape == (2, 3 + 2 + 3, 3, 3)
        assert_allclose(y[:, 5:], F.average_pooling_2d(x, 3, 2, 1))

    def test_max_pool_branch_without_projection(self):
        link = self._make(out1=0, proj_pool=None)
        x = rand((1, 3, 4, 4), 2)
        assert_allclose(link(x)[:, 5:],
                        F.max_pooling_2d(x, 3, 1, 1, cover_all=False))

    def test_bad_arguments(self):
        with pytest.raises(NotImplementedError):
            self._make(pooltype='min')
        with pytest.raises(ValueError):
            self._make(stride=2)
