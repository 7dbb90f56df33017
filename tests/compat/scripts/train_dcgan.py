#!/usr/bin/env python
"""A small DCGAN on synthetic 16x16 images of bright squares, trained with a
two-optimizer updater: the discriminator and the generator are both updated
from one forward pass of each step."""
import argparse
import json

import numpy

import chainer
import chainer.functions as F
import chainer.links as L
from chainer import training
from chainer.training import extensions


class Generator(chainer.Chain):

    def __init__(self, n_hidden, ch=32):
        super(Generator, self).__init__()
        self.n_hidden = n_hidden
        self.ch = ch
        w = chainer.initializers.Normal(0.02)
        with self.init_scope():
            self.l0 = L.Linear(n_hidden, 4 * 4 * ch, initialW=w)
            self.dc1 = L.Deconvolution2D(ch, ch // 2, 4, 2, 1, initialW=w)
            self.dc2 = L.Deconvolution2D(ch // 2, 1, 4, 2, 1, initialW=w)
            self.bn0 = L.BatchNormalization(4 * 4 * ch)
            self.bn1 = L.BatchNormalization(ch // 2)

    def make_hidden(self, batchsize):
        z = numpy.random.uniform(-1, 1, (batchsize, self.n_hidden, 1, 1))
        return z.astype(numpy.float32)

    def forward(self, z):
        h = F.relu(self.bn0(self.l0(z)))
        h = F.reshape(h, (len(z), self.ch, 4, 4))
        h = F.relu(self.bn1(self.dc1(h)))
        return F.sigmoid(self.dc2(h))


class Discriminator(chainer.Chain):

    def __init__(self, ch=32):
        super(Discriminator, self).__init__()
        w = chainer.initializers.Normal(0.02)
        with self.init_scope():
            self.c0 = L.Convolution2D(1, ch // 2, 4, 2, 1, initialW=w)
            self.c1 = L.Convolution2D(ch // 2, ch, 4, 2, 1, initialW=w)
            self.bn1 = L.BatchNormalization(ch)
            self.l2 = L.Linear(None, 1, initialW=w)

    def forward(self, x):
        h = F.leaky_relu(self.c0(x))
        h = F.leaky_relu(self.bn1(self.c1(h)))
        return self.l2(h)


class GANUpdater(training.updaters.StandardUpdater):

    def __init__(self, iterator, optimizers, device):
        super(GANUpdater, self).__init__(iterator, optimizers, device=device)
        self.gen = optimizers['gen'].target
        self.dis = optimizers['dis'].target

    def dis_loss(self, y_real, y_fake):
        loss = F.mean(F.softplus(-y_real)) + F.mean(F.softplus(y_fake))
        chainer.report({'loss': loss}, self.dis)
        return loss

    def gen_loss(self, y_fake):
        loss = F.mean(F.softplus(-y_fake))
        chainer.report({'loss': loss}, self.gen)
        return loss

    def update_core(self):
        batch = self.get_iterator('main').next()
        x_real = self.converter(batch, self.device)
        xp = self.gen.xp
        z = xp.asarray(self.gen.make_hidden(len(batch)))

        y_real = self.dis(x_real)
        y_fake = self.dis(self.gen(z))

        # Both losses reach the discriminator through y_fake: the second
        # backward pass runs through the part of the graph the first used.
        self.get_optimizer('dis').update(self.dis_loss, y_real, y_fake)
        self.get_optimizer('gen').update(self.gen_loss, y_fake)


def make_images(n, rng):
    images = numpy.zeros((n, 1, 16, 16), dtype=numpy.float32)
    for image in images:
        top, left = rng.randint(0, 9, size=2)
        image[0, top:top + 7, left:left + 7] = 1
    return images


def main():
    parser = argparse.ArgumentParser(description='DCGAN on squares')
    parser.add_argument('--batchsize', '-b', type=int, default=16)
    parser.add_argument('--iteration', '-i', type=int, default=30)
    parser.add_argument('--device', '-d', type=str, default='-1')
    parser.add_argument('--out', '-o', default='result')
    parser.add_argument('--n_hidden', '-n', type=int, default=16)
    parser.add_argument('--seed', type=int, default=0)
    args = parser.parse_args()

    numpy.random.seed(args.seed)
    device = chainer.get_device(args.device)
    device.use()

    gen = Generator(args.n_hidden)
    dis = Discriminator()
    gen.to_device(device)
    dis.to_device(device)

    def make_optimizer(model):
        optimizer = chainer.optimizers.Adam(alpha=0.0002, beta1=0.5)
        optimizer.setup(model)
        optimizer.add_hook(chainer.optimizer_hooks.WeightDecay(0.0001))
        return optimizer

    images = make_images(256, numpy.random.RandomState(args.seed))
    train_iter = chainer.iterators.SerialIterator(images, args.batchsize)
    updater = GANUpdater(
        train_iter, {'gen': make_optimizer(gen), 'dis': make_optimizer(dis)},
        device)
    trainer = training.Trainer(updater, (args.iteration, 'iteration'),
                               out=args.out)
    trainer.extend(extensions.LogReport(trigger=(10, 'iteration')))
    trainer.extend(extensions.PrintReport(
        ['epoch', 'iteration', 'gen/loss', 'dis/loss']),
        trigger=(10, 'iteration'))
    trainer.run()

    with chainer.using_config('train', False), chainer.no_backprop_mode():
        z = device.send(gen.make_hidden(8))
        fake = chainer.backend.CpuDevice().send(gen(z).array)
    log = trainer.get_extension('LogReport').log
    print(json.dumps({
        'gen_loss': log[-1]['gen/loss'], 'dis_loss': log[-1]['dis/loss'],
        'fake_shape': list(fake.shape),
        'fake_in_range': bool(((fake >= 0) & (fake <= 1)).all()),
    }))


if __name__ == '__main__':
    main()
