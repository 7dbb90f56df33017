"""Writers of the small files the loader tests lay out in tmp_path."""
import os

import numpy
import pytest
from PIL import Image


def _write_image(path, array):
    """Save an (H, W, 3) uint8 array as an image, making its folder."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    Image.fromarray(numpy.asarray(array, dtype=numpy.uint8)).save(path)
    return path


def _write_label(path, array, palette=False):
    """Save an (H, W) array of values in [0, 255] as a gray or palette
    PNG."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    image = Image.fromarray(numpy.asarray(array, dtype=numpy.uint8))
    if palette:
        image.putpalette([v for i in range(256) for v in (i, 255 - i, 0)])
    image.save(path)
    return path


def _write_text(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, 'w') as f:
        f.write(text)
    return path


def _random_rgb(seed, height, width):
    return numpy.random.RandomState(seed).randint(
        0, 256, size=(height, width, 3)).astype(numpy.uint8)


@pytest.fixture
def write_image():
    return _write_image


@pytest.fixture
def write_label():
    return _write_label


@pytest.fixture
def write_text():
    return _write_text


@pytest.fixture
def random_rgb():
    return _random_rgb
