"""MultiboxCoder: the layout of the default boxes, matching, and decoding
what was encoded."""
import numpy
import pytest

from chainer_cv.links.model.ssd import MultiboxCoder

_SSD300 = {'grids': (38, 19, 10, 5, 3, 1),
           'aspect_ratios': ((2,), (2, 3), (2, 3), (2, 3), (2,), (2,)),
           'steps': (8, 16, 32, 64, 100, 300),
           'sizes': (30, 60, 111, 162, 213, 264, 315),
           'variance': (0.1, 0.2)}


def _small_coder():
    return MultiboxCoder(grids=(4, 2), aspect_ratios=((2,), (2, 3)),
                         steps=(8, 16), sizes=(10, 20, 30),
                         variance=(0.1, 0.2))


def test_ssd300_has_8732_default_boxes():
    assert MultiboxCoder(**_SSD300).default_bbox.shape == (8732, 4)


def test_default_box_layout():
    bbox = _small_coder().default_bbox
    assert len(bbox) == 4 * 4 * 4 + 2 * 2 * 6
    r2 = numpy.sqrt(2)
    side = numpy.sqrt(10 * 20)
    # The first position of the first map: the two squares, then ratio 2
    # and its transpose, centred on (4, 4).
    for box, (h, w) in zip(bbox[:4], ((10, 10), (side, side),
                                      (10 / r2, 10 * r2),
                                      (10 * r2, 10 / r2))):
        numpy.testing.assert_allclose(
            box, (4 - h / 2, 4 - w / 2, 4 + h / 2, 4 + w / 2), rtol=1e-6)
    # Positions run row-major: the second one is one step to the right.
    numpy.testing.assert_allclose(bbox[4], bbox[0] + (0, 8, 0, 8))
    numpy.testing.assert_allclose(bbox[16], bbox[0] + (8, 0, 8, 0))


@pytest.mark.parametrize('kwargs', [
    {'grids': (4,)}, {'steps': (8,)}, {'sizes': (10, 20)}])
def test_lengths_must_agree(kwargs):
    args = dict(_SSD300, **kwargs)
    with pytest.raises(ValueError):
        MultiboxCoder(**args)


def test_encode_a_default_box_gives_zero_offsets():
    coder = _small_coder()
    target = coder.default_bbox[5]
    mb_loc, mb_label = coder.encode(target[numpy.newaxis],
                                    numpy.array([2], numpy.int32))
    assert mb_label[5] == 3
    numpy.testing.assert_allclose(mb_loc[5], 0, atol=1e-5)
    assert mb_loc.dtype == numpy.float32 and mb_label.dtype == numpy.int32


def test_encode_without_boxes():
    mb_loc, mb_label = _small_coder().encode(
        numpy.zeros((0, 4), numpy.float32), numpy.zeros((0,), numpy.int32))
    assert mb_loc.shape == (88, 4) and not mb_loc.any()
    assert mb_label.shape == (88,) and not mb_label.any()


def test_every_box_gets_a_default_box():
    coder = MultiboxCoder(**_SSD300)
    # A box too small to reach IoU 0.5 with any default box.
    bbox = numpy.array([[10, 10, 14, 13], [100, 100, 250, 280]],
                       numpy.float32)
    _, mb_label = coder.encode(bbox, numpy.array([0, 1], numpy.int32))
    assert (mb_label == 1).sum() == 1
    assert (mb_label == 2).sum() > 1


def _random_bbox(rng, n, size):
    top_left = rng.uniform(0, size * 0.6, (n, 2))
    extent = rng.uniform(size * 0.1, size * 0.4, (n, 2))
    return numpy.hstack((top_left, top_left + extent)).astype(numpy.float32)


@pytest.mark.parametrize('seed', range(3))
def test_encode_decode_round_trip(seed):
    rng = numpy.random.RandomState(seed)
    coder = MultiboxCoder(**_SSD300)
    bbox = _random_bbox(rng, 4, 300)
    label = rng.randint(0, 5, 4).astype(numpy.int32)
    mb_loc, mb_label = coder.encode(bbox, label)

    # Certain scores of the encoded labels: every positive default box
    # decodes to its ground truth, duplicates suppressed by NMS.
    mb_conf = numpy.full((len(mb_label), 6), -20, numpy.float32)
    mb_conf[numpy.arange(len(mb_label)), mb_label] = 20
    out_bbox, out_label, out_score = coder.decode(
        mb_loc, mb_conf, nms_thresh=0.99, score_thresh=0.5)

    order = numpy.lexsort((out_bbox[:, 0], out_label))
    expected = numpy.lexsort((bbox[:, 0], label))
    numpy.testing.assert_allclose(out_bbox[order], bbox[expected],
                                  atol=1e-3)
    numpy.testing.assert_array_equal(out_label[order], label[expected])
    numpy.testing.assert_allclose(out_score, 1, rtol=1e-6)


def test_decode_thresholds():
    coder = _small_coder()
    mb_loc = numpy.zeros((88, 4), numpy.float32)
    mb_conf = numpy.zeros((88, 3), numpy.float32)
    # Two overlapping default boxes of class 1 (the squares of the first
    # position) and one of class 0 far away.
    mb_conf[0, 2] = 5
    mb_conf[1, 2] = 4
    mb_conf[60, 1] = 5
    bbox, label, score = coder.decode(mb_loc, mb_conf, 0.45, 0.6)
    numpy.testing.assert_array_equal(label, [0, 1])
    numpy.testing.assert_allclose(bbox, coder.default_bbox[[60, 0]],
                                  rtol=1e-6)
    expected = numpy.exp(5) / (numpy.exp(5) + 2)
    numpy.testing.assert_allclose(score, [expected, expected], rtol=1e-6)
    bbox, label, _ = coder.decode(mb_loc, mb_conf, 0.45, 0.99)
    assert bbox.shape == (0, 4) and label.shape == (0,)
