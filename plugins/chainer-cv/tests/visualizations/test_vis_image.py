"""vis_image and the optional matplotlib."""
import importlib
import sys

import numpy
import pytest

import chainer_cv
from chainer_cv import visualizations
from chainer_cv.visualizations import vis_image


@pytest.mark.parametrize('img', [
    numpy.random.RandomState(0).uniform(0, 255, (3, 8, 6)).astype('f'),
    numpy.full((1, 8, 6), 300, numpy.float32),
    None,
])
class TestVisImage:

    def test_draws_on_the_axes_given(self, img, ax):
        assert vis_image(img, ax=ax) is ax
        if img is None:
            assert len(ax.images) == 0
        else:
            assert len(ax.images) == 1
            shown = ax.images[0].get_array()
            assert shown.shape[:2] == (8, 6)
            # Values are clipped to [0, 255], not wrapped.
            assert shown.max() <= 255

    def test_creates_axes(self, img):
        ax = vis_image(img)
        assert ax.figure is not None

    def test_bad_image(self, img, ax):
        with pytest.raises(ValueError, match=r'vis_image: img must be a CHW '
                                             r'image with 1 or 3 channels, '
                                             r'got shape \(8, 6, 3\)'):
            vis_image(numpy.zeros((8, 6, 3)), ax=ax)


@pytest.mark.parametrize('name, args', [
    ('vis_image', (None,)),
    ('vis_bbox', (None, numpy.zeros((0, 4)))),
    ('vis_point', (None, numpy.zeros((1, 2, 2)))),
    ('vis_semantic_segmentation', (None, numpy.zeros((2, 2), int))),
    ('vis_instance_segmentation', (None, numpy.zeros((1, 2, 2), bool))),
])
def test_without_matplotlib(name, args, without_matplotlib, monkeypatch):
    # The package imports without matplotlib; a call says how to get it.
    for module in [m for m in sys.modules
                   if m.startswith('chainer_cv.visualizations')]:
        monkeypatch.delitem(sys.modules, module)
    monkeypatch.delattr(chainer_cv, 'visualizations', raising=False)
    package = importlib.import_module('chainer_cv.visualizations')
    with pytest.raises(ImportError, match=r'{} needs matplotlib.*pip '
                                          r'install chainer-core-cv\[plot\]'
                                          .format(name)):
        getattr(package, name)(*args)


def test_voc_colormap():
    numpy.testing.assert_array_equal(
        visualizations.voc_colormap([0, 1, 2, 3, 15, 255]),
        [[0, 0, 0], [128, 0, 0], [0, 128, 0], [128, 128, 0],
         [192, 128, 128], [224, 224, 192]])
