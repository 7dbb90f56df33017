"""Train a semantic segmentation network on the label maps of the synthetic
shapes data set with the Trainer, following its test mean IoU with
``SemanticSegmentationEvaluator``, then draw the predicted label maps.

    python train_shapes_segmentation.py --out result_segmentation

The default network, ``SmallSegNet``, is a small encoder-decoder of
``Conv2DBNActiv`` blocks with a skip connection at each scale;
``--model segnet_basic`` trains ChainerCV's ``SegNetBasic`` instead, whose
7 x 7 convolutions of 64 channels at every scale take about eight times
the multiply-adds. What lands in ``--out``:

* ``log``: the loss and ``validation/main/miou``, ``pixel_accuracy`` and
  the IoU of each class on ``--n-test`` held-out images, at each
  evaluation (also printed);
* ``segmentation.png``: four test images, their label maps and the
  predicted ones, by ``vis_semantic_segmentation``;
* ``model.npz``: the weights.

It takes three to four minutes on two CPU cores.
"""
import argparse
import os

import numpy

import chainer_core as chainer
import chainer_core.functions as F
from chainer_core import training
from chainer_core.training import extensions

from chainer_cv.datasets import ShapesDataset
from chainer_cv.datasets import shapes_semantic_segmentation_label_names
from chainer_cv.extensions import SemanticSegmentationEvaluator
from chainer_cv.links import Conv2DBNActiv
from chainer_cv.links import PixelwiseSoftmaxClassifier
from chainer_cv.links import SegNetBasic

label_names = shapes_semantic_segmentation_label_names


class SmallSegNet(chainer.Chain):
    """Three scales (strides 1, 2 and 4) down, then up by nearest
    upsampling, each upsampled map joined with the encoder's map of its
    scale, so that the edges stay sharp; images of sides multiple of 4.
    ``predict`` as :class:`~chainercv.links.SegNetBasic`'s."""

    def __init__(self, n_class, width=16, mean=128):
        super().__init__()
        self.n_class = n_class
        self.mean = mean
        with self.init_scope():
            self.enc1 = Conv2DBNActiv(3, width, 3, pad=1)
            self.enc2 = Conv2DBNActiv(width, 2 * width, 3, pad=1)
            self.enc3 = Conv2DBNActiv(2 * width, 4 * width, 3, pad=1)
            self.mid = Conv2DBNActiv(4 * width, 4 * width, 3, pad=2, dilate=2)
            self.dec2 = Conv2DBNActiv(6 * width, 2 * width, 3, pad=1)
            self.dec1 = Conv2DBNActiv(3 * width, width, 3, pad=1)
            self.classifier = chainer.links.Convolution2D(width, n_class, 1)

    def forward(self, x):
        h1 = self.enc1(x - self.mean)
        h2 = self.enc2(F.max_pooling_2d(h1, 2))
        h = self.mid(self.enc3(F.max_pooling_2d(h2, 2)))
        h = self.dec2(F.concat((F.unpooling_2d(h, 2, cover_all=False), h2)))
        h = self.dec1(F.concat((F.unpooling_2d(h, 2, cover_all=False), h1)))
        return self.classifier(h)

    def predict(self, imgs):
        x = self.device.send(numpy.stack(imgs).astype(numpy.float32))
        with chainer.using_config('train', False), \
                chainer.no_backprop_mode():
            score = self.forward(x)
        score = chainer.backend.CpuDevice().send(score.array)
        return list(numpy.argmax(score, axis=1).astype(numpy.int32))


def draw(model, dataset, path):
    import matplotlib
    matplotlib.use('Agg')
    import matplotlib.pyplot as plt

    from chainer_cv.visualizations import vis_semantic_segmentation

    imgs = [dataset[i][0] for i in range(min(4, len(dataset)))]
    preds = model.predict(imgs)
    fig = plt.figure(figsize=(12, 9))
    for i, (img, pred) in enumerate(zip(imgs, preds)):
        ax = fig.add_subplot(3, 4, i + 1)
        ax.imshow(img.transpose(1, 2, 0).astype(numpy.uint8))
        ax.set_title('image')
        ax = fig.add_subplot(3, 4, i + 5)
        vis_semantic_segmentation(None, dataset[i][1], label_names, ax=ax)
        ax.set_title('ground truth')
        ax = fig.add_subplot(3, 4, i + 9)
        _, handles = vis_semantic_segmentation(None, pred, label_names,
                                               all_label_names_in_legend=True,
                                               ax=ax)
        ax.set_title('prediction')
    fig.legend(handles=handles, loc='upper right')
    fig.savefig(path)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--model', choices=('small', 'segnet_basic'),
                        default='small')
    parser.add_argument('--iteration', type=int, default=600)
    parser.add_argument('--batchsize', type=int, default=16)
    parser.add_argument('--n-train', type=int, default=2000)
    parser.add_argument('--n-test', type=int, default=100)
    parser.add_argument('--lr', type=float, default=3e-3)
    parser.add_argument('--eval-interval', type=int, default=200)
    parser.add_argument('--device', default='native:0')
    parser.add_argument('--out', default='result_segmentation')
    args = parser.parse_args()

    numpy.random.seed(0)
    n_class = len(label_names)
    if args.model == 'small':
        model = SmallSegNet(n_class)
    else:
        model = SegNetBasic(n_class=n_class)
    device = chainer.get_device(args.device)
    model.to_device(device)
    train_chain = PixelwiseSoftmaxClassifier(model)

    train = ShapesDataset(args.n_train, size=(64, 64), seed=0,
                          return_label_map=True).slice[:, ('img', 'label_map')]
    test = ShapesDataset(args.n_test, size=(64, 64), seed=1,
                         return_label_map=True).slice[:, ('img', 'label_map')]
    train_iter = chainer.iterators.SerialIterator(train, args.batchsize)
    test_iter = chainer.iterators.SerialIterator(
        test, 50, repeat=False, shuffle=False)

    optimizer = chainer.optimizers.Adam(alpha=args.lr)
    optimizer.setup(train_chain)
    updater = training.updaters.StandardUpdater(
        train_iter, optimizer, device=device)
    trainer = training.Trainer(
        updater, (args.iteration, 'iteration'), args.out)
    trainer.extend(extensions.ExponentialShift('alpha', 0.1),
                   trigger=(max(1, int(args.iteration * 0.75)), 'iteration'))
    eval_trigger = (min(args.eval_interval, args.iteration), 'iteration')
    trainer.extend(SemanticSegmentationEvaluator(
        test_iter, model, label_names=label_names), trigger=eval_trigger)
    trainer.extend(extensions.LogReport(trigger=eval_trigger))
    trainer.extend(extensions.PrintReport(
        ['iteration', 'main/loss', 'validation/main/miou',
         'validation/main/pixel_accuracy', 'elapsed_time']))
    trainer.run()

    chainer.serializers.save_npz(os.path.join(args.out, 'model.npz'), model)
    draw(model, test, os.path.join(args.out, 'segmentation.png'))


if __name__ == '__main__':
    main()
