#!/usr/bin/env python
"""word2vec (skip-gram or continuous bag of words) with negative sampling,
hierarchical softmax or a plain softmax, on a synthetic corpus whose words
come in topical groups."""
import argparse
import collections
import json

import numpy

import chainer
import chainer.functions as F
import chainer.initializers as I
import chainer.links as L
from chainer import reporter
from chainer import training
from chainer.training import extensions


class ContinuousBoW(chainer.Chain):
    """Predicts a word from the mean of its context's embeddings."""

    def __init__(self, n_vocab, n_units, loss_func):
        super(ContinuousBoW, self).__init__()
        with self.init_scope():
            self.embed = L.EmbedID(n_vocab, n_units,
                                   initialW=I.Uniform(1. / n_units))
            self.loss_func = loss_func

    def forward(self, x, contexts):
        h = F.mean(self.embed(contexts), axis=1)
        loss = self.loss_func(h, x)
        reporter.report({'loss': loss}, self)
        return loss


class SkipGram(chainer.Chain):
    """Predicts each context word from the word's embedding."""

    def __init__(self, n_vocab, n_units, loss_func):
        super(SkipGram, self).__init__()
        with self.init_scope():
            self.embed = L.EmbedID(n_vocab, n_units,
                                   initialW=I.Uniform(1. / n_units))
            self.loss_func = loss_func

    def forward(self, x, contexts):
        batch_size, n_context = contexts.shape
        e = self.embed(x)
        e = F.broadcast_to(e[:, None, :], (batch_size, n_context, e.shape[1]))
        e = F.reshape(e, (batch_size * n_context, -1))
        loss = self.loss_func(e, F.reshape(contexts, (-1,)))
        reporter.report({'loss': loss}, self)
        return loss


class SoftmaxCrossEntropyLoss(chainer.Chain):

    def __init__(self, n_in, n_out):
        super(SoftmaxCrossEntropyLoss, self).__init__()
        with self.init_scope():
            self.out = L.Linear(n_in, n_out, initialW=0)

    def forward(self, x, t):
        return F.softmax_cross_entropy(self.out(x), t)


class WindowIterator(chainer.dataset.Iterator):
    """Batches of (positions of centre words, their context words)."""

    def __init__(self, corpus, window, batch_size, repeat=True):
        self.corpus = corpus
        self.window = window
        self.batch_size = batch_size
        self.repeat = repeat
        self.order = numpy.random.permutation(
            len(corpus) - 2 * window) + window
        self.current_position = 0
        self.epoch = 0
        self.is_new_epoch = False

    def __next__(self):
        if not self.repeat and self.epoch > 0:
            raise StopIteration
        i = self.current_position
        position = self.order[i:i + self.batch_size]
        offset = numpy.concatenate([numpy.arange(-self.window, 0),
                                    numpy.arange(1, self.window + 1)])
        contexts = self.corpus[position[:, None] + offset[None, :]]
        centres = self.corpus[position]
        i += self.batch_size
        if i >= len(self.order):
            numpy.random.shuffle(self.order)
            self.epoch += 1
            self.is_new_epoch = True
            i = 0
        else:
            self.is_new_epoch = False
        self.current_position = i
        return centres, contexts

    @property
    def epoch_detail(self):
        return self.epoch + float(self.current_position) / len(self.order)

    def serialize(self, serializer):
        self.current_position = serializer('current_position',
                                           self.current_position)
        self.epoch = serializer('epoch', self.epoch)
        self.is_new_epoch = serializer('is_new_epoch', self.is_new_epoch)


@chainer.dataset.converter()
def convert(batch, device):
    centres, contexts = batch
    return device.send(centres), device.send(contexts)


def make_corpus(n_words, rng):
    """Sentences of eight words drawn from one of four topics."""
    topics = numpy.arange(24, dtype=numpy.int32).reshape(4, 6)
    sentences = [rng.choice(topics[rng.randint(4)], size=8)
                 for _ in range(n_words // 8)]
    return numpy.concatenate(sentences).astype(numpy.int32)


def main():
    parser = argparse.ArgumentParser(description='word2vec')
    parser.add_argument('--device', '-d', type=str, default='-1')
    parser.add_argument('--unit', '-u', type=int, default=16)
    parser.add_argument('--window', '-w', type=int, default=2)
    parser.add_argument('--batchsize', '-b', type=int, default=64)
    parser.add_argument('--epoch', '-e', type=int, default=5)
    parser.add_argument('--model', '-m', choices=['skipgram', 'cbow'],
                        default='skipgram')
    parser.add_argument('--negative-size', type=int, default=3)
    parser.add_argument('--out-type', '-o', choices=['hsm', 'ns', 'original'],
                        default='ns')
    parser.add_argument('--out', default='result')
    parser.add_argument('--seed', type=int, default=0)
    args = parser.parse_args()

    numpy.random.seed(args.seed)
    device = chainer.get_device(args.device)
    device.use()

    corpus = make_corpus(2400, numpy.random.RandomState(args.seed))
    train, val = corpus[:2000], corpus[2000:]
    counts = collections.Counter(corpus)
    n_vocab = max(corpus) + 1
    print('n_vocab: {}  data length: {}'.format(n_vocab, len(train)))

    if args.out_type == 'hsm':
        tree = L.BinaryHierarchicalSoftmax.create_huffman_tree(counts)
        loss_func = L.BinaryHierarchicalSoftmax(args.unit, tree)
        loss_func.W.array[...] = 0
    elif args.out_type == 'ns':
        cs = [counts[w] for w in range(len(counts))]
        loss_func = L.NegativeSampling(args.unit, cs, args.negative_size)
        loss_func.W.array[...] = 0
    else:
        loss_func = SoftmaxCrossEntropyLoss(args.unit, n_vocab)

    if args.model == 'skipgram':
        model = SkipGram(n_vocab, args.unit, loss_func)
    else:
        model = ContinuousBoW(n_vocab, args.unit, loss_func)
    model.to_device(device)

    optimizer = chainer.optimizers.Adam(alpha=0.01)
    optimizer.setup(model)

    train_iter = WindowIterator(train, args.window, args.batchsize)
    val_iter = WindowIterator(val, args.window, args.batchsize, repeat=False)
    updater = training.updaters.StandardUpdater(
        train_iter, optimizer, converter=convert, device=device)
    trainer = training.Trainer(updater, (args.epoch, 'epoch'), out=args.out)
    trainer.extend(extensions.Evaluator(
        val_iter, model, converter=convert, device=device))
    trainer.extend(extensions.LogReport())
    trainer.extend(extensions.PrintReport(
        ['epoch', 'main/loss', 'validation/main/loss']))
    trainer.run()

    # Words of one topic should end up nearer each other than to others.
    w = chainer.backend.CpuDevice().send(model.embed.W.array)
    w = w / numpy.linalg.norm(w, axis=1, keepdims=True)
    similarity = w.dot(w.T)
    topic = numpy.arange(n_vocab) // 6
    same = topic[:, None] == topic[None, :]
    off_diagonal = ~numpy.eye(n_vocab, dtype=bool)
    log = trainer.get_extension('LogReport').log
    print(json.dumps({
        'first_loss': log[0]['main/loss'], 'last_loss': log[-1]['main/loss'],
        'same_topic': float(similarity[same & off_diagonal].mean()),
        'other_topic': float(similarity[~same].mean()),
    }))


if __name__ == '__main__':
    main()
