#!/usr/bin/env python
"""A CIFAR-style convolutional network (VGG blocks and residual blocks with
batch normalization) on tiny synthetic colour images, trained with a
Trainer, momentum SGD and a learning-rate schedule."""
import argparse
import json

import numpy

import chainer
import chainer.functions as F
import chainer.links as L
from chainer import training
from chainer.training import extensions


class ConvBN(chainer.Chain):

    def __init__(self, in_ch, out_ch, stride=1):
        super(ConvBN, self).__init__()
        with self.init_scope():
            self.conv = L.Convolution2D(in_ch, out_ch, 3, stride, 1,
                                        nobias=True)
            self.bn = L.BatchNormalization(out_ch)

    def forward(self, x):
        return self.bn(self.conv(x))


class VGGBlock(chainer.Chain):

    def __init__(self, in_ch, out_ch):
        super(VGGBlock, self).__init__()
        with self.init_scope():
            self.c1 = ConvBN(in_ch, out_ch)
            self.c2 = ConvBN(out_ch, out_ch)

    def forward(self, x):
        h = F.relu(self.c1(x))
        h = F.relu(self.c2(h))
        return F.max_pooling_2d(h, 2, 2)


class ResBlock(chainer.Chain):

    def __init__(self, in_ch, out_ch, stride):
        super(ResBlock, self).__init__()
        with self.init_scope():
            self.c1 = ConvBN(in_ch, out_ch, stride)
            self.c2 = ConvBN(out_ch, out_ch)
            self.shortcut = L.Convolution2D(in_ch, out_ch, 1, stride,
                                            nobias=True)

    def forward(self, x):
        h = F.relu(self.c1(x))
        return F.relu(self.c2(h) + self.shortcut(x))


class SmallNet(chainer.Chain):

    def __init__(self, n_class):
        super(SmallNet, self).__init__()
        with self.init_scope():
            self.vgg = VGGBlock(3, 8)
            self.res = ResBlock(8, 16, 2)
            self.res2 = ResBlock(16, 16, 1)
            self.fc = L.Linear(None, n_class)

    def forward(self, x):
        h = self.vgg(x)
        h = self.res2(self.res(h))
        h = F.average_pooling_2d(h, h.shape[2:])
        h = F.dropout(h, 0.2)
        return self.fc(h)


def make_dataset(n, rng):
    """Class k: the image is brightest in colour channel k."""
    labels = rng.randint(3, size=n).astype(numpy.int32)
    images = rng.uniform(0, 0.5, size=(n, 3, 16, 16)).astype(numpy.float32)
    images[numpy.arange(n), labels] += 0.5
    return chainer.datasets.TupleDataset(images, labels)


def main():
    parser = argparse.ArgumentParser(description='CNN on synthetic images')
    parser.add_argument('--batchsize', '-b', type=int, default=16)
    parser.add_argument('--epoch', '-e', type=int, default=3)
    parser.add_argument('--device', '-d', type=str, default='-1')
    parser.add_argument('--learnrate', '-l', type=float, default=0.05)
    parser.add_argument('--out', '-o', default='result')
    parser.add_argument('--seed', type=int, default=0)
    args = parser.parse_args()

    numpy.random.seed(args.seed)
    device = chainer.get_device(args.device)
    device.use()

    rng = numpy.random.RandomState(args.seed)
    train, test = make_dataset(192, rng), make_dataset(64, rng)

    model = L.Classifier(SmallNet(3))
    model.to_device(device)
    optimizer = chainer.optimizers.MomentumSGD(args.learnrate)
    optimizer.setup(model)
    optimizer.add_hook(chainer.optimizer_hooks.WeightDecay(5e-4))

    train_iter = chainer.iterators.SerialIterator(train, args.batchsize)
    test_iter = chainer.iterators.SerialIterator(test, args.batchsize,
                                                 repeat=False, shuffle=False)
    updater = training.updaters.StandardUpdater(
        train_iter, optimizer, device=device)
    trainer = training.Trainer(updater, (args.epoch, 'epoch'), out=args.out)
    trainer.extend(extensions.Evaluator(test_iter, model, device=device))
    trainer.extend(extensions.ExponentialShift('lr', 0.5),
                   trigger=(1, 'epoch'))
    trainer.extend(extensions.LogReport())
    trainer.extend(extensions.observe_lr())
    trainer.extend(extensions.PrintReport(
        ['epoch', 'main/loss', 'validation/main/loss',
         'validation/main/accuracy', 'lr']))
    trainer.run()

    log = trainer.get_extension('LogReport').log
    print(json.dumps({
        'first_loss': log[0]['main/loss'], 'last_loss': log[-1]['main/loss'],
        'val_accuracy': log[-1]['validation/main/accuracy'],
        'lr': optimizer.lr,
    }))


if __name__ == '__main__':
    main()
