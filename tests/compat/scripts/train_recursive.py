#!/usr/bin/env python
"""A recursive neural network over binary trees: each node's vector is
computed from its children's, and every node is classified (is the subtree
more positive than negative?). A hand-written loop walks the trees."""
import argparse
import json

import numpy

import chainer
import chainer.functions as F
import chainer.links as L

N_VOCAB = 6  # words 0-1 positive, 2-3 negative, 4-5 neutral
POLARITY = [1, 1, -1, -1, 0, 0]


class RecursiveNet(chainer.Chain):

    def __init__(self, n_units, n_label):
        super(RecursiveNet, self).__init__()
        with self.init_scope():
            self.embed = L.EmbedID(N_VOCAB, n_units)
            self.l = L.Linear(n_units * 2, n_units)
            self.w = L.Linear(n_units, n_label)

    def leaf(self, x):
        return self.embed(x)

    def node(self, left, right):
        return F.tanh(self.l(F.concat((left, right))))

    def label(self, v):
        return self.w(v)


def traverse(model, node, xp, evaluate=None, root=True):
    """Returns (vector, loss) of the subtree; counts correct root labels
    into ``evaluate`` when given."""
    if 'word' in node:
        v = model.leaf(xp.array([node['word']], numpy.int32))
        loss = 0
    else:
        left, right = node['children']
        v_left, loss_left = traverse(model, left, xp, evaluate, root=False)
        v_right, loss_right = traverse(model, right, xp, evaluate,
                                       root=False)
        v = model.node(v_left, v_right)
        loss = loss_left + loss_right
    y = model.label(v)
    t = xp.array([node['label']], numpy.int32)
    loss += F.softmax_cross_entropy(y, t)
    if evaluate is not None and root:
        predict = int(chainer.backend.CpuDevice().send(y.array).argmax())
        evaluate['correct'] += int(predict == node['label'])
        evaluate['total'] += 1
    return v, loss


def make_tree(depth, rng):
    if depth == 0 or rng.rand() < 0.2:
        word = rng.randint(N_VOCAB)
        return {'word': word, 'score': POLARITY[word],
                'label': int(POLARITY[word] > 0)}
    left, right = make_tree(depth - 1, rng), make_tree(depth - 1, rng)
    score = left['score'] + right['score']
    return {'children': (left, right), 'score': score,
            'label': int(score > 0)}


def evaluate(model, trees, xp):
    result = {'correct': 0, 'total': 0}
    with chainer.using_config('train', False), chainer.no_backprop_mode():
        for tree in trees:
            traverse(model, tree, xp, evaluate=result)
    return result['correct'] / result['total']


def main():
    parser = argparse.ArgumentParser(description='Recursive net on trees')
    parser.add_argument('--device', '-d', type=str, default='-1')
    parser.add_argument('--epoch', '-e', type=int, default=4)
    parser.add_argument('--unit', '-u', type=int, default=16)
    parser.add_argument('--batchsize', '-b', type=int, default=10)
    parser.add_argument('--seed', type=int, default=0)
    args = parser.parse_args()

    numpy.random.seed(args.seed)
    device = chainer.get_device(args.device)
    device.use()

    rng = numpy.random.RandomState(args.seed)
    train = [make_tree(3, rng) for _ in range(100)]
    test = [make_tree(3, rng) for _ in range(40)]

    model = RecursiveNet(args.unit, 2)
    model.to_device(device)
    xp = model.xp
    optimizer = chainer.optimizers.AdaGrad(lr=0.1)
    optimizer.setup(model)
    optimizer.add_hook(chainer.optimizer_hooks.WeightDecay(1e-4))

    first_accuracy = evaluate(model, test, xp)
    losses = []
    for epoch in range(args.epoch):
        total = 0.0
        order = numpy.random.permutation(len(train))
        for i in range(0, len(order), args.batchsize):
            loss = 0
            for j in order[i:i + args.batchsize]:
                _, tree_loss = traverse(model, train[j], xp)
                loss += tree_loss
            model.cleargrads()
            loss.backward()
            optimizer.update()
            total += float(loss.array)
        losses.append(total / len(train))
        print('epoch {}  loss {:.4f}'.format(epoch + 1, losses[-1]))

    print(json.dumps({
        'first_loss': losses[0], 'last_loss': losses[-1],
        'first_accuracy': first_accuracy,
        'accuracy': evaluate(model, test, xp),
    }))


if __name__ == '__main__':
    main()
