import numpy
import pytest

from chainer_cv import transforms

from ._helpers import random_image


class TestFlip:

    @pytest.mark.parametrize('y_flip', [False, True])
    @pytest.mark.parametrize('x_flip', [False, True])
    @pytest.mark.parametrize('copy', [False, True])
    def test_flip_twice_is_identity(self, y_flip, x_flip, copy):
        img = random_image()
        out = transforms.flip(img, y_flip, x_flip, copy=copy)
        expected = img
        if y_flip:
            expected = expected[:, ::-1]
        if x_flip:
            expected = expected[:, :, ::-1]
        numpy.testing.assert_array_equal(out, expected)
        numpy.testing.assert_array_equal(
            transforms.flip(out, y_flip, x_flip), img)
        assert numpy.shares_memory(out, img) == (not copy)

    def test_masks(self):
        mask = numpy.zeros((5, 4, 3), bool)
        mask[:, 0, 0] = True
        assert transforms.flip(mask, x_flip=True)[:, 0, 2].all()


class TestRandomFlip:

    @pytest.mark.parametrize('y_random', [False, True])
    @pytest.mark.parametrize('x_random', [False, True])
    def test_param_reproduces(self, y_random, x_random):
        img = random_image()
        seen = set()
        for _ in range(30):
            out, param = transforms.random_flip(img, y_random, x_random,
                                                return_param=True)
            assert set(param) == {'y_flip', 'x_flip'}
            assert param['y_flip'] <= y_random
            assert param['x_flip'] <= x_random
            numpy.testing.assert_array_equal(
                out, transforms.flip(img, **param))
            seen.add((param['y_flip'], param['x_flip']))
        assert len(seen) == 2 ** (y_random + x_random)

    def test_without_param(self):
        assert transforms.random_flip(random_image(), x_random=True).shape \
            == (3, 24, 32)
