import numpy
import pytest

import chainer_core
from chainer_core import initializers
from chainer_core import optimizers

from chainer_cv.links import Conv2DActiv
from chainer_cv.links import PickableSequentialChain
from chainer_cv.links.model.fpn import bbox_head_loss_post
from chainer_cv.links.model.fpn import bbox_head_loss_pre
from chainer_cv.links.model.fpn import BboxHead
from chainer_cv.links.model.fpn import FasterRCNN
from chainer_cv.links.model.fpn import FPN
from chainer_cv.links.model.fpn import mask_head_loss_post
from chainer_cv.links.model.fpn import mask_head_loss_pre
from chainer_cv.links.model.fpn import mask_to_segm
from chainer_cv.links.model.fpn import MaskHead
from chainer_cv.links.model.fpn import RPN
from chainer_cv.links.model.fpn import rpn_loss
from chainer_cv.links.model.fpn import segm_to_mask

_SCALES = (1 / 4, 1 / 8, 1 / 16, 1 / 32, 1 / 64)
_host = chainer_core.backend.CpuDevice().send


class _TinyBase(PickableSequentialChain):
    # Strides 4 to 32 with few channels: the heads train quickly on it.
    mean = numpy.full((3, 1, 1), 128, numpy.float32)

    def __init__(self):
        super().__init__()
        init = initializers.HeNormal()
        with self.init_scope():
            # Inputs in [-1, 1] keep the untrained heads' logits small.
            self.normalize = _normalize
            self.res2 = Conv2DActiv(3, 8, 3, 4, 1, initialW=init)
            self.res3 = Conv2DActiv(8, 16, 3, 2, 1, initialW=init)
            self.res4 = Conv2DActiv(16, 16, 3, 2, 1, initialW=init)
            self.res5 = Conv2DActiv(16, 32, 3, 2, 1, initialW=init)
        self.pick = ('res2', 'res3', 'res4', 'res5')


def _normalize(x):
    return x / 128


def _tiny_mask_rcnn(n_fg_class=2):
    extractor = FPN(_TinyBase(), 4, _SCALES)
    return FasterRCNN(
        extractor, RPN(_SCALES), BboxHead(n_fg_class + 1, _SCALES),
        MaskHead(n_fg_class + 1, _SCALES), ['masks', 'labels', 'scores'],
        min_size=64, max_size=96)


def _pyramid(device, n=2, H=64, W=64, seed=0):
    rng = numpy.random.RandomState(seed)
    return [device.send(rng.uniform(-1, 1, (n, 256, int(H * s),
                                            max(int(W * s), 1)))
                        .astype(numpy.float32)) for s in _SCALES]


def test_distribute_by_size():
    head = BboxHead(3, _SCALES)
    rois = numpy.array([[0, 0, 10, 10], [0, 0, 224, 224], [0, 0, 112, 112],
                        [0, 0, 448, 448], [0, 0, 2000, 2000]],
                       numpy.float32)
    roi_indices = numpy.array([0, 1, 0, 1, 0], numpy.int32)
    out_rois, out_indices = head.distribute(rois, roi_indices)
    assert len(out_rois) == len(out_indices) == 5
    # 224 pixels: the 1/16 level; halving a side goes one level finer;
    # nothing goes to the coarsest level.
    assert [len(r) for r in out_rois] == [1, 1, 1, 2, 0]
    numpy.testing.assert_array_equal(out_rois[2], rois[1:2])
    numpy.testing.assert_array_equal(out_indices[3], [1, 0])

    mask_head = MaskHead(3, _SCALES)
    out_rois, _, order = mask_head.distribute(rois, roi_indices)
    numpy.testing.assert_array_equal(numpy.concatenate(out_rois)[order],
                                     rois)


def test_heads_forward_shapes(device):
    bbox_head = BboxHead(4, _SCALES)
    mask_head = MaskHead(4, _SCALES)
    bbox_head.to_device(device)
    mask_head.to_device(device)
    hs = _pyramid(bbox_head.device)
    rois = numpy.array([[4, 4, 20, 30], [0, 0, 64, 64], [10, 5, 12, 9]],
                       numpy.float32)
    roi_indices = numpy.array([0, 1, 1], numpy.int32)
    send = bbox_head.device.send
    rois, roi_indices = bbox_head.distribute(send(rois), send(roi_indices))
    locs, confs = bbox_head(hs, rois, roi_indices)
    assert locs.shape == (3, 4, 4) and confs.shape == (3, 4)
    segms = mask_head(hs, rois, roi_indices)
    assert segms.shape == (3, 4, 28, 28)
    empty = [send(numpy.zeros((0, 4), numpy.float32))] * 5
    empty_indices = [send(numpy.zeros((0,), numpy.int32))] * 5
    assert bbox_head(hs, empty, empty_indices)[0].shape == (0, 4, 4)
    assert mask_head(hs, empty, empty_indices).shape == (0, 4, 28, 28)


def test_bbox_head_decode_undoes_the_targets():
    head = BboxHead(3, _SCALES)
    rois = [numpy.array([[10, 10, 30, 40]], numpy.float32)]
    rois += [numpy.zeros((0, 4), numpy.float32)] * 4
    roi_indices = [numpy.array([0], numpy.int32)]
    roi_indices += [numpy.zeros((0,), numpy.int32)] * 4
    gt = numpy.array([[12, 8, 28, 46]], numpy.float32)
    numpy.random.seed(0)
    _, _, gt_locs, gt_labels = bbox_head_loss_pre(
        rois, roi_indices, head.std, [gt], [numpy.array([1], numpy.int32)])
    assert gt_labels[0].tolist() == [2]
    locs = numpy.zeros((1, 3, 4), numpy.float32)
    locs[0, 2] = gt_locs[0][0]
    confs = numpy.array([[0, 0, 10]], numpy.float32)
    bboxes, labels, scores = head.decode(
        rois, roi_indices, chainer_core.Variable(locs),
        chainer_core.Variable(confs), [2.], [(100, 100)], 0.5, 0.5)
    # The boxes come back in the unscaled image.
    numpy.testing.assert_allclose(bboxes[0], gt / 2, rtol=1e-5)
    assert labels[0].tolist() == [1]
    assert scores[0][0] > 0.99


def test_segm_to_mask_and_back():
    mask = numpy.zeros((1, 60, 70), bool)
    mask[0, 10:40, 20:50] = True
    bbox = numpy.array([[10, 20, 40, 50]], numpy.float32)
    segm = mask_to_segm(mask, bbox, 28)
    assert segm.shape == (1, 28, 28) and segm.dtype == numpy.float32
    # The box fills the segm but its one-cell margin.
    assert segm[0, 1:-1, 1:-1].all()
    back = segm_to_mask(segm, bbox, (60, 70))
    assert back.shape == (1, 60, 70) and back.dtype == bool
    assert numpy.logical_xor(back, mask).sum() <= 0.1 * mask.sum()
    # Boxes over the edge paste what lies inside the image.
    edge = segm_to_mask(numpy.ones((1, 28, 28)),
                        numpy.array([[-10, -10, 20, 20]]), (15, 15))
    assert edge.shape == (1, 15, 15) and edge.all()
    assert segm_to_mask(numpy.zeros((0, 28, 28)), numpy.zeros((0, 4)),
                        (5, 6)).shape == (0, 5, 6)


def test_mask_head_decode_picks_the_label():
    head = MaskHead(3, _SCALES)
    segm = numpy.zeros((1, 3, 28, 28), numpy.float32)
    segm[0, 2] = 1
    masks = head.decode([segm, segm[:0]],
                        [numpy.array([[0, 0, 10, 10]], numpy.float32),
                         numpy.zeros((0, 4), numpy.float32)],
                        [numpy.array([1]), numpy.zeros((0,), numpy.int32)],
                        [(20, 30), (7, 8)])
    assert masks[0].shape == (1, 20, 30) and masks[0][0, 2:8, 2:8].all()
    assert masks[1].shape == (0, 7, 8)


def _batch(rng):
    imgs = rng.uniform(0, 255, (2, 3, 64, 64)).astype(numpy.float32)
    bboxes = [numpy.array([[8, 8, 40, 36], [30, 20, 60, 60]], numpy.float32),
              numpy.array([[16, 4, 48, 40]], numpy.float32)]
    labels = [numpy.array([0, 1], numpy.int32),
              numpy.array([1], numpy.int32)]
    masks = []
    for bbox in bboxes:
        mask = numpy.zeros((len(bbox), 64, 64), bool)
        for m, (y0, x0, y1, x1) in zip(mask, bbox.astype(int)):
            m[y0:y1, x0:x1] = True
            # Show the objects in the images.
            imgs[len(masks), :, y0:y1, x0:x1] = 40 + 100 * len(masks)
        masks.append(mask)
    return imgs, bboxes, labels, masks


def _losses(model, x, bboxes, labels, masks):
    device = model.device
    n = len(x)
    sizes = [x.shape[2:]] * n
    hs, rpn_locs, rpn_confs = model.forward(device.send(x))
    anchors = model.rpn.anchors(h.shape[2:] for h in hs)
    rpn_loc_loss, rpn_conf_loss = rpn_loss(rpn_locs, rpn_confs, anchors,
                                           sizes, bboxes)
    rois, roi_indices = model.rpn.decode(rpn_locs, rpn_confs, anchors,
                                         x.shape)
    # The ground-truth boxes join the proposals.
    rois = numpy.concatenate([_host(rois)] + bboxes)
    roi_indices = numpy.concatenate(
        [_host(roi_indices)] +
        [numpy.full((len(b),), i, numpy.int32) for i, b in enumerate(bboxes)])
    rois, roi_indices = model.bbox_head.distribute(
        device.send(rois), device.send(roi_indices))
    rois, roi_indices, gt_locs, gt_labels = bbox_head_loss_pre(
        rois, roi_indices, model.bbox_head.std, bboxes, labels)
    locs, confs = model.bbox_head(hs, rois, roi_indices)
    loc_loss, conf_loss = bbox_head_loss_post(
        locs, confs, roi_indices, gt_locs, gt_labels, n)
    mask_rois, mask_indices, gt_segms, gt_mask_labels = mask_head_loss_pre(
        rois, roi_indices, masks, bboxes, gt_labels,
        model.mask_head.segm_size)
    segms = model.mask_head(hs, mask_rois, mask_indices)
    mask_loss = mask_head_loss_post(segms, mask_indices, gt_segms,
                                    gt_mask_labels, n)
    return (rpn_loc_loss, rpn_conf_loss, loc_loss, conf_loss, mask_loss,
            sum(len(_host(r)) for r in mask_rois))


def test_loss_pre_functions_sample_and_label():
    rois = [numpy.array([[8, 8, 40, 36], [0, 0, 10, 10]], numpy.float32),
            numpy.array([[16, 4, 48, 40], [30, 20, 60, 60]], numpy.float32)]
    roi_indices = [numpy.array([0, 0], numpy.int32),
                   numpy.array([1, 0], numpy.int32)]
    _, bboxes, labels, masks = _batch(numpy.random.RandomState(0))
    numpy.random.seed(0)
    out_rois, out_indices, gt_locs, gt_labels = bbox_head_loss_pre(
        rois, roi_indices, (0.1, 0.2), bboxes, labels)
    assert [len(r) for r in out_rois] == [2, 2]
    assert gt_labels[0].tolist() == [1, 0]
    assert gt_labels[1].tolist() == [2, 2]
    numpy.testing.assert_allclose(gt_locs[0][0], 0, atol=1e-6)
    mask_rois, mask_indices, gt_segms, gt_mask_labels = mask_head_loss_pre(
        out_rois, out_indices, masks, bboxes, gt_labels, 28)
    assert [len(r) for r in mask_rois] == [1, 2]
    assert gt_mask_labels[1].tolist() == [2, 2]
    assert gt_segms[0].shape == (1, 28, 28)
    assert gt_segms[0].dtype == numpy.float32
    assert gt_segms[0][0, 1:-1, 1:-1].all()


def test_losses_are_finite_and_a_few_steps_lower_them(device):
    numpy.random.seed(0)
    model = _tiny_mask_rcnn()
    model.to_device(device)
    # Few proposals keep the step quick.
    model.rpn.train_nms_limit_pre = model.rpn.train_nms_limit_post = 50
    optimizer = optimizers.MomentumSGD(lr=0.005)
    optimizer.setup(model)
    imgs, bboxes, labels, masks = _batch(numpy.random.RandomState(1))
    x = imgs - model.extractor.mean

    def total():
        # The same samples each time, so that the losses compare.
        numpy.random.seed(2)
        losses = _losses(model, x, bboxes, labels, masks)
        for loss in losses[:5]:
            assert numpy.isfinite(float(loss.array))
        assert losses[5] > 0
        return sum(losses[:5])

    first = total()
    for _ in range(3):
        loss = total()
        model.cleargrads()
        loss.backward()
        optimizer.update()
    assert float(total().array) < float(first.array)


def test_predict_with_the_tiny_model_returns_image_sized_masks(device):
    numpy.random.seed(0)
    model = _tiny_mask_rcnn()
    model.to_device(device)
    model.use_preset('evaluate')
    model.score_thresh = 0.
    model.rpn.test_nms_limit_post = 10
    imgs = [numpy.random.RandomState(1).uniform(
        0, 255, (3, H, W)).astype(numpy.float32)
        for H, W in ((101, 77), (64, 129))]
    masks, labels, scores = model.predict(imgs)
    for img, mask, label, score in zip(imgs, masks, labels, scores):
        assert mask.shape == (len(label),) + img.shape[1:]
        assert mask.dtype == bool
        assert len(label) > 0


def test_return_values_are_checked():
    with pytest.raises(ValueError):
        FasterRCNN(FPN(_TinyBase(), 4, _SCALES), RPN(_SCALES),
                   BboxHead(3, _SCALES), None, ['bboxes', 'polygons'])
    with pytest.raises(ValueError):
        FasterRCNN(FPN(_TinyBase(), 4, _SCALES), RPN(_SCALES),
                   BboxHead(3, _SCALES), None, ['masks'])
