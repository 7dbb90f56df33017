#!/usr/bin/env python
"""Fit a noisy curve with a hand-written training loop: iterator, converter,
cleargrads/backward/update, and a no-backprop evaluation each epoch. One
activation is a user-defined FunctionNode with a CPU forward."""
import argparse
import json

import numpy

import chainer
import chainer.functions as F
import chainer.links as L
from chainer.dataset import concat_examples


class SoftSign(chainer.FunctionNode):
    """x / (1 + |x|)"""

    def forward_cpu(self, inputs):
        x, = inputs
        self.retain_inputs((0,))
        return chainer.utils.force_array(x / (1 + numpy.abs(x))),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        gy, = grad_outputs
        return gy / F.square(1 + F.absolute(x)),


def softsign(x):
    return SoftSign().apply((x,))[0]


def make_dataset(n, rng):
    dtype = chainer.get_dtype()
    x = rng.uniform(-3, 3, size=(n, 1)).astype(dtype)
    y = numpy.sin(x) + 0.05 * rng.normal(size=x.shape)
    return chainer.datasets.TupleDataset(x, y.astype(dtype))


def evaluate(model, iterator, device):
    iterator.reset()
    total = 0.0
    count = 0
    with chainer.using_config('train', False), chainer.no_backprop_mode():
        for batch in iterator:
            x, t = concat_examples(batch, device)
            loss = F.mean_squared_error(model(x), t)
            total += float(loss.array) * len(x)
            count += len(x)
    return total / count


def main():
    parser = argparse.ArgumentParser(description='Regression, custom loop')
    parser.add_argument('--batchsize', '-b', type=int, default=16)
    parser.add_argument('--epoch', '-e', type=int, default=20)
    parser.add_argument('--device', '-d', type=str, default='-1')
    parser.add_argument('--seed', type=int, default=0)
    args = parser.parse_args()

    numpy.random.seed(args.seed)
    device = chainer.get_device(args.device)
    device.use()

    rng = numpy.random.RandomState(args.seed)
    train, test = make_dataset(256, rng), make_dataset(64, rng)

    model = chainer.Sequential(
        L.Linear(1, 32), F.tanh, L.Linear(32, 32), softsign, L.Linear(32, 1))
    model.to_device(device)
    optimizer = chainer.optimizers.MomentumSGD(lr=0.05)
    optimizer.setup(model)
    optimizer.add_hook(chainer.optimizer_hooks.WeightDecay(1e-5))

    train_iter = chainer.iterators.SerialIterator(train, args.batchsize)
    test_iter = chainer.iterators.SerialIterator(
        test, args.batchsize, repeat=False, shuffle=False)

    history = [evaluate(model, test_iter, device)]
    train_losses = []
    while train_iter.epoch < args.epoch:
        x, t = concat_examples(train_iter.next(), device)
        loss = F.mean_squared_error(model(x), t)
        model.cleargrads()
        loss.backward()
        optimizer.update()
        train_losses.append(float(loss.array))
        if train_iter.is_new_epoch:
            history.append(evaluate(model, test_iter, device))
            print('epoch {:2d}  train/loss {:.4f}  test/loss {:.4f}'.format(
                train_iter.epoch, numpy.mean(train_losses), history[-1]))
            train_losses = []

    print(json.dumps({'first_loss': history[0], 'last_loss': history[-1],
                      'iterations': optimizer.t}))


if __name__ == '__main__':
    main()
