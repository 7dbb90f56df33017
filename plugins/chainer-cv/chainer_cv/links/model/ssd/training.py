"""Training SSD as the paper does: the loss of :func:`multibox_loss` and
the augmentation of ChainerCV's SSD training example."""
import copy

import numpy

import chainer_core as chainer

from chainer_cv import transforms
from chainer_cv.links.model.ssd.multibox_loss import multibox_loss
from chainer_cv.links.model.ssd.transforms import \
    random_crop_with_bbox_constraints
from chainer_cv.links.model.ssd.transforms import random_distort
from chainer_cv.links.model.ssd.transforms import \
    resize_with_random_interpolation


class MultiboxTrainChain(chainer.Chain):
    """An SSD with its loss, for an :class:`~chainer.training.Updater`.

    Called on ``(imgs, gt_mb_locs, gt_mb_labels)`` (batches made by
    :class:`TrainTransform`) it returns ``alpha * loc_loss + conf_loss``
    and reports ``loss``, ``loss/loc`` and ``loss/conf``.

    Args:
        model (SSD): the detector (the child ``model``).
        alpha (float): the weight of the localization loss.
        k (float): hard negatives per positive.
        comm: a ChainerMN communicator, passed to :func:`multibox_loss`.
    """

    def __init__(self, model, alpha=1, k=3, comm=None):
        super().__init__()
        with self.init_scope():
            self.model = model
        self.alpha = alpha
        self.k = k
        self.comm = comm

    def forward(self, imgs, gt_mb_locs, gt_mb_labels):
        mb_locs, mb_confs = self.model(imgs)
        loc_loss, conf_loss = multibox_loss(
            mb_locs, mb_confs, gt_mb_locs, gt_mb_labels, self.k, self.comm)
        loss = loc_loss * self.alpha + conf_loss
        chainer.reporter.report(
            {'loss': loss, 'loss/loc': loc_loss, 'loss/conf': conf_loss},
            self)
        return loss


class TrainTransform:
    """SSD's augmentation of a detection example ``(img, bbox, label)``
    into the inputs of :class:`MultiboxTrainChain`.

    In turn: :func:`random_distort`; with probability one half
    :func:`chainercv.transforms.random_expand` onto the mean colour;
    :func:`random_crop_with_bbox_constraints`, dropping the boxes whose
    centre falls outside; :func:`resize_with_random_interpolation` to
    ``size x size``; a random horizontal flip; the mean subtracted and
    the boxes encoded by ``coder``.

    The first three steps can be turned off: where the test images look
    like the training images (a synthetic data set with unlimited
    examples) they buy little, and the crop's search for a crop meeting
    its constraints costs most of the time of the whole transform.

    Args:
        coder (MultiboxCoder): the coder of the model (copied).
        size (int): the input side of the model.
        mean (numpy.ndarray): the mean of the model, ``(3, 1, 1)``.
        distort (bool): apply :func:`random_distort`.
        max_expand_ratio (float): the ``max_ratio`` of
            :func:`chainercv.transforms.random_expand`; 1 never expands.
        crop (bool): apply :func:`random_crop_with_bbox_constraints`.

    Returns (of a call): ``(img, mb_loc, mb_label)``.
    """

    def __init__(self, coder, size, mean, distort=True, max_expand_ratio=4,
                 crop=True):
        self.coder = copy.copy(coder)
        self.size = size
        self.mean = mean
        self.distort = distort
        self.max_expand_ratio = max_expand_ratio
        self.crop = crop

    def __call__(self, in_data):
        img, bbox, label = in_data

        if self.distort:
            img = random_distort(img)

        if self.max_expand_ratio > 1 and numpy.random.randint(2):
            img, param = transforms.random_expand(
                img, max_ratio=self.max_expand_ratio, fill=self.mean,
                return_param=True)
            bbox = transforms.translate_bbox(
                bbox, y_offset=param['y_offset'], x_offset=param['x_offset'])

        if self.crop:
            img, param = random_crop_with_bbox_constraints(
                img, bbox, return_param=True)
            bbox, param = transforms.crop_bbox(
                bbox, y_slice=param['y_slice'], x_slice=param['x_slice'],
                allow_outside_center=False, return_param=True)
            label = label[param['index']]

        _, H, W = img.shape
        img = resize_with_random_interpolation(img, (self.size, self.size))
        bbox = transforms.resize_bbox(bbox, (H, W), (self.size, self.size))

        img, param = transforms.random_flip(
            img, x_random=True, return_param=True)
        bbox = transforms.flip_bbox(
            bbox, (self.size, self.size), x_flip=param['x_flip'])

        img = (img - self.mean).astype(numpy.float32)
        mb_loc, mb_label = self.coder.encode(bbox, label)
        return img, mb_loc, mb_label
