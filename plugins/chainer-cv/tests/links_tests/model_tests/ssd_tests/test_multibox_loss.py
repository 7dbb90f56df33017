"""multibox_loss against a direct NumPy computation, on every device."""
import numpy
import pytest

import chainer_core

from chainer_cv.links.model.ssd import multibox_loss


def _case(seed, n_positive_per_image=(2, 1)):
    rng = numpy.random.RandomState(seed)
    B, K, n_class = len(n_positive_per_image), 12, 4
    mb_locs = rng.normal(size=(B, K, 4)).astype(numpy.float32) * 2
    mb_confs = rng.normal(size=(B, K, n_class)).astype(numpy.float32) * 2
    gt_mb_locs = rng.normal(size=(B, K, 4)).astype(numpy.float32)
    gt_mb_labels = numpy.zeros((B, K), numpy.int32)
    for b, n in enumerate(n_positive_per_image):
        index = rng.choice(K, n, replace=False)
        gt_mb_labels[b, index] = rng.randint(1, n_class, n)
    return mb_locs, mb_confs, gt_mb_locs, gt_mb_labels


def _expected(mb_locs, mb_confs, gt_mb_locs, gt_mb_labels, k):
    loc_total = 0.0
    conf_total = 0.0
    n_positive = 0
    for b in range(len(mb_locs)):
        logits = mb_confs[b].astype(numpy.float64)
        log_z = numpy.log(numpy.exp(logits).sum(axis=1))
        cross_entropy = log_z - logits[numpy.arange(len(logits)),
                                       gt_mb_labels[b]]
        positives = [i for i, lb in enumerate(gt_mb_labels[b]) if lb > 0]
        negatives = sorted((i for i, lb in enumerate(gt_mb_labels[b])
                            if lb == 0), key=lambda i: -cross_entropy[i])
        hard = negatives[:k * len(positives)]
        for i in positives:
            d = numpy.abs(mb_locs[b, i].astype(numpy.float64) -
                          gt_mb_locs[b, i])
            loc_total += numpy.where(d < 1, 0.5 * d * d, d - 0.5).sum()
        conf_total += cross_entropy[positives + hard].sum()
        n_positive += len(positives)
    return loc_total / n_positive, conf_total / n_positive


@pytest.mark.parametrize('k', [1, 3])
def test_matches_numpy(device, k):
    inputs = _case(0)
    loc_loss, conf_loss = multibox_loss(
        *(device.send(a) for a in inputs), k)
    expected_loc, expected_conf = _expected(*inputs, k)
    assert loc_loss.shape == () and conf_loss.shape == ()
    numpy.testing.assert_allclose(float(loc_loss.array), expected_loc,
                                  rtol=1e-5)
    numpy.testing.assert_allclose(float(conf_loss.array), expected_conf,
                                  rtol=1e-5)


def test_more_hard_negatives_than_negatives():
    inputs = _case(1, n_positive_per_image=(5, 4))
    loc_loss, conf_loss = multibox_loss(*inputs, 3)
    # All 12 boxes of each image count.
    expected_loc, expected_conf = _expected(*inputs, 3)
    numpy.testing.assert_allclose(float(conf_loss.array), expected_conf,
                                  rtol=1e-5)
    numpy.testing.assert_allclose(float(loc_loss.array), expected_loc,
                                  rtol=1e-5)


def test_no_positive_gives_zeros(device):
    inputs = list(_case(2))
    inputs[3][:] = 0
    loc_loss, conf_loss = multibox_loss(
        *(device.send(a) for a in inputs), 3)
    assert float(loc_loss.array) == 0 and float(conf_loss.array) == 0


def test_gradients(device):
    mb_locs, mb_confs, gt_mb_locs, gt_mb_labels = _case(3)
    locs = chainer_core.Variable(device.send(mb_locs))
    confs = chainer_core.Variable(device.send(mb_confs))
    loc_loss, conf_loss = multibox_loss(
        locs, confs, device.send(gt_mb_locs), device.send(gt_mb_labels), 1)
    (loc_loss + conf_loss).backward()
    grad_locs = chainer_core.backend.CpuDevice().send(locs.grad)
    grad_confs = chainer_core.backend.CpuDevice().send(confs.grad)
    positive = gt_mb_labels > 0
    # Only positives move the offsets; only positives and hard negatives
    # (one per positive here) move the scores.
    assert not grad_locs[~positive].any()
    assert grad_locs[positive].any()
    assert (numpy.abs(grad_confs).sum(axis=2) > 0).sum() == \
        2 * positive.sum()
