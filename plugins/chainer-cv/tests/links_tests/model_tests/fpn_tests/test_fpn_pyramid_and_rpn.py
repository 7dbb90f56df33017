import numpy
import pytest

import chainer_core
from chainer_core import initializers

from chainer_cv.links import Conv2DActiv
from chainer_cv.links import PickableSequentialChain
from chainer_cv.links.model.fpn import FPN
from chainer_cv.links.model.fpn import RPN
from chainer_cv.links.model.fpn import rpn_loss

_SCALES = (1 / 4, 1 / 8, 1 / 16, 1 / 32, 1 / 64)


class TinyBase(PickableSequentialChain):
    """Four stages of strides 4, 8, 16 and 32, with few channels."""

    mean = numpy.zeros((3, 1, 1), numpy.float32)

    def __init__(self):
        super().__init__()
        init = initializers.HeNormal()
        with self.init_scope():
            self.res2 = Conv2DActiv(3, 8, 3, 4, 1, initialW=init)
            self.res3 = Conv2DActiv(8, 16, 3, 2, 1, initialW=init)
            self.res4 = Conv2DActiv(16, 16, 3, 2, 1, initialW=init)
            self.res5 = Conv2DActiv(16, 32, 3, 2, 1, initialW=init)
        self.pick = ('res2', 'res3', 'res4', 'res5')


def test_fpn_levels_have_the_strides_and_256_channels(device):
    fpn = FPN(TinyBase(), 4, _SCALES)
    fpn.to_device(device)
    x = fpn.device.send(numpy.random.RandomState(0).uniform(
        -1, 1, (2, 3, 128, 64)).astype(numpy.float32))
    hs = fpn(x)
    assert len(hs) == 5
    for h, scale in zip(hs, _SCALES):
        assert h.shape == (2, 256, int(128 * scale), int(64 * scale))
    # The extra level subsamples the coarsest one.
    numpy.testing.assert_array_equal(
        chainer_core.backend.CpuDevice().send(hs[4].array),
        chainer_core.backend.CpuDevice().send(hs[3].array[:, :, ::2, ::2]))
    assert fpn.mean is fpn.base.mean


def test_fpn_parameter_names():
    fpn = FPN(TinyBase(), 4, _SCALES)
    names = {name for name, _ in fpn.namedparams()}
    for i in range(4):
        assert {'/inner/{}/W'.format(i), '/inner/{}/b'.format(i),
                '/outer/{}/W'.format(i), '/outer/{}/b'.format(i)} <= names
    assert fpn.outer[0].W.shape == (256, 256, 3, 3)


def test_fpn_top_down_path_reaches_the_finest_level():
    # A change in the coarsest backbone map alone changes every level.
    fpn = FPN(TinyBase(), 4, _SCALES)
    base = fpn.base
    x = numpy.random.RandomState(0).uniform(
        0, 1, (1, 3, 64, 64)).astype(numpy.float32)
    before = [h.array.copy() for h in fpn(x)]
    base.res5.conv.b.array[:] += 1
    after = [h.array for h in fpn(x)]
    for a, b in zip(before, after):
        assert not numpy.allclose(a, b)


def test_anchors_sizes_ratios_and_centres():
    rpn = RPN(_SCALES)
    sizes = [(4, 6), (2, 3), (1, 2), (1, 1), (1, 1)]
    anchors = rpn.anchors(sizes)
    for l, ((H, W), anchor) in enumerate(zip(sizes, anchors)):
        assert anchor.shape == (H * W * 3, 4)
        assert anchor.dtype == numpy.float32
        hw = anchor[:, 2:] - anchor[:, :2]
        ratio = hw[:, 0] / hw[:, 1]
        numpy.testing.assert_allclose(ratio[:3], (0.5, 1, 2), rtol=0.2)
        # The square anchor's side is 32 * 2^l.
        numpy.testing.assert_allclose(hw[1], (32 * 2 ** l,) * 2)
        centre = (anchor[:, :2] + anchor[:, 2:]) / 2
        stride = 2 ** (l + 2)
        numpy.testing.assert_allclose(centre[0], (stride / 2, stride / 2))
        if W > 1:
            # Cells run along a row first, ratios fastest.
            numpy.testing.assert_allclose(centre[3],
                                          (stride / 2, stride * 1.5))
    # Detectron's rounding at stride 4: 6x3 and 3x6 boxes, times 8.
    numpy.testing.assert_allclose(anchors[0][0], (-10, -22, 14, 26))


def test_rpn_outputs_and_proposals_stay_in_the_input(device):
    rpn = RPN(_SCALES)
    rpn.to_device(device)
    rng = numpy.random.RandomState(0)
    sizes = [(16, 12), (8, 6), (4, 3), (2, 2), (1, 1)]
    hs = [rpn.device.send(rng.uniform(-1, 1, (2, 256, H, W))
                          .astype(numpy.float32)) for H, W in sizes]
    locs, confs = rpn(hs)
    for loc, conf, (H, W) in zip(locs, confs, sizes):
        assert loc.shape == (2, H * W * 3, 4)
        assert conf.shape == (2, H * W * 3)
    anchors = rpn.anchors(sizes)
    rpn.test_nms_limit_post = 20
    with chainer_core.using_config('train', False):
        rois, roi_indices = rpn.decode(locs, confs, anchors,
                                       (2, 3, 64, 48))
    rois = chainer_core.backend.CpuDevice().send(rois)
    roi_indices = chainer_core.backend.CpuDevice().send(roi_indices)
    assert rois.dtype == numpy.float32 and roi_indices.dtype == numpy.int32
    assert rois.shape == (len(roi_indices), 4)
    for i in range(2):
        assert 0 < numpy.sum(roi_indices == i) <= 20
    assert numpy.all(rois >= 0)
    assert numpy.all(rois[:, 0::2] <= 64) and numpy.all(rois[:, 1::2] <= 48)
    assert numpy.all(rois[:, 2:] > rois[:, :2])


def test_rpn_loss_is_finite_and_sees_the_boxes(device):
    rpn = RPN(_SCALES)
    rpn.to_device(device)
    rng = numpy.random.RandomState(0)
    sizes = [(16, 16), (8, 8), (4, 4), (2, 2), (1, 1)]
    hs = [rpn.device.send(rng.uniform(-1, 1, (2, 256, H, W))
                          .astype(numpy.float32)) for H, W in sizes]
    locs, confs = rpn(hs)
    anchors = rpn.anchors(sizes)
    bboxes = [numpy.array([[10, 10, 40, 42]], numpy.float32),
              numpy.zeros((0, 4), numpy.float32)]
    numpy.random.seed(0)
    loc_loss, conf_loss = rpn_loss(locs, confs, anchors,
                                   [(64, 64), (50, 60)], bboxes)
    assert loc_loss.shape == () and conf_loss.shape == ()
    assert numpy.isfinite(float(loc_loss.array)) and float(
        loc_loss.array) > 0
    # Logits near 0: the cross entropy of each anchor is about log 2.
    assert float(conf_loss.array) == pytest.approx(numpy.log(2), rel=0.3)
    conf_loss.backward()
    assert rpn.conf.W.grad is not None
