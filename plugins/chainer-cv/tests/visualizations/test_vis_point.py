"""vis_point: one scatter per instance, of its visible keypoints."""
import numpy
import pytest

from chainer_cv.visualizations import vis_point

POINT = numpy.array([[[1, 2], [3, 4], [5, 6]],
                     [[2, 2], [4, 4], [6, 6]]], numpy.float32)


@pytest.mark.parametrize('img, visible, n_shown', [
    (numpy.zeros((3, 8, 10), numpy.float32), None, [3, 3]),
    (None, numpy.array([[True, False, True], [False] * 3]), [2, 0]),
])
class TestVisPoint:

    def test_points(self, img, visible, n_shown, ax):
        vis_point(img, POINT, visible, ax=ax)
        assert [len(c.get_offsets()) for c in ax.collections] == n_shown
        # Drawn as (x, y).
        shown = numpy.asarray(ax.collections[0].get_offsets())
        numpy.testing.assert_array_equal(shown[0], POINT[0, 0, ::-1])
        if img is not None:
            assert ax.get_xlim() == (-0.5, 9.5)
            assert ax.get_ylim() == (7.5, -0.5)

    def test_bad_input(self, img, visible, n_shown, ax):
        with pytest.raises(ValueError, match=r'vis_point: point must be '
                                             r'keypoints of shape '
                                             r'\(R, K, 2\)'):
            vis_point(img, POINT[0], ax=ax)
        with pytest.raises(ValueError, match=r'vis_point: visible must be '
                                             r'bool of shape \(2, 3\)'):
            vis_point(img, POINT, numpy.ones((2, 3), int), ax=ax)
