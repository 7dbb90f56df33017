#!/usr/bin/env python
"""Sequence-to-sequence learning with NStepLSTM encoder and decoder: learn
to reverse variable-length sequences of symbols, then decode greedily."""
import argparse
import json

import numpy

import chainer
import chainer.functions as F
import chainer.links as L
from chainer import training
from chainer.training import extensions

UNK = 0
EOS = 1


def sequence_embed(embed, xs):
    x_len = [len(x) for x in xs]
    x_section = numpy.cumsum(x_len[:-1])
    ex = embed(F.concat(xs, axis=0))
    return F.split_axis(ex, x_section, 0)


class Seq2seq(chainer.Chain):

    def __init__(self, n_layers, n_vocab, n_units):
        super(Seq2seq, self).__init__()
        with self.init_scope():
            self.embed_x = L.EmbedID(n_vocab, n_units)
            self.embed_y = L.EmbedID(n_vocab, n_units)
            self.encoder = L.NStepLSTM(n_layers, n_units, n_units, 0.1)
            self.decoder = L.NStepLSTM(n_layers, n_units, n_units, 0.1)
            self.W = L.Linear(n_units, n_vocab)
        self.n_layers = n_layers
        self.n_units = n_units

    def forward(self, xs, ys):
        xs = [x[::-1] for x in xs]  # the encoder reads backwards
        eos = self.xp.array([EOS], numpy.int32)
        ys_in = [F.concat([eos, y], axis=0) for y in ys]
        ys_out = [F.concat([y, eos], axis=0) for y in ys]

        hx, cx, _ = self.encoder(None, None, sequence_embed(self.embed_x, xs))
        _, _, os = self.decoder(hx, cx, sequence_embed(self.embed_y, ys_in))

        batch = len(xs)
        concat_os = F.concat(os, axis=0)
        concat_ys_out = F.concat(ys_out, axis=0)
        loss = F.sum(F.softmax_cross_entropy(
            self.W(concat_os), concat_ys_out, reduce='no')) / batch
        chainer.report({'loss': loss}, self)
        n_words = concat_ys_out.shape[0]
        perp = self.xp.exp(loss.array * batch / n_words)
        chainer.report({'perp': perp}, self)
        return loss

    def translate(self, xs, max_length=10):
        batch = len(xs)
        with chainer.no_backprop_mode(), chainer.using_config('train', False):
            xs = [x[::-1] for x in xs]
            h, c, _ = self.encoder(None, None,
                                   sequence_embed(self.embed_x, xs))
            ys = self.xp.full(batch, EOS, numpy.int32)
            result = []
            for _ in range(max_length):
                eys = F.split_axis(self.embed_y(ys), batch, 0)
                h, c, ys = self.decoder(h, c, eys)
                wy = self.W(F.concat(ys, axis=0))
                ys = self.xp.argmax(wy.array, axis=1).astype(numpy.int32)
                result.append(ys)
        result = chainer.backend.CpuDevice().send(
            self.xp.concatenate([self.xp.expand_dims(x, 0) for x in result]))
        outs = []
        for y in result.T:
            inds = numpy.argwhere(y == EOS)
            outs.append(y[:inds[0, 0]] if len(inds) else y)
        return outs


@chainer.dataset.converter()
def convert(batch, device):
    def to_device_batch(arrays):
        return [device.send(a) for a in arrays]
    return {'xs': to_device_batch([x for x, _ in batch]),
            'ys': to_device_batch([y for _, y in batch])}


def make_pairs(n, n_vocab, rng):
    pairs = []
    for _ in range(n):
        x = rng.randint(2, n_vocab, size=rng.randint(2, 6))
        pairs.append((x.astype(numpy.int32), x[::-1].astype(numpy.int32)))
    return pairs


def main():
    parser = argparse.ArgumentParser(description='seq2seq: reverse')
    parser.add_argument('--batchsize', '-b', type=int, default=32)
    parser.add_argument('--epoch', '-e', type=int, default=20)
    parser.add_argument('--device', '-d', type=str, default='-1')
    parser.add_argument('--unit', '-u', type=int, default=48)
    parser.add_argument('--layer', '-l', type=int, default=1)
    parser.add_argument('--out', '-o', default='result')
    parser.add_argument('--seed', type=int, default=0)
    args = parser.parse_args()

    numpy.random.seed(args.seed)
    device = chainer.get_device(args.device)
    device.use()

    n_vocab = 8
    rng = numpy.random.RandomState(args.seed)
    train, test = make_pairs(512, n_vocab, rng), make_pairs(32, n_vocab, rng)

    model = Seq2seq(args.layer, n_vocab, args.unit)
    model.to_device(device)
    optimizer = chainer.optimizers.Adam(alpha=0.01)
    optimizer.setup(model)

    train_iter = chainer.iterators.SerialIterator(train, args.batchsize)
    updater = training.updaters.StandardUpdater(
        train_iter, optimizer, converter=convert, device=device)
    trainer = training.Trainer(updater, (args.epoch, 'epoch'), out=args.out)
    trainer.extend(extensions.LogReport(trigger=(4, 'epoch')))
    trainer.extend(extensions.PrintReport(
        ['epoch', 'iteration', 'main/loss', 'main/perp']),
        trigger=(4, 'epoch'))
    trainer.run()

    sources = [device.send(x) for x, _ in test]
    hypotheses = model.translate(sources)
    correct = sum(len(h) == len(y) and (h == y).all()
                  for h, (_, y) in zip(hypotheses, test))
    log = trainer.get_extension('LogReport').log
    print(json.dumps({
        'first_loss': log[0]['main/loss'], 'last_loss': log[-1]['main/loss'],
        'last_perp': float(log[-1]['main/perp']),
        'exact_match': correct / len(test),
    }))


if __name__ == '__main__':
    main()
