"""chainer_core.utils: top-level helpers, checked against Chainer 7.8.1."""
import os
import warnings

import numpy
import pytest

import chainer_core
from chainer_core import utils
from chainer_core.utils import cache, imgproc, meta


class TestForceArray:

    @pytest.mark.parametrize('x,dtype,expected', [
        (3, None, numpy.int64),
        (True, None, numpy.bool_),
        (2.5, None, numpy.float64),
        (2.5, numpy.float32, numpy.float32),
        (numpy.float64(2), numpy.float32, numpy.float32),
        (numpy.float32(1), None, numpy.float32),
    ])
    def test_scalars_become_0d_arrays(self, x, dtype, expected):
        y = utils.force_array(x, dtype)
        assert isinstance(y, numpy.ndarray)
        assert y.shape == ()
        assert y.dtype == expected
        assert y == x

    def test_array_is_kept(self):
        a = numpy.ones(2)
        assert utils.force_array(a) is a
        assert utils.force_array(a, numpy.float64) is a
        assert utils.force_array(a, numpy.float32).dtype == numpy.float32


class TestSumTo:

    def test_values(self):
        x = numpy.arange(24.).reshape(2, 3, 4)
        numpy.testing.assert_array_equal(
            utils.sum_to(x, (3, 1)).ravel(), [60., 92., 124.])
        assert utils.sum_to(x, ()).shape == ()
        assert utils.sum_to(x, (1, 3, 1)).shape == (1, 3, 1)
        assert utils.sum_to(x, (2, 3, 4)) is x

    def test_variable_is_refused(self):
        with pytest.raises(TypeError, match='functions.sum_to'):
            utils.sum_to(chainer_core.Variable(numpy.ones(3)), (1,))

    def test_incompatible_shape(self):
        with pytest.raises(ValueError, match=r'\(2, 3\) to shape \(5,\)'):
            utils.sum_to(numpy.ones((2, 3)), (5,))


class TestArray:

    def test_as_mat_and_as_vec(self):
        x = numpy.arange(24.).reshape(2, 3, 4)
        assert utils.array.as_mat(x).shape == (2, 12)
        assert utils.array.as_mat(numpy.ones(3)).shape == (3, 1)
        assert utils.array.as_vec(x).shape == (24,)

    def test_empty_like_and_size_of_shape(self):
        e = utils.array.empty_like(numpy.ones((2, 3), numpy.float32))
        assert e.shape == (2, 3) and e.dtype == numpy.float32
        assert utils.size_of_shape((2, 3)) == 6
        assert utils.size_of_shape(()) == 1

    def test_conv_outsize_at_top_level(self):
        assert utils.get_conv_outsize(7, 3, 2, 1) == 4
        assert utils.get_deconv_outsize(4, 3, 2, 1) == 7


def test_tempdir():
    with utils.tempdir(prefix='abc') as d:
        assert os.path.isdir(d)
        assert os.path.basename(d).startswith('abc')
        with open(os.path.join(d, 'f'), 'w') as f:
            f.write('x')
    assert not os.path.exists(d)


class TestWarnings:

    def test_experimental(self, monkeypatch):
        with pytest.warns(FutureWarning,
                          match='chainer.foo.Bar is experimental'):
            utils.experimental('chainer.foo.Bar')
        monkeypatch.setattr(chainer_core,
                            'disable_experimental_feature_warning', True,
                            raising=False)
        with warnings.catch_warnings():
            warnings.simplefilter('error')
            utils.experimental('chainer.foo.Bar')

    def test_nondeterministic(self):
        with warnings.catch_warnings():
            warnings.simplefilter('error')
            utils.nondeterministic('F.foo')
        with chainer_core.using_config('warn_nondeterministic', True):
            with pytest.warns(UserWarning, match='Source: F.foo'):
                utils.nondeterministic('F.foo')


class TestCachedProperty:

    def test_cached_per_backprop_mode(self):
        calls = []

        class Holder:
            @cache.cached_property
            def x(self):
                calls.append(chainer_core.config.enable_backprop)
                return numpy.ones(1)

        h = Holder()
        first = h.x
        assert h.x is first
        with chainer_core.no_backprop_mode():
            second = h.x
            assert h.x is second
        assert second is not first
        assert calls == [True, False]
        assert isinstance(Holder.x, cache.cached_property)


class TestFinal:

    def test_override_raises(self):
        class Base(utils.enable_final()):
            @utils.final
            def f(self):
                return 1

            def g(self):
                return 2

        with pytest.raises(TypeError, match="'f' is final"):
            class Derived(Base):
                def f(self):
                    return 3

        class Fine(Base):
            def g(self):
                return 4

        assert Fine().f() == 1 and Fine().g() == 4

    def test_warning_action(self):
        class Base(utils.enable_final()):
            @utils.final(action=UserWarning)
            def f(self):
                pass

        with pytest.warns(UserWarning, match="Overriding method 'f'"):
            class Derived(Base):
                def f(self):
                    pass

    def test_meta_base(self):
        class Meta(type):
            pass

        class Base(utils.enable_final(meta_base=Meta)):
            pass

        assert isinstance(Base, Meta)
        assert utils.enable_final is meta.enable_final

    def test_bad_use(self):
        with pytest.raises(TypeError, match='final'):
            utils.final(1, 2)


class TestOversample:

    def test_crops(self):
        imgs = numpy.arange(2 * 5 * 6, dtype=numpy.float32).reshape(
            2, 1, 5, 6)
        out = imgproc.oversample(imgs, (3, 4))
        assert out.shape == (20, 1, 3, 4) and out.dtype == numpy.float32
        img = imgs[0, 0]
        expected = [img[:3, :4], img[:3, 2:], img[2:, :4], img[2:, 2:],
                    img[1:4, 1:5]]
        expected += [e[:, ::-1] for e in expected]
        for i, e in enumerate(expected):
            numpy.testing.assert_array_equal(out[i, 0], e)
        numpy.testing.assert_array_equal(out[14, 0], imgs[1, 0, 1:4, 1:5])

    def test_centre_rounds_down(self):
        img = numpy.arange(42, dtype=numpy.float32).reshape(1, 1, 6, 7)
        # Chainer 7.8.1 gives this centre crop.
        numpy.testing.assert_array_equal(
            imgproc.oversample(img, (3, 4))[4, 0],
            [[8, 9, 10, 11], [15, 16, 17, 18], [22, 23, 24, 25]])

    def test_bad_crop(self):
        with pytest.raises(ValueError, match='crop_dims'):
            imgproc.oversample(numpy.zeros((1, 1, 4, 4)), (2, 2, 1))
