"""Train TinySSD on the synthetic shapes data set with the Trainer, then
report the VOC mAP of held-out images and draw their detections.

    python train_shapes.py --epoch 20 --out result

TinySSD (``chainer_cv.links.model.ssd.TinySSD``) is SSD's Multibox heads,
MultiboxCoder and multibox_loss on a small convolutional extractor for 64
x 64 images; the data are augmented as SSD's (``TrainTransform``). On two
CPU cores a step of 32 images takes about 0.3 s on ``@numpy`` and 0.1 s
on ``native:0`` (``--device native:0``), plus about 0.25 s of
augmentation.
"""
import argparse
import os

import numpy

import chainer_core as chainer
from chainer_core import training
from chainer_core.training import extensions

from chainer_cv.datasets import ShapesDataset
from chainer_cv.datasets import shapes_label_names
from chainer_cv.evaluations import eval_detection_voc
from chainer_cv.links.model.ssd import MultiboxTrainChain
from chainer_cv.links.model.ssd import TinySSD
from chainer_cv.links.model.ssd import TrainTransform


def draw(model, dataset, path):
    import matplotlib
    matplotlib.use('Agg')
    import matplotlib.pyplot as plt

    from chainer_cv.visualizations import vis_bbox

    imgs = [dataset[i][0] for i in range(8)]
    bboxes, labels, scores = model.predict(imgs)
    fig = plt.figure(figsize=(16, 8))
    for i, (img, bbox, label, score) in enumerate(
            zip(imgs, bboxes, labels, scores)):
        vis_bbox(img, bbox, label, score, label_names=shapes_label_names,
                 linewidth=1.5, ax=fig.add_subplot(2, 4, i + 1))
    fig.savefig(path)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--epoch', type=int, default=20)
    parser.add_argument('--batchsize', type=int, default=32)
    parser.add_argument('--n-train', type=int, default=2000)
    parser.add_argument('--n-test', type=int, default=200)
    parser.add_argument('--lr', type=float, default=1e-3)
    parser.add_argument('--device', default='@numpy')
    parser.add_argument('--out', default='result')
    args = parser.parse_args()

    numpy.random.seed(0)
    model = TinySSD(n_fg_class=len(shapes_label_names), insize=64)
    device = chainer.get_device(args.device)
    model.to_device(device)
    train_chain = MultiboxTrainChain(model)

    train = chainer.datasets.TransformDataset(
        ShapesDataset(args.n_train, size=(64, 64), seed=0),
        TrainTransform(model.coder, model.insize, model.mean))
    test = ShapesDataset(args.n_test, size=(64, 64), seed=1)
    train_iter = chainer.iterators.SerialIterator(train, args.batchsize)

    optimizer = chainer.optimizers.Adam(alpha=args.lr)
    optimizer.setup(train_chain)
    updater = training.updaters.StandardUpdater(
        train_iter, optimizer, device=device)
    trainer = training.Trainer(updater, (args.epoch, 'epoch'), args.out)
    trainer.extend(extensions.ExponentialShift('alpha', 0.1),
                   trigger=(int(args.epoch * 0.75), 'epoch'))
    trainer.extend(extensions.LogReport(trigger=(1, 'epoch')))
    trainer.extend(extensions.PrintReport(
        ['epoch', 'iteration', 'main/loss', 'main/loss/loc',
         'main/loss/conf', 'elapsed_time']))
    trainer.run()

    model.use_preset('evaluate')
    bboxes, labels, scores = model.predict(
        [test[i][0] for i in range(len(test))])
    result = eval_detection_voc(
        bboxes, labels, scores, [test[i][1] for i in range(len(test))],
        [test[i][2] for i in range(len(test))])
    print('test mAP: {:.3f}'.format(result['map']))
    model.use_preset('visualize')
    chainer.serializers.save_npz(os.path.join(args.out, 'model.npz'), model)
    draw(model, test, os.path.join(args.out, 'detections.png'))


if __name__ == '__main__':
    main()
