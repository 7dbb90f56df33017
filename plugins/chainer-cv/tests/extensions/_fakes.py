"""A tiny trainer and predictors whose outputs are known, for the tests
of the evaluator extensions."""
import numpy

import chainer_core as chainer
import chainer_core.functions as F
import chainer_core.links as L
from chainer_core import training


class _Regressor(chainer.Chain):

    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.fc = L.Linear(2, 1)

    def forward(self, x, t):
        loss = F.mean_squared_error(self.fc(x), t)
        chainer.report({'loss': loss}, self)
        return loss


def make_trainer(out, iterations=2):
    """Two iterations of SGD on a small regression: the evaluators run
    after them, as in a real training."""
    rng = numpy.random.RandomState(0)
    data = chainer.datasets.TupleDataset(
        rng.randn(8, 2).astype(numpy.float32),
        rng.randn(8, 1).astype(numpy.float32))
    optimizer = chainer.optimizers.SGD(lr=0.01)
    optimizer.setup(_Regressor())
    updater = training.updaters.StandardUpdater(
        chainer.iterators.SerialIterator(data, 4), optimizer)
    return training.Trainer(updater, (iterations, 'iteration'), out=str(out))


class FakePredictor(chainer.Link):
    """``predict`` returns, for the image filled with ``i``, the ``i``-th
    entry of each of ``outputs``; it also records the batch sizes."""

    def __init__(self, *outputs, single=False):
        super().__init__()
        self.outputs = outputs
        self.single = single
        self.batches = []

    def predict(self, imgs):
        self.batches.append(len(imgs))
        index = [int(img.flat[0]) for img in imgs]
        results = tuple([output[i] for i in index] for output in self.outputs)
        return results[0] if self.single else results


def image(i, size=(4, 4)):
    return numpy.full((3,) + size, i, dtype=numpy.float32)


def iterator(examples, batch_size=2):
    return chainer.iterators.SerialIterator(examples, batch_size,
                                            repeat=False, shuffle=False)


def run_and_log(trainer, extension):
    """Run ``trainer`` with ``extension`` every iteration; the last
    entry of the log."""
    trainer.extend(extension, trigger=(1, 'iteration'))
    trainer.extend(training.extensions.LogReport(trigger=(1, 'iteration')))
    trainer.run()
    return trainer.get_extension('LogReport').log[-1]
