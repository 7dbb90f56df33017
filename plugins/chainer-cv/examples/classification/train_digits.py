"""Train a small convolutional classifier on scikit-learn's digits with the
Trainer, then classify a few held-out images with ``FeaturePredictor``.

    python train_digits.py --out result_digits

The 1,797 8 x 8 digits (``sklearn.datasets.load_digits``, shipped with
scikit-learn, no download) become 1-channel CHW images in [0, 255]; 1,497
train the network, a ``PickableSequentialChain`` of ``Conv2DBNActiv``
blocks, and 300 test it. What lands in ``--out``:

* ``log``: the loss and accuracy of the training batches and of the test
  images (``validation/main/accuracy``) after each epoch (also printed);
* ``predictions.txt``: the label, the predicted label and its
  probability of eight test images, by ``FeaturePredictor.predict``;
* ``model.npz``: the weights.

It takes well under a minute on two CPU cores.
"""
import argparse
import os

import numpy

import chainer_core as chainer
import chainer_core.functions as F
import chainer_core.links as L
from chainer_core import training
from chainer_core.training import extensions

from chainer_cv.links import Conv2DBNActiv
from chainer_cv.links import FeaturePredictor
from chainer_cv.links import PickableSequentialChain


class DigitsNet(PickableSequentialChain):
    """Two stages of two 3 x 3 convolutions, global average pooling and a
    linear classifier; ``pick`` is ``'fc'`` (the logits) to train and
    ``'prob'`` to predict."""

    def __init__(self, n_class=10, width=32):
        super().__init__()
        with self.init_scope():
            self.conv1_1 = Conv2DBNActiv(1, width, 3, pad=1)
            self.conv1_2 = Conv2DBNActiv(width, width, 3, pad=1)
            self.pool1 = lambda x: F.max_pooling_2d(x, 2)
            self.conv2_1 = Conv2DBNActiv(width, 2 * width, 3, pad=1)
            self.conv2_2 = Conv2DBNActiv(2 * width, 2 * width, 3, pad=1)
            self.pool2 = lambda x: F.average(x, axis=(2, 3))
            self.fc = L.Linear(2 * width, n_class)
            self.prob = F.softmax
        self.pick = 'fc'


def load_digits():
    """``(images, labels)``: float32 ``(N, 1, 8, 8)`` in [0, 255] and
    int32 ``(N,)``."""
    from sklearn.datasets import load_digits

    digits = load_digits()
    # The pixels are counts from 0 to 16.
    images = digits.images[:, None].astype(numpy.float32) * (255 / 16)
    return images, digits.target.astype(numpy.int32)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--epoch', type=int, default=15)
    parser.add_argument('--batchsize', type=int, default=32)
    parser.add_argument('--n-test', type=int, default=300)
    parser.add_argument('--lr', type=float, default=1e-3)
    parser.add_argument('--device', default='native:0')
    parser.add_argument('--out', default='result_digits')
    args = parser.parse_args()

    numpy.random.seed(0)
    images, labels = load_digits()
    order = numpy.random.permutation(len(images))
    test_index, train_index = order[:args.n_test], order[args.n_test:]
    mean = images[train_index].mean()
    train = chainer.datasets.TupleDataset(
        images[train_index] - mean, labels[train_index])
    test = chainer.datasets.TupleDataset(
        images[test_index] - mean, labels[test_index])

    model = DigitsNet()
    device = chainer.get_device(args.device)
    model.to_device(device)
    classifier = L.Classifier(model)

    train_iter = chainer.iterators.SerialIterator(train, args.batchsize)
    test_iter = chainer.iterators.SerialIterator(
        test, 100, repeat=False, shuffle=False)
    optimizer = chainer.optimizers.Adam(alpha=args.lr)
    optimizer.setup(classifier)
    updater = training.updaters.StandardUpdater(
        train_iter, optimizer, device=device)
    trainer = training.Trainer(updater, (args.epoch, 'epoch'), args.out)
    trainer.extend(extensions.Evaluator(test_iter, classifier, device=device))
    trainer.extend(extensions.ExponentialShift('alpha', 0.1),
                   trigger=(max(1, int(args.epoch * 0.7)), 'epoch'))
    trainer.extend(extensions.LogReport())
    trainer.extend(extensions.PrintReport(
        ['epoch', 'main/loss', 'main/accuracy', 'validation/main/loss',
         'validation/main/accuracy', 'elapsed_time']))
    trainer.run()

    chainer.serializers.save_npz(os.path.join(args.out, 'model.npz'), model)
    model.pick = 'prob'
    predictor = FeaturePredictor(model, crop_size=8, mean=mean)
    predictor.to_device(device)
    probs = predictor.predict(list(images[test_index[:8]]))
    with open(os.path.join(args.out, 'predictions.txt'), 'w') as f:
        f.write('label predicted probability\n')
        for label, prob in zip(labels[test_index[:8]], probs):
            f.write('{} {} {:.3f}\n'.format(label, prob.argmax(), prob.max()))
    print(open(os.path.join(args.out, 'predictions.txt')).read(), end='')


if __name__ == '__main__':
    main()
