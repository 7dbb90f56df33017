#!/usr/bin/env python
"""Document classification over variable-length word sequences: a
convolutional or a bag-of-words encoder, padded batches with ignore_label,
and a classifier trained with a Trainer."""
import argparse
import json

import numpy

import chainer
import chainer.functions as F
import chainer.links as L
from chainer import reporter
from chainer import training
from chainer.training import extensions

PAD = -1


class CNNEncoder(chainer.Chain):

    def __init__(self, n_vocab, n_units, dropout=0.1):
        super(CNNEncoder, self).__init__()
        with self.init_scope():
            self.embed = L.EmbedID(n_vocab, n_units, ignore_label=PAD)
            self.cnn_w3 = L.Convolution2D(n_units, n_units, ksize=(3, 1),
                                          pad=(1, 0), nobias=True)
            self.cnn_w5 = L.Convolution2D(n_units, n_units, ksize=(5, 1),
                                          pad=(2, 0), nobias=True)
            self.mlp = L.Linear(None, n_units)
        self.out_units = n_units
        self.dropout = dropout

    def forward(self, xs):
        x_block = chainer.dataset.convert.concat_examples(xs, padding=PAD)
        ex = self.embed(x_block)  # (batch, length, units)
        ex = F.dropout(F.transpose(ex, (0, 2, 1))[:, :, :, None],
                       self.dropout)
        h = F.concat([F.relu(self.cnn_w3(ex)), F.relu(self.cnn_w5(ex))],
                     axis=1)
        h = F.max(h, axis=2)  # over time
        return F.relu(self.mlp(F.dropout(h, self.dropout)))


class BOWEncoder(chainer.Chain):

    def __init__(self, n_vocab, n_units, dropout=0.1):
        super(BOWEncoder, self).__init__()
        with self.init_scope():
            self.embed = L.EmbedID(n_vocab, n_units, ignore_label=PAD)
        self.out_units = n_units
        self.dropout = dropout

    def forward(self, xs):
        x_block = chainer.dataset.convert.concat_examples(xs, padding=PAD)
        ex = self.embed(x_block)
        lengths = self.xp.array([len(x) for x in xs], numpy.float32)
        h = F.sum(ex, axis=1) / lengths[:, None]
        return F.dropout(h, self.dropout)


class TextClassifier(chainer.Chain):

    def __init__(self, encoder, n_class):
        super(TextClassifier, self).__init__()
        with self.init_scope():
            self.encoder = encoder
            self.output = L.Linear(encoder.out_units, n_class)

    def forward(self, xs, ys):
        concat_outputs = self.predict(xs)
        concat_truths = F.concat(ys, axis=0)
        loss = F.softmax_cross_entropy(concat_outputs, concat_truths)
        accuracy = F.accuracy(concat_outputs, concat_truths)
        reporter.report({'loss': loss, 'accuracy': accuracy}, self)
        return loss

    def predict(self, xs, softmax=False):
        h = self.output(self.encoder(xs))
        return F.softmax(h) if softmax else h


@chainer.dataset.converter()
def convert_seq(batch, device):
    return {'xs': [device.send(x) for x, _ in batch],
            'ys': [device.send(y) for _, y in batch]}


def make_documents(n, rng):
    """Words 0-9 are neutral, 10-14 positive, 15-19 negative; the label
    says which of the two kinds is in the majority."""
    docs = []
    for _ in range(n):
        label = rng.randint(2)
        length = rng.randint(5, 15)
        words = rng.randint(0, 10, size=length)
        marked = rng.rand(length) < 0.4
        strong = rng.randint(10, 15, size=length) + 5 * (1 - label)
        weak = rng.randint(10, 15, size=length) + 5 * label
        flip = rng.rand(length) < 0.2
        words[marked] = numpy.where(flip, weak, strong)[marked]
        docs.append((words.astype(numpy.int32),
                     numpy.array([label], numpy.int32)))
    return docs


def main():
    parser = argparse.ArgumentParser(description='Text classification')
    parser.add_argument('--batchsize', '-b', type=int, default=32)
    parser.add_argument('--epoch', '-e', type=int, default=6)
    parser.add_argument('--device', '-d', type=str, default='-1')
    parser.add_argument('--model', '-model', choices=['cnn', 'bow'],
                        default='cnn')
    parser.add_argument('--unit', '-u', type=int, default=16)
    parser.add_argument('--out', '-o', default='result')
    parser.add_argument('--seed', type=int, default=0)
    args = parser.parse_args()

    numpy.random.seed(args.seed)
    device = chainer.get_device(args.device)
    device.use()

    rng = numpy.random.RandomState(args.seed)
    train, test = make_documents(400, rng), make_documents(100, rng)
    n_vocab = 20

    encoder_class = {'cnn': CNNEncoder, 'bow': BOWEncoder}[args.model]
    model = TextClassifier(encoder_class(n_vocab, args.unit), 2)
    model.to_device(device)
    optimizer = chainer.optimizers.Adam(alpha=0.01)
    optimizer.setup(model)
    optimizer.add_hook(chainer.optimizer_hooks.WeightDecay(1e-4))

    train_iter = chainer.iterators.SerialIterator(train, args.batchsize)
    test_iter = chainer.iterators.SerialIterator(test, args.batchsize,
                                                 repeat=False, shuffle=False)
    updater = training.updaters.StandardUpdater(
        train_iter, optimizer, converter=convert_seq, device=device)
    trainer = training.Trainer(updater, (args.epoch, 'epoch'), out=args.out)
    trainer.extend(extensions.Evaluator(test_iter, model,
                                        converter=convert_seq, device=device))
    trainer.extend(extensions.LogReport())
    trainer.extend(extensions.PrintReport(
        ['epoch', 'main/loss', 'validation/main/loss', 'main/accuracy',
         'validation/main/accuracy']))
    trainer.run()

    log = trainer.get_extension('LogReport').log
    print(json.dumps({
        'first_loss': log[0]['main/loss'], 'last_loss': log[-1]['main/loss'],
        'val_accuracy': log[-1]['validation/main/accuracy'],
    }))


if __name__ == '__main__':
    main()
