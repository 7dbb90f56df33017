"""vis_bbox: one rectangle and one caption per box."""
import numpy
import pytest

from chainer_cv.visualizations import vis_bbox

BBOX = numpy.array([[0, 0, 4, 6], [2, 1, 7, 5], [1, 1, 3, 3]], numpy.float32)
IMG = numpy.zeros((3, 8, 8), numpy.float32)


@pytest.mark.parametrize('label, score, label_names, captions', [
    (None, None, None, []),
    ([0, 1, 1], None, None, ['0', '1', '1']),
    ([0, 1, 1], None, ['cat', 'dog'], ['cat', 'dog', 'dog']),
    # Drawn by increasing score: the most confident box is on top.
    ([0, 1, 1], [0.5, 0.9, 0.2], ['cat', 'dog'],
     ['dog: 0.20', 'cat: 0.50', 'dog: 0.90']),
    (None, [0.5, 0.9, 0.2], None, ['0.20', '0.50', '0.90']),
])
class TestVisBbox:

    def test_rectangles_and_captions(self, label, score, label_names,
                                     captions, ax):
        vis_bbox(IMG, BBOX, label, score, label_names=label_names, ax=ax)
        assert len(ax.patches) == len(BBOX)
        assert [text.get_text() for text in ax.texts] == captions
        assert len(ax.images) == 1

    def test_geometry_and_colors(self, label, score, label_names, captions,
                                 ax):
        colors = numpy.array([[0, 0, 255], [0, 255, 0], [255, 0, 0]])
        vis_bbox(None, BBOX, label, score, label_names=label_names,
                 instance_colors=colors, sort_by_score=False, linewidth=2,
                 alpha=0.5, ax=ax)
        assert len(ax.images) == 0
        for box, color, patch in zip(BBOX, colors, ax.patches):
            # (x, y) of the top left corner, then width and height.
            assert patch.get_xy() == (box[1], box[0])
            assert patch.get_width() == box[3] - box[1]
            assert patch.get_height() == box[2] - box[0]
            numpy.testing.assert_allclose(patch.get_edgecolor(),
                                          list(color / 255) + [0.5])
            assert patch.get_linewidth() == 2

    def test_no_box(self, label, score, label_names, captions, ax):
        vis_bbox(IMG, numpy.zeros((0, 4)), ax=ax)
        assert len(ax.patches) == 0


class TestVisBboxErrors:

    @pytest.mark.parametrize('kwargs, message', [
        ({'bbox': numpy.zeros((3, 5))},
         r'vis_bbox: bbox must be boxes of shape \(R, 4\), got shape '
         r'\(3, 5\)'),
        ({'label': [0, 1]},
         r'vis_bbox: label must have one entry per instance, the shape '
         r'\(3,\), got shape \(2,\)'),
        ({'score': [0.1]},
         r'vis_bbox: score must have .* \(3,\), got shape \(1,\)'),
        ({'label': [0, 1, 2], 'label_names': ['cat', 'dog']},
         r'vis_bbox: label\[2\] is 2, which has no name: label_names names '
         r'labels 0 to 1'),
        ({'instance_colors': numpy.zeros((2, 4))},
         r'vis_bbox: instance_colors must be RGB colours of shape \(N, 3\)'),
    ])
    def test_bad_input(self, kwargs, message, ax):
        kwargs = dict({'img': IMG, 'bbox': BBOX}, **kwargs)
        with pytest.raises(ValueError, match=message):
            vis_bbox(ax=ax, **kwargs)
