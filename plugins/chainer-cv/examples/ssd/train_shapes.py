"""Train TinySSD on the synthetic shapes data set with the Trainer,
following its test VOC mAP@0.5 during training, then draw the detections
of held-out images.

    python train_shapes.py --out result

TinySSD (``chainer_cv.links.model.ssd.TinySSD``) is SSD's Multibox heads,
MultiboxCoder and multibox_loss on a small convolutional extractor for 64
x 64 images. What lands in ``--out``:

* ``log``: the losses, the learning rate, ``validation/main/map`` (and
  the AP of each shape) of ``DetectionVOCEvaluator`` on ``--n-test``
  held-out images, and the elapsed time, every ``--eval-interval``
  iterations (also printed);
* ``detection_iter=<iteration>_idx=<i>.png``: ``DetectionVisReport``'s
  ground truth and predictions of four test images at each evaluation;
* ``detections.png``: the final model's detections on eight test images;
* ``model.npz``: the weights.

The training images are drawn afresh (``--n-train`` of them, as many as
the iterations consume by default), so that the augmentation is a random
flip only; ``--ssd-augment`` turns on SSD's whole augmentation, which
costs about 10 ms an image on the host, mostly in the search for a crop
meeting its constraints. The batches are made in a worker process
(``--loaderjob``) while the main process trains.
"""
import argparse
import os

import numpy

import chainer_core as chainer
from chainer_core import training
from chainer_core.training import extensions

from chainer_cv.datasets import ShapesDataset
from chainer_cv.datasets import shapes_label_names
from chainer_cv.extensions import DetectionVisReport
from chainer_cv.extensions import DetectionVOCEvaluator
from chainer_cv.links.model.ssd import MultiboxTrainChain
from chainer_cv.links.model.ssd import TinySSD
from chainer_cv.links.model.ssd import TrainTransform


class VisualizePreset:
    """``model.predict`` with the ``'visualize'`` preset, for the drawings,
    while the model keeps the ``'evaluate'`` preset that the mAP needs."""

    def __init__(self, model):
        self.model = model

    def predict(self, imgs):
        self.model.use_preset('visualize')
        try:
            return self.model.predict(imgs)
        finally:
            self.model.use_preset('evaluate')


def draw(model, dataset, path):
    import matplotlib
    matplotlib.use('Agg')
    import matplotlib.pyplot as plt

    from chainer_cv.visualizations import vis_bbox

    imgs = [dataset[i][0] for i in range(min(8, len(dataset)))]
    bboxes, labels, scores = model.predict(imgs)
    fig = plt.figure(figsize=(16, 8))
    for i, (img, bbox, label, score) in enumerate(
            zip(imgs, bboxes, labels, scores)):
        vis_bbox(img, bbox, label, score, label_names=shapes_label_names,
                 linewidth=1.5, ax=fig.add_subplot(2, 4, i + 1))
    fig.savefig(path)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--iteration', type=int, default=600)
    parser.add_argument('--batchsize', type=int, default=32)
    parser.add_argument('--n-train', type=int,
                        help='default: iteration x batchsize')
    parser.add_argument('--n-test', type=int, default=200)
    parser.add_argument('--lr', type=float, default=2e-3)
    parser.add_argument('--width', type=int, default=32,
                        help='the channels of the first stride-4 layer')
    parser.add_argument('--ssd-augment', action='store_true')
    parser.add_argument('--loaderjob', type=int, default=1,
                        help='worker processes making batches (0: none)')
    parser.add_argument('--eval-interval', type=int, default=100)
    parser.add_argument('--device', default='native:0')
    parser.add_argument('--out', default='result')
    args = parser.parse_args()

    numpy.random.seed(0)
    model = TinySSD(n_fg_class=len(shapes_label_names), insize=64,
                    width=args.width)
    model.use_preset('evaluate')
    device = chainer.get_device(args.device)
    model.to_device(device)
    train_chain = MultiboxTrainChain(model)

    n_train = args.n_train or args.iteration * args.batchsize
    augment = {} if args.ssd_augment else \
        {'distort': False, 'max_expand_ratio': 1, 'crop': False}
    train = chainer.datasets.TransformDataset(
        ShapesDataset(n_train, size=(64, 64), seed=0),
        TrainTransform(model.coder, model.insize, model.mean, **augment))
    test = ShapesDataset(args.n_test, size=(64, 64), seed=1)
    if args.loaderjob:
        train_iter = chainer.iterators.MultiprocessIterator(
            train, args.batchsize, n_processes=args.loaderjob)
    else:
        train_iter = chainer.iterators.SerialIterator(train, args.batchsize)
    test_iter = chainer.iterators.SerialIterator(
        test, 50, repeat=False, shuffle=False)
    vis_iter = chainer.iterators.SerialIterator(
        test[:4], 4, repeat=False, shuffle=False)

    optimizer = chainer.optimizers.Adam(alpha=args.lr)
    optimizer.setup(train_chain)
    updater = training.updaters.StandardUpdater(
        train_iter, optimizer, device=device)
    trainer = training.Trainer(
        updater, (args.iteration, 'iteration'), args.out)
    # The first steps from random weights see the largest gradients, so
    # the rate rises to --lr over them; two cuts near the end settle the
    # weights.
    warmup = min(200, args.iteration // 10 + 1)
    trainer.extend(extensions.WarmupShift('alpha', args.lr / 20, warmup,
                                          args.lr))
    trainer.extend(extensions.MultistepShift(
        'alpha', 0.1, [int(args.iteration * 0.7), int(args.iteration * 0.9)],
        args.lr))

    eval_trigger = (min(args.eval_interval, args.iteration), 'iteration')
    trainer.extend(DetectionVOCEvaluator(
        test_iter, model, label_names=shapes_label_names),
        trigger=eval_trigger)
    trainer.extend(DetectionVisReport(
        vis_iter, VisualizePreset(model), label_names=shapes_label_names,
        filename='detection_iter={iteration}_idx={index}.png'),
        trigger=eval_trigger)
    trainer.extend(
        extensions.observe_value('alpha', lambda _: optimizer.alpha),
        trigger=eval_trigger)
    trainer.extend(extensions.LogReport(trigger=eval_trigger))
    trainer.extend(extensions.PrintReport(
        ['iteration', 'alpha', 'main/loss', 'main/loss/loc',
         'main/loss/conf', 'validation/main/map', 'elapsed_time']))
    trainer.run()

    model.use_preset('visualize')
    chainer.serializers.save_npz(os.path.join(args.out, 'model.npz'), model)
    draw(model, test, os.path.join(args.out, 'detections.png'))


if __name__ == '__main__':
    main()
