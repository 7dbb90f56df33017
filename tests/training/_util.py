"""A small regression problem and model shared by the training tests."""
import numpy

import chainer_core as chainer
import chainer_core.functions as F
import chainer_core.links as L
from chainer_core import training


class Regressor(chainer.Chain):
    """A linear layer whose loss (reported as ``loss``) is the mean
    squared error, or the summed one with ``reduce='sum'``."""

    def __init__(self, n_in=3, n_out=2, reduce='mean', lazy=False):
        super().__init__()
        self.reduce = reduce
        with self.init_scope():
            self.fc = L.Linear(None if lazy else n_in, n_out)

    def forward(self, x, t):
        d = self.fc(x) - t
        loss = F.sum(d * d)
        if self.reduce == 'mean':
            loss = loss / len(x)
        chainer.report({'loss': loss}, self)
        return loss


def dataset(n=20, n_in=3, n_out=2, seed=0):
    rng = numpy.random.RandomState(seed)
    x = rng.randn(n, n_in).astype(numpy.float32)
    w = rng.randn(n_in, n_out).astype(numpy.float32)
    t = (x.dot(w) + 0.1 * rng.randn(n, n_out)).astype(numpy.float32)
    return chainer.datasets.TupleDataset(x, t)


def make_trainer(out, stop=(3, 'epoch'), batch_size=5, n=20, seed=0,
                 optimizer=None, shuffle=True, lazy=False):
    """A trainer of :class:`Regressor` on :func:`dataset` with SGD."""
    numpy.random.seed(seed)
    model = Regressor(lazy=lazy)
    opt = optimizer or chainer.optimizers.SGD(lr=0.05)
    opt.setup(model)
    it = chainer.iterators.SerialIterator(dataset(n), batch_size,
                                          shuffle=shuffle)
    updater = training.updaters.StandardUpdater(it, opt)
    return training.Trainer(updater, stop, out=str(out))
