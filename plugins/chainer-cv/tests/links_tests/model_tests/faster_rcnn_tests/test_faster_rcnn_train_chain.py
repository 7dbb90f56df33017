import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F
import chainer_core.links as L
from chainer_core import optimizers

from chainer_cv.links.model.faster_rcnn import AnchorTargetCreator
from chainer_cv.links.model.faster_rcnn import FasterRCNN
from chainer_cv.links.model.faster_rcnn import FasterRCNNTrainChain
from chainer_cv.links.model.faster_rcnn import ProposalTargetCreator
from chainer_cv.links.model.faster_rcnn import RegionProposalNetwork
from chainer_cv.links.model.faster_rcnn.faster_rcnn_vgg import \
    _roi_pooling_2d_yx


class _Extractor(chainer.Chain):

    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.conv1 = L.Convolution2D(3, 8, 3, 2, 1)
            self.conv2 = L.Convolution2D(8, 8, 3, 2, 1)

    def forward(self, x):
        return F.relu(self.conv2(F.relu(self.conv1(x))))


class _Head(chainer.Chain):

    def __init__(self, n_class):
        super().__init__()
        self.n_class = n_class
        with self.init_scope():
            self.fc = L.Linear(8 * 3 * 3, 16)
            self.cls_loc = L.Linear(16, n_class * 4)
            self.score = L.Linear(16, n_class)

    def forward(self, x, rois, roi_indices):
        h = F.relu(self.fc(_roi_pooling_2d_yx(x, rois, roi_indices, 3, 3,
                                              0.25)))
        return self.cls_loc(h), self.score(h)


def _tiny_faster_rcnn(n_fg_class=2):
    numpy.random.seed(0)
    rpn = RegionProposalNetwork(
        8, 8, ratios=(0.5, 1, 2), anchor_scales=(0.5, 1), feat_stride=4,
        proposal_creator_params={'n_train_pre_nms': 100,
                                 'n_train_post_nms': 30, 'min_size': 2})
    return FasterRCNN(_Extractor(), rpn, _Head(n_fg_class + 1),
                      mean=numpy.zeros((3, 1, 1), numpy.float32),
                      min_size=32, max_size=32)


def _case():
    rng = numpy.random.RandomState(0)
    img = rng.uniform(-1, 1, (1, 3, 32, 32)).astype(numpy.float32)
    img[0, :, 4:16, 6:20] += 2
    bboxes = numpy.array([[[4, 6, 16, 20], [18, 18, 30, 28]]],
                         numpy.float32)
    labels = numpy.array([[0, 1]], numpy.int32)
    return img, bboxes, labels


def test_one_step_reduces_the_loss(device):
    frcnn = _tiny_faster_rcnn()
    chain = FasterRCNNTrainChain(
        frcnn, anchor_target_creator=AnchorTargetCreator(n_sample=32),
        proposal_target_creator=ProposalTargetCreator(n_sample=16))
    chain.to_device(device)
    optimizer = optimizers.MomentumSGD(lr=0.01)
    optimizer.setup(chain)
    img, bboxes, labels = _case()
    x = chain.device.send(img)
    reporter = chainer.Reporter()
    reporter.add_observer('main', chain)

    def loss():
        # The same samples of anchors and proposals at each evaluation.
        numpy.random.seed(1)
        observation = {}
        with reporter.scope(observation):
            value = chain(x, bboxes, labels, 1.)
        return value, observation

    before, observation = loss()
    assert set(observation) == {
        'main/' + key for key in ('rpn_loc_loss', 'rpn_cls_loss',
                                  'roi_loc_loss', 'roi_cls_loss', 'loss')}
    for value in observation.values():
        assert numpy.isfinite(float(value.array))
    chain.cleargrads()
    before.backward()
    optimizer.update()
    after, _ = loss()
    assert float(after.array) < float(before.array)


def test_loss_terms_match_hand_formulas():
    frcnn = _tiny_faster_rcnn()
    chain = FasterRCNNTrainChain(frcnn, rpn_sigma=3.)
    pred = numpy.array([[0., 0., 0., 0.], [0.05, 2., 0., 0.],
                        [5., 5., 5., 5.]], numpy.float32)
    gt = numpy.zeros((3, 4), numpy.float32)
    label = numpy.array([1, 1, -1], numpy.int32)
    value = chain._loc_loss(chainer.Variable(pred), gt, label, 3.)
    # sigma^2 = 9: 9/2 * 0.05^2 (quadratic) + 2 - 1/18 (linear); the
    # ignored row does not count; divided by the two labelled rows.
    expected = (4.5 * 0.05 ** 2 + 2 - 1 / 18.) / 2
    numpy.testing.assert_allclose(float(value.array), expected, rtol=1e-5)


def test_batch_of_two_is_refused():
    chain = FasterRCNNTrainChain(_tiny_faster_rcnn())
    img, bboxes, labels = _case()
    with pytest.raises(ValueError):
        chain(numpy.concatenate((img, img)),
              numpy.concatenate((bboxes, bboxes)),
              numpy.concatenate((labels, labels)), 1.)
