#!/usr/bin/env python
"""An LSTM language model on a synthetic corpus, trained with truncated
backpropagation through time (backward, then unchain_backward) and gradient
clipping; reports perplexity."""
import argparse
import json

import numpy

import chainer
import chainer.functions as F
import chainer.links as L
from chainer import training
from chainer.training import extensions


class RNNLM(chainer.Chain):

    def __init__(self, n_vocab, n_units):
        super(RNNLM, self).__init__()
        with self.init_scope():
            self.embed = L.EmbedID(n_vocab, n_units)
            self.l1 = L.LSTM(n_units, n_units)
            self.l2 = L.Linear(n_units, n_vocab)

    def reset_state(self):
        self.l1.reset_state()

    def forward(self, x):
        h = self.l1(F.dropout(self.embed(x), 0.1))
        return self.l2(F.dropout(h, 0.1))


class ParallelSequentialIterator(chainer.dataset.Iterator):
    """Reads ``batch_size`` positions of the corpus in step, each starting
    at its own offset; a batch is the current words and the next ones."""

    def __init__(self, dataset, batch_size, repeat=True):
        self.dataset = dataset
        self.batch_size = batch_size
        self.repeat = repeat
        self.offsets = [i * len(dataset) // batch_size
                        for i in range(batch_size)]
        self.reset()

    def reset(self):
        self.iteration = 0
        self.epoch = 0
        self.is_new_epoch = False

    def __next__(self):
        length = len(self.dataset)
        if not self.repeat and self.iteration * self.batch_size >= length:
            raise StopIteration
        cur = [self.dataset[(o + self.iteration) % length]
               for o in self.offsets]
        nxt = [self.dataset[(o + self.iteration + 1) % length]
               for o in self.offsets]
        self.iteration += 1
        epoch = self.iteration * self.batch_size // length
        self.is_new_epoch = self.epoch < epoch
        self.epoch = epoch
        return list(zip(cur, nxt))

    @property
    def epoch_detail(self):
        return self.iteration * self.batch_size / len(self.dataset)

    def serialize(self, serializer):
        self.iteration = serializer('iteration', self.iteration)
        self.epoch = serializer('epoch', self.epoch)


class BPTTUpdater(training.updaters.StandardUpdater):

    def __init__(self, train_iter, optimizer, bprop_len, device):
        super(BPTTUpdater, self).__init__(train_iter, optimizer,
                                          device=device)
        self.bprop_len = bprop_len

    def update_core(self):
        train_iter = self.get_iterator('main')
        optimizer = self.get_optimizer('main')
        loss = 0
        for _ in range(self.bprop_len):
            x, t = self.converter(train_iter.__next__(), self.device)
            loss += optimizer.target(x, t)
        optimizer.target.cleargrads()
        loss.backward()
        loss.unchain_backward()  # truncate: the next pass stops here
        optimizer.update()


def make_corpus(n_words, rng):
    """Words follow a fixed successor table, with some noise."""
    n_vocab = 12
    successor = rng.permutation(n_vocab)
    words = [0]
    for _ in range(n_words - 1):
        if rng.rand() < 0.1:
            words.append(rng.randint(n_vocab))
        else:
            words.append(successor[words[-1]])
    return numpy.array(words, dtype=numpy.int32)


def compute_perplexity(result):
    result['perplexity'] = numpy.exp(result['main/loss'])
    if 'validation/main/loss' in result:
        result['val_perplexity'] = numpy.exp(result['validation/main/loss'])


def main():
    parser = argparse.ArgumentParser(description='LSTM language model')
    parser.add_argument('--batchsize', '-b', type=int, default=8)
    parser.add_argument('--bproplen', '-l', type=int, default=10)
    parser.add_argument('--epoch', '-e', type=int, default=6)
    parser.add_argument('--device', '-d', type=str, default='-1')
    parser.add_argument('--gradclip', '-c', type=float, default=5)
    parser.add_argument('--out', '-o', default='result')
    parser.add_argument('--unit', '-u', type=int, default=32)
    parser.add_argument('--seed', type=int, default=0)
    args = parser.parse_args()

    numpy.random.seed(args.seed)
    device = chainer.get_device(args.device)
    device.use()

    rng = numpy.random.RandomState(args.seed)
    corpus = make_corpus(1400, rng)
    train, val = corpus[:1200], corpus[1200:]
    n_vocab = corpus.max() + 1  # a numpy.int32, as is usual
    print('#vocab = {}'.format(n_vocab))

    rnn = RNNLM(n_vocab, args.unit)
    model = L.Classifier(rnn)
    model.compute_accuracy = False
    model.to_device(device)

    optimizer = chainer.optimizers.SGD(lr=1.0)
    optimizer.setup(model)
    optimizer.add_hook(chainer.optimizer_hooks.GradientClipping(args.gradclip))

    train_iter = ParallelSequentialIterator(train, args.batchsize)
    val_iter = ParallelSequentialIterator(val, 1, repeat=False)
    updater = BPTTUpdater(train_iter, optimizer, args.bproplen, device)
    trainer = training.Trainer(updater, (args.epoch, 'epoch'), out=args.out)

    eval_model = model.copy()
    eval_rnn = eval_model.predictor
    trainer.extend(extensions.Evaluator(
        val_iter, eval_model, device=device,
        eval_hook=lambda _: eval_rnn.reset_state()))
    trainer.extend(extensions.LogReport(postprocess=compute_perplexity))
    trainer.extend(extensions.PrintReport(
        ['epoch', 'iteration', 'perplexity', 'val_perplexity']))
    trainer.run()

    log = trainer.get_extension('LogReport').log
    print(json.dumps({
        'n_vocab': int(n_vocab),
        'first_perplexity': float(log[0]['perplexity']),
        'last_perplexity': float(log[-1]['perplexity']),
        'val_perplexity': float(log[-1]['val_perplexity']),
    }))


if __name__ == '__main__':
    main()
