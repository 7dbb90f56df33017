import numpy

import chainer_core as chainer
from chainer_core.backend import CpuDevice
import chainer_core.functions as F


def _hard_negative(loss, positive, k):
    """The negatives of largest loss, ``k`` per positive of each image."""
    # Positives sort after every negative: their key is 0, a negative's
    # is minus its (non-negative) loss.
    key = numpy.where(positive, 0, -loss)
    rank = key.argsort(axis=1, kind='stable').argsort(axis=1)
    return rank < (positive.sum(axis=1) * k)[:, numpy.newaxis]


def multibox_loss(mb_locs, mb_confs, gt_mb_locs, gt_mb_labels, k, comm=None):
    """The localization and confidence losses of SSD.

    The localization loss is the smooth L1 (Huber, delta 1) loss of the
    positive default boxes (label > 0). The confidence loss is the
    softmax cross entropy of the positives and of the hard negatives:
    in each image the ``k`` times as many background boxes as positives
    that have the largest cross entropy. Both are divided by the number
    of positives of the batch (of all processes with ``comm``); with no
    positive both are zero.

    Args:
        mb_locs (chainer.Variable or array): ``(B, K, 4)`` predicted
            offsets.
        mb_confs (chainer.Variable or array): ``(B, K, n_class)`` predicted
            class scores.
        gt_mb_locs (chainer.Variable or array): ``(B, K, 4)`` target
            offsets.
        gt_mb_labels (chainer.Variable or array): ``(B, K)`` target labels,
            0 for the background.
        k (float): hard negatives per positive.
        comm: a ChainerMN communicator, to count the positives of every
            process.

    Returns:
        tuple of two chainer.Variable: ``loc_loss`` and ``conf_loss``.
    """
    mb_locs = chainer.as_variable(mb_locs)
    mb_confs = chainer.as_variable(mb_confs)
    gt_mb_locs = chainer.as_variable(gt_mb_locs)
    gt_mb_labels = chainer.as_variable(gt_mb_labels)
    device = mb_confs.device

    labels = CpuDevice().send(gt_mb_labels.array)
    positive = labels > 0
    n_positive = int(positive.sum())
    if comm is not None:
        n_positive = comm.allreduce_obj(n_positive)
    if n_positive == 0:
        zero = chainer.Variable(device.send(
            numpy.zeros((), dtype=mb_confs.dtype)))
        return zero, zero

    mask = device.send(positive.astype(mb_locs.dtype))
    loc_loss = F.huber_loss(mb_locs, gt_mb_locs, 1, reduce='no')
    loc_loss = F.sum(F.sum(loc_loss, axis=-1) * mask) / n_positive

    n_class = mb_confs.shape[-1]
    conf_loss = F.softmax_cross_entropy(
        F.reshape(mb_confs, (-1, n_class)),
        F.reshape(gt_mb_labels, (-1,)), reduce='no')
    conf_loss = F.reshape(conf_loss, labels.shape)
    hard_negative = _hard_negative(
        CpuDevice().send(conf_loss.array), positive, k)
    selected = device.send(
        numpy.logical_or(positive, hard_negative).astype(conf_loss.dtype))
    conf_loss = F.sum(conf_loss * selected) / n_positive
    return loc_loss, conf_loss
