#!/usr/bin/env python
"""Sequence tagging with a linear-chain CRF (L.CRF1d) over word embeddings,
on synthetic sentences whose tags depend on the word and the previous
tag."""
import argparse
import json

import numpy

import chainer
import chainer.functions as F
import chainer.links as L
from chainer import reporter
from chainer import training
from chainer.training import extensions


class CRFTagger(chainer.Chain):

    def __init__(self, n_vocab, n_pos, n_units):
        super(CRFTagger, self).__init__()
        with self.init_scope():
            self.feature = L.EmbedID(n_vocab, n_units)
            self.hidden = L.Linear(n_units, n_pos)
            self.crf = L.CRF1d(n_pos)

    def _scores(self, xs):
        # CRF1d reads time-major sequences, longest batch entry first.
        xs = F.transpose_sequence(xs)
        return [self.hidden(F.tanh(self.feature(x))) for x in xs]

    def forward(self, xs, ys):
        order = numpy.argsort([-len(x) for x in xs], kind='stable')
        xs = [xs[i] for i in order]
        ys = F.transpose_sequence([ys[i] for i in order])
        loss = self.crf(self._scores(xs), ys)
        reporter.report({'loss': loss}, self)
        return loss

    def predict(self, xs):
        with chainer.no_backprop_mode(), chainer.using_config('train', False):
            _, path = self.crf.argmax(self._scores(xs))
        return path


@chainer.dataset.converter()
def convert(batch, device):
    return {'xs': [device.send(x) for x, _ in batch],
            'ys': [device.send(y) for _, y in batch]}


def make_sentences(n, rng):
    """Ten words; a word below 5 is tagged 0, otherwise its tag is 1 after
    a 0 tag and 2 after a 1 or 2 tag."""
    data = []
    for _ in range(n):
        words = rng.randint(10, size=rng.randint(3, 9)).astype(numpy.int32)
        tags = []
        for w in words:
            if w < 5:
                tags.append(0)
            else:
                tags.append(1 if not tags or tags[-1] == 0 else 2)
        data.append((words, numpy.array(tags, numpy.int32)))
    return data


def main():
    parser = argparse.ArgumentParser(description='CRF tagging')
    parser.add_argument('--batchsize', '-b', type=int, default=16)
    parser.add_argument('--epoch', '-e', type=int, default=8)
    parser.add_argument('--device', '-d', type=str, default='-1')
    parser.add_argument('--out', '-o', default='result')
    parser.add_argument('--seed', type=int, default=0)
    args = parser.parse_args()

    numpy.random.seed(args.seed)
    device = chainer.get_device(args.device)
    device.use()

    rng = numpy.random.RandomState(args.seed)
    train, test = make_sentences(300, rng), make_sentences(50, rng)

    model = CRFTagger(10, 3, 16)
    model.to_device(device)
    optimizer = chainer.optimizers.Adam(alpha=0.05)
    optimizer.setup(model)

    train_iter = chainer.iterators.SerialIterator(train, args.batchsize)
    updater = training.updaters.StandardUpdater(
        train_iter, optimizer, converter=convert, device=device)
    trainer = training.Trainer(updater, (args.epoch, 'epoch'), out=args.out)
    trainer.extend(extensions.LogReport())
    trainer.extend(extensions.PrintReport(['epoch', 'main/loss']))
    trainer.run()

    # Tag the test sentences, longest first, and count correct tags.
    test = sorted(test, key=lambda pair: -len(pair[0]))
    path = model.predict([device.send(x) for x, _ in test])
    predicted = [chainer.backend.CpuDevice().send(p) for p in path]
    truth = [y for _, y in test]
    correct = total = 0
    for t, step in enumerate(predicted):
        gold = numpy.array([y[t] for y in truth if len(y) > t])
        correct += int((step == gold).sum())
        total += len(gold)
    log = trainer.get_extension('LogReport').log
    print(json.dumps({
        'first_loss': log[0]['main/loss'], 'last_loss': log[-1]['main/loss'],
        'tag_accuracy': correct / total,
    }))


if __name__ == '__main__':
    main()
