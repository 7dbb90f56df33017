import numpy
import pytest

import chainer_core as chainer

from chainer_cv.links.model.faster_rcnn import AnchorTargetCreator
from chainer_cv.links.model.faster_rcnn import bbox2loc
from chainer_cv.links.model.faster_rcnn import generate_anchor_base
from chainer_cv.links.model.faster_rcnn import loc2bbox
from chainer_cv.links.model.faster_rcnn import ProposalCreator
from chainer_cv.links.model.faster_rcnn import ProposalTargetCreator


def _random_bbox(n, size=100, rng=None):
    rng = rng or numpy.random.RandomState(0)
    top_left = rng.uniform(0, size / 2, (n, 2))
    extent = rng.uniform(1, size / 2, (n, 2))
    return numpy.hstack((top_left, top_left + extent)).astype(numpy.float32)


def test_bbox2loc_hand_case():
    src = numpy.array([[0, 0, 10, 20]], numpy.float32)
    dst = numpy.array([[5, 10, 25, 30]], numpy.float32)
    # Centres (5, 10) -> (15, 20); sizes (10, 20) -> (20, 20).
    expected = [[1., 0.5, numpy.log(2.), 0.]]
    numpy.testing.assert_allclose(bbox2loc(src, dst), expected, rtol=1e-6)


def test_loc2bbox_inverts_bbox2loc():
    rng = numpy.random.RandomState(1)
    src = _random_bbox(50, rng=rng)
    dst = _random_bbox(50, rng=rng)
    loc = bbox2loc(src, dst)
    numpy.testing.assert_allclose(loc2bbox(src, loc), dst, atol=1e-4)
    loc = rng.uniform(-1, 1, (50, 4)).astype(numpy.float32)
    numpy.testing.assert_allclose(bbox2loc(src, loc2bbox(src, loc)), loc,
                                  atol=1e-4)


def test_loc2bbox_several_offsets_per_row_and_empty():
    src = numpy.array([[0, 0, 10, 10]], numpy.float32)
    loc = numpy.zeros((1, 8), numpy.float32)
    loc[0, 4] = 1.
    numpy.testing.assert_allclose(
        loc2bbox(src, loc), [[0, 0, 10, 10, 10, 0, 20, 10]])
    out = loc2bbox(numpy.zeros((0, 4), numpy.float32),
                   numpy.zeros((0, 4), numpy.float32))
    assert out.shape == (0, 4) and out.dtype == numpy.float32


def test_generate_anchor_base():
    anchor = generate_anchor_base(base_size=16, ratios=(0.5, 1, 2),
                                  anchor_scales=(8, 16, 32))
    assert anchor.shape == (9, 4) and anchor.dtype == numpy.float32
    height = anchor[:, 2] - anchor[:, 0]
    width = anchor[:, 3] - anchor[:, 1]
    numpy.testing.assert_allclose((anchor[:, :2] + anchor[:, 2:]) / 2, 8.)
    numpy.testing.assert_allclose(height / width,
                                  numpy.repeat([0.5, 1, 2], 3), rtol=1e-5)
    numpy.testing.assert_allclose(numpy.sqrt(height * width),
                                  numpy.tile([128, 256, 512], 3), rtol=1e-5)
    numpy.testing.assert_allclose(anchor[4], [-120, -120, 136, 136])


class TestAnchorTargetCreator:

    def test_thresholds(self):
        anchor = numpy.array([
            [0, 0, 10, 10],     # IoU 1 with the box: positive
            [0, 0, 10, 8],      # 0.8 >= 0.7: positive
            [0, 0, 10, 5],      # 0.5: ignored
            [0, 0, 10, 2],      # 0.2 < 0.3: negative
            [20, 20, 30, 30],   # 0: negative
            [-5, 0, 5, 10],     # outside the image: ignored
        ], numpy.float32)
        bbox = numpy.array([[0, 0, 10, 10]], numpy.float32)
        loc, label = AnchorTargetCreator()(bbox, anchor, (40, 40))
        numpy.testing.assert_array_equal(label, [1, 1, -1, 0, 0, -1])
        assert label.dtype == numpy.int32 and loc.dtype == numpy.float32
        numpy.testing.assert_allclose(loc[0], 0, atol=1e-6)
        numpy.testing.assert_allclose(loc[1], [0, 0.125, 0, numpy.log(1.25)],
                                      rtol=1e-5)
        numpy.testing.assert_array_equal(loc[5], 0)

    def test_best_anchor_of_a_box_is_positive(self):
        anchor = numpy.array([[0, 0, 10, 4], [0, 0, 10, 2]], numpy.float32)
        bbox = numpy.array([[0, 0, 10, 10]], numpy.float32)
        _, label = AnchorTargetCreator()(bbox, anchor, (20, 20))
        numpy.testing.assert_array_equal(label, [1, 0])

    def test_sampling_counts(self):
        numpy.random.seed(0)
        anchor = numpy.concatenate(
            (numpy.tile([[0, 0, 10, 10]], (40, 1)),
             numpy.tile([[50, 50, 60, 60]], (300, 1)))).astype(numpy.float32)
        bbox = numpy.array([[0, 0, 10, 10]], numpy.float32)
        creator = AnchorTargetCreator(n_sample=64, pos_ratio=0.25)
        _, label = creator(bbox, anchor, (100, 100))
        assert numpy.sum(label == 1) == 16
        assert numpy.sum(label == 0) == 48
        assert numpy.all(label[40:] != 1)


class TestProposalTargetCreator:

    def test_sampling_and_targets(self):
        numpy.random.seed(0)
        bbox = numpy.array([[0, 0, 20, 20], [50, 50, 80, 80]], numpy.float32)
        label = numpy.array([3, 7], numpy.int32)
        roi = numpy.concatenate((
            numpy.tile([[0, 0, 20, 18]], (30, 1)),      # IoU 0.9: box 0
            numpy.tile([[52, 50, 80, 80]], (30, 1)),    # IoU 0.93: box 1
            numpy.tile([[0, 0, 20, 8]], (100, 1)),      # IoU 0.4: background
        )).astype(numpy.float32)
        creator = ProposalTargetCreator(n_sample=64, pos_ratio=0.25)
        sample_roi, gt_loc, gt_label = creator(roi, bbox, label)
        assert sample_roi.shape == (64, 4) and gt_loc.shape == (64, 4)
        assert gt_label.dtype == numpy.int32
        assert set(gt_label[:16]) <= {4, 8}
        numpy.testing.assert_array_equal(gt_label[16:], 0)
        # The offsets are divided by the normalizing deviation.
        expected = bbox2loc(sample_roi[:16], numpy.where(
            (gt_label[:16] == 4)[:, None], bbox[0], bbox[1])) / \
            numpy.array([0.1, 0.1, 0.2, 0.2], numpy.float32)
        numpy.testing.assert_allclose(gt_loc[:16], expected, rtol=1e-5,
                                      atol=1e-6)

    def test_few_candidates(self):
        bbox = numpy.array([[0, 0, 20, 20]], numpy.float32)
        roi = numpy.array([[0, 0, 20, 8]], numpy.float32)
        sample_roi, _, gt_label = ProposalTargetCreator()(
            roi, bbox, numpy.array([0], numpy.int32))
        # The ground truth itself is the only foreground.
        numpy.testing.assert_array_equal(gt_label, [1, 0])
        numpy.testing.assert_array_equal(sample_roi[0], bbox[0])


class TestProposalCreator:

    def _inputs(self, n=500):
        rng = numpy.random.RandomState(0)
        anchor = _random_bbox(n, size=120, rng=rng) - 10
        loc = rng.normal(0, 0.2, (n, 4)).astype(numpy.float32)
        score = rng.uniform(size=n).astype(numpy.float32)
        return loc, score, anchor

    @pytest.mark.parametrize('train,n_post', [(True, 40), (False, 20)])
    def test_bounds_and_counts(self, train, n_post):
        loc, score, anchor = self._inputs()
        creator = ProposalCreator(n_train_pre_nms=200, n_train_post_nms=40,
                                  n_test_pre_nms=100, n_test_post_nms=20,
                                  min_size=4)
        with chainer.using_config('train', train):
            roi = creator(loc, score, anchor, (90, 110), scale=1.5)
        assert roi.shape == (n_post, 4)
        assert numpy.all(roi >= 0)
        assert numpy.all(roi[:, 0::2] <= 90) and numpy.all(roi[:, 1::2] <= 110)
        assert numpy.all(roi[:, 2:] - roi[:, :2] >= 4 * 1.5)

    def test_first_is_best_and_suppressed(self):
        anchor = numpy.array([[0, 0, 10, 10], [0, 0, 10, 9.5],
                              [30, 30, 40, 40]], numpy.float32)
        loc = numpy.zeros((3, 4), numpy.float32)
        score = numpy.array([0.5, 0.9, 0.1], numpy.float32)
        with chainer.using_config('train', False):
            roi = ProposalCreator(min_size=1)(loc, score, anchor, (50, 50))
        numpy.testing.assert_allclose(roi, anchor[[1, 2]])
