"""vis_instance_segmentation: the masks painted in their colours, with a
caption at the top left of each."""
import numpy
import pytest

from chainer_cv.visualizations import vis_instance_segmentation

MASK = numpy.zeros((2, 6, 6), dtype=bool)
MASK[0, 1:4, 2:5] = True
MASK[1, 3:6, 3:6] = True
IMG = numpy.zeros((3, 6, 6), numpy.float32)


@pytest.mark.parametrize('score, sort_by_score, on_top, captions', [
    # The pixel (3, 3) of both masks takes the colour of the one on top.
    (None, True, 1, ['cat', 'dog']),
    ([0.9, 0.1], True, 0, ['dog: 0.10', 'cat: 0.90']),
    ([0.9, 0.1], False, 1, ['cat: 0.90', 'dog: 0.10']),
])
class TestVisInstanceSegmentation:

    def test_masks_and_captions(self, score, sort_by_score, on_top,
                                captions, ax):
        colors = numpy.array([[255, 0, 0], [0, 0, 255]])
        vis_instance_segmentation(
            IMG, MASK, numpy.array([0, 1]), score, label_names=['cat', 'dog'],
            instance_colors=colors, alpha=0.5, sort_by_score=sort_by_score,
            ax=ax)
        assert len(ax.images) == 2
        canvas = ax.images[1].get_array()
        numpy.testing.assert_allclose(canvas[3, 3, :3], colors[on_top] / 255)
        numpy.testing.assert_allclose(canvas[1, 2], [1, 0, 0, 0.5])
        assert canvas[0, 0, 3] == 0
        assert [t.get_text() for t in ax.texts] == captions
        # Each caption sits at the top left of its mask, (x, y).
        corners = {'cat': (2, 1), 'dog': (3, 3)}
        for text in ax.texts:
            assert text.get_position() == \
                corners[text.get_text().split(':')[0]]

    def test_bad_input(self, score, sort_by_score, on_top, captions, ax):
        with pytest.raises(ValueError, match=r'vis_instance_segmentation: '
                                             r'mask must be bool masks of '
                                             r'shape \(R, H, W\), got uint8'):
            vis_instance_segmentation(IMG, MASK.astype(numpy.uint8), ax=ax)
        with pytest.raises(ValueError, match=r'mask must be of the image '
                                             r'size \(6, 6\)'):
            vis_instance_segmentation(IMG, MASK[:, :5], ax=ax)
        with pytest.raises(ValueError, match=r'label\[1\] is 1, which has no '
                                             r'name'):
            vis_instance_segmentation(IMG, MASK, numpy.array([0, 1]), score,
                                      label_names=['cat'], ax=ax)
