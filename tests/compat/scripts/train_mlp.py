#!/usr/bin/env python
"""Classify points drawn around a few centres with an MLP, using a Trainer
with the usual extensions (log, printed report, evaluation, snapshots)."""
import argparse
import json
import os

import numpy

import chainer
import chainer.functions as F
import chainer.links as L
from chainer import training
from chainer.training import extensions


class MLP(chainer.Chain):

    def __init__(self, n_units, n_out):
        super(MLP, self).__init__()
        with self.init_scope():
            self.l1 = L.Linear(None, n_units)
            self.l2 = L.Linear(None, n_units)
            self.l3 = L.Linear(None, n_out)

    def forward(self, x):
        h = F.relu(self.l1(x))
        h = F.relu(self.l2(h))
        return self.l3(h)


def make_dataset(centres, n, rng):
    labels = rng.randint(len(centres), size=n).astype(numpy.int32)
    points = centres[labels] + rng.normal(size=(n, centres.shape[1]))
    return chainer.datasets.TupleDataset(points.astype(numpy.float32), labels)


def main():
    parser = argparse.ArgumentParser(description='MLP on synthetic clusters')
    parser.add_argument('--batchsize', '-b', type=int, default=32)
    parser.add_argument('--epoch', '-e', type=int, default=4)
    parser.add_argument('--device', '-d', type=str, default='-1',
                        help='Device specifier: -1 (CPU), a GPU id, '
                        '@numpy, @intel64, native:0, ...')
    parser.add_argument('--out', '-o', default='result')
    parser.add_argument('--resume', '-r', type=str)
    parser.add_argument('--unit', '-u', type=int, default=32)
    parser.add_argument('--seed', type=int, default=0)
    args = parser.parse_args()
    numpy.random.seed(args.seed)

    device = chainer.get_device(args.device)
    device.use()
    print('Device: {}'.format(device))

    rng = numpy.random.RandomState(args.seed)
    centres = rng.normal(scale=2.5, size=(4, 8))
    train, test = chainer.datasets.split_dataset_random(
        make_dataset(centres, 640, rng), 512, seed=args.seed)

    model = L.Classifier(MLP(args.unit, 4))
    model.to_device(device)
    optimizer = chainer.optimizers.Adam()
    optimizer.setup(model)

    train_iter = chainer.iterators.SerialIterator(train, args.batchsize)
    test_iter = chainer.iterators.SerialIterator(test, args.batchsize,
                                                 repeat=False, shuffle=False)
    updater = training.updaters.StandardUpdater(
        train_iter, optimizer, device=device)
    trainer = training.Trainer(updater, (args.epoch, 'epoch'), out=args.out)
    trainer.extend(extensions.Evaluator(test_iter, model, device=device))
    trainer.extend(extensions.snapshot(), trigger=(args.epoch, 'epoch'))
    trainer.extend(
        extensions.snapshot_object(model.predictor, 'best_mlp.npz'),
        trigger=training.triggers.MaxValueTrigger(
            'validation/main/accuracy'))
    trainer.extend(extensions.dump_graph('main/loss'))
    trainer.extend(extensions.LogReport())
    trainer.extend(extensions.ParameterStatistics(model.predictor.l1))
    if extensions.PlotReport.available():
        trainer.extend(extensions.PlotReport(
            ['main/loss', 'validation/main/loss'], 'epoch',
            file_name='loss.png'))
    trainer.extend(extensions.PrintReport(
        ['epoch', 'main/loss', 'validation/main/loss',
         'main/accuracy', 'validation/main/accuracy', 'elapsed_time']))
    if args.resume:
        chainer.serializers.load_npz(args.resume, trainer)
    trainer.run()

    log = trainer.get_extension('LogReport').log
    print(json.dumps({
        'first_loss': log[0]['main/loss'],
        'last_loss': log[-1]['main/loss'],
        'val_accuracy': log[-1]['validation/main/accuracy'],
        'snapshot': os.path.exists(os.path.join(
            args.out, 'snapshot_iter_{}'.format(updater.iteration))),
        'best_model': os.path.exists(os.path.join(args.out, 'best_mlp.npz')),
        'graph': os.path.exists(os.path.join(args.out, 'cg.dot')),
        'statistics': 'l1/W/grad/std' in log[-1],
    }))


if __name__ == '__main__':
    main()
