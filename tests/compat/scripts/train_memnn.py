#!/usr/bin/env python
"""An end-to-end memory network answering "where is X?" about short
synthetic stories ("X went to Y"), with several hops of soft attention over
the sentences."""
import argparse
import json

import numpy

import chainer
import chainer.functions as F
import chainer.initializers as I
import chainer.links as L
from chainer import training
from chainer.training import extensions

N_ENTITY = 3
N_PLACE = 5
WENT = 1 + N_ENTITY + N_PLACE  # word ids: 0 padding, entities, places, verb
N_VOCAB = WENT + 1


class Memory(chainer.Chain):
    """One hop: attend over the sentences with the query, add what was
    read to it."""

    def __init__(self, n_units, max_memory):
        super(Memory, self).__init__()
        with self.init_scope():
            self.A = L.EmbedID(N_VOCAB, n_units, ignore_label=0)
            self.C = L.EmbedID(N_VOCAB, n_units, ignore_label=0)
            self.TA = chainer.Parameter(I.Normal(0.1), (max_memory, n_units))
            self.TC = chainer.Parameter(I.Normal(0.1), (max_memory, n_units))

    def forward(self, story, u):
        n_sent = story.shape[1]
        m = F.sum(self.A(story), axis=2) + self.TA[:n_sent]
        c = F.sum(self.C(story), axis=2) + self.TC[:n_sent]
        p = F.softmax(F.squeeze(F.matmul(m, F.expand_dims(u, 2)), axis=2))
        o = F.sum(c * F.broadcast_to(F.expand_dims(p, 2), c.shape), axis=1)
        return u + o


class MemNN(chainer.Chain):

    def __init__(self, n_units, max_memory, hops):
        super(MemNN, self).__init__()
        with self.init_scope():
            self.B = L.EmbedID(N_VOCAB, n_units, ignore_label=0)
            self.memories = chainer.ChainList(
                *[Memory(n_units, max_memory) for _ in range(hops)])
            self.W = L.Linear(n_units, N_VOCAB)

    def forward(self, story, query):
        u = F.sum(self.B(query), axis=1)
        for memory in self.memories:
            u = memory(story, u)
        return self.W(u)


def make_stories(n, n_sent, rng):
    stories = numpy.zeros((n, n_sent, 3), numpy.int32)
    queries = numpy.zeros((n, 1), numpy.int32)
    answers = numpy.zeros(n, numpy.int32)
    for i in range(n):
        where = {}
        for j in range(n_sent):
            entity = 1 + rng.randint(N_ENTITY)
            place = 1 + N_ENTITY + rng.randint(N_PLACE)
            stories[i, j] = entity, WENT, place
            where[entity] = place
        asked = rng.choice(sorted(where))
        queries[i, 0] = asked
        answers[i] = where[asked]
    return chainer.datasets.TupleDataset(stories, queries, answers)


def main():
    parser = argparse.ArgumentParser(description='Memory network')
    parser.add_argument('--batchsize', '-b', type=int, default=32)
    parser.add_argument('--epoch', '-e', type=int, default=10)
    parser.add_argument('--device', '-d', type=str, default='-1')
    parser.add_argument('--unit', '-u', type=int, default=20)
    parser.add_argument('--hop', type=int, default=3)
    parser.add_argument('--sentence', type=int, default=4)
    parser.add_argument('--out', '-o', default='result')
    parser.add_argument('--seed', type=int, default=0)
    args = parser.parse_args()

    numpy.random.seed(args.seed)
    device = chainer.get_device(args.device)
    device.use()

    rng = numpy.random.RandomState(args.seed)
    train = make_stories(1000, args.sentence, rng)
    test = make_stories(200, args.sentence, rng)

    model = L.Classifier(MemNN(args.unit, args.sentence, args.hop),
                         label_key=-1)
    model.to_device(device)
    optimizer = chainer.optimizers.Adam(alpha=0.01)
    optimizer.setup(model)
    optimizer.add_hook(chainer.optimizer_hooks.GradientClipping(40))

    train_iter = chainer.iterators.SerialIterator(train, args.batchsize)
    test_iter = chainer.iterators.SerialIterator(test, args.batchsize,
                                                 repeat=False, shuffle=False)
    updater = training.updaters.StandardUpdater(
        train_iter, optimizer, device=device)
    trainer = training.Trainer(updater, (args.epoch, 'epoch'), out=args.out)
    trainer.extend(extensions.Evaluator(test_iter, model, device=device))
    trainer.extend(extensions.LogReport(trigger=(5, 'epoch')))
    trainer.extend(extensions.PrintReport(
        ['epoch', 'main/loss', 'validation/main/loss',
         'validation/main/accuracy']), trigger=(5, 'epoch'))
    trainer.run()

    log = trainer.get_extension('LogReport').log
    print(json.dumps({
        'first_loss': log[0]['main/loss'], 'last_loss': log[-1]['main/loss'],
        'val_accuracy': log[-1]['validation/main/accuracy'],
    }))


if __name__ == '__main__':
    main()
