"""Shared by the transform tests."""
import numpy

import chainer_cv as chainercv


def random_image(shape=(3, 24, 32), seed=0):
    return numpy.random.RandomState(seed).uniform(
        0, 255, size=shape).astype(numpy.float32)


def random_bbox(size=(24, 32), n=8, seed=0):
    numpy.random.seed(seed)
    return chainercv.utils.generate_random_bbox(n, size, 2, min(size) - 1)


def assert_inside(bbox, size):
    chainercv.utils.assert_is_bbox(bbox.astype(numpy.float32), size)


def pixel_box(size, y, x):
    """The box of the one pixel (y, x) of an image of ``size``, and an image
    with only that pixel set, so a transform can be followed exactly."""
    img = numpy.zeros((1,) + tuple(size), numpy.float32)
    img[0, y, x] = 1
    return img, numpy.array([[y, x, y + 1, x + 1]], numpy.float32)


def box_of_pixels(img):
    return chainercv.utils.mask_to_bbox(img > 0.5)
