"""vis_semantic_segmentation: the colours of the labels and the handles of
the legend."""
import numpy
import pytest

from chainer_cv.visualizations import vis_semantic_segmentation

LABEL = numpy.array([[0, 2, -1], [2, 2, 0]], numpy.int32)
IMG = numpy.zeros((3, 2, 3), numpy.float32)


@pytest.mark.parametrize('label_names, all_in_legend, legend', [
    (None, False, ['0', '2']),
    (['sky', 'road', 'car'], False, ['sky', 'car']),
    (['sky', 'road', 'car'], True, ['sky', 'road', 'car']),
])
class TestVisSemanticSegmentation:

    def test_legend_and_colors(self, label_names, all_in_legend, legend,
                               ax):
        colors = numpy.array([[255, 0, 0], [0, 255, 0], [0, 0, 255]])
        result, handles = vis_semantic_segmentation(
            IMG, LABEL, label_names=label_names, label_colors=colors,
            ignore_label_color=(255, 255, 255), alpha=0.5,
            all_label_names_in_legend=all_in_legend, ax=ax)
        assert result is ax
        assert [h.get_label() for h in handles] == legend
        assert len(ax.images) == 2
        canvas = ax.images[1].get_array()
        numpy.testing.assert_allclose(canvas[0, 0], [1, 0, 0, 0.5])
        numpy.testing.assert_allclose(canvas[0, 1], [0, 0, 1, 0.5])
        numpy.testing.assert_allclose(canvas[0, 2], [1, 1, 1, 0.5])
        numpy.testing.assert_allclose(handles[0].get_facecolor(),
                                      [1, 0, 0, 1])

    def test_bad_input(self, label_names, all_in_legend, legend, ax):
        with pytest.raises(ValueError, match=r'vis_semantic_segmentation: '
                                             r'label must be of the image '
                                             r'size \(2, 3\), got shape '
                                             r'\(3, 2\)'):
            vis_semantic_segmentation(IMG, LABEL.T, label_names, ax=ax)
        with pytest.raises(ValueError, match=r'label holds 2, which has no '
                                             r'name: label_names names '
                                             r'labels 0 to 1'):
            vis_semantic_segmentation(IMG, LABEL, ['sky', 'road'], ax=ax)
        with pytest.raises(ValueError, match=r'label must be an integer '
                                             r'label map \(H, W\), got '
                                             r'float64'):
            vis_semantic_segmentation(IMG, LABEL.astype(float), ax=ax)
        with pytest.raises(ValueError, match=r'label_colors must be RGB '
                                             r'colours of shape \(3, 3\)'):
            vis_semantic_segmentation(IMG, LABEL, label_names,
                                      label_colors=numpy.zeros((2, 3)),
                                      ax=ax)
