"""Evaluator: means over a whole validation set, names, mode, hooks."""
import numpy
import pytest

import chainer_core as chainer
from chainer_core import configuration
from chainer_core.training import extensions

from ._util import Regressor, dataset, make_trainer


class _Probe(chainer.Chain):
    """Reports the batch mean of x and remembers the mode of each call."""

    def __init__(self):
        super().__init__()
        self.modes = []

    def forward(self, x, t=None):
        self.modes.append((configuration.config.train,
                           configuration.config.enable_backprop))
        chainer.report({'mean_x': x.mean(), 'size': float(len(x))}, self)
        return x


def _iterator(n=10, batch_size=4, repeat=False):
    x = numpy.arange(n, dtype=numpy.float32)
    return chainer.iterators.SerialIterator(x, batch_size, repeat=repeat,
                                            shuffle=False)


def test_means_over_the_dataset():
    probe = _Probe()
    evaluator = extensions.Evaluator(_iterator(), probe)
    result = evaluator()
    # Each batch counts once: batches [0..3], [4..7], [8, 9].
    assert result['main/mean_x'] == pytest.approx((1.5 + 5.5 + 8.5) / 3)
    assert result['main/size'] == pytest.approx((4 + 4 + 2) / 3)
    assert probe.modes == [(False, False)] * 3
    # Every call sweeps the whole set again.
    assert evaluator()['main/mean_x'] == pytest.approx(result['main/mean_x'])
    assert len(probe.modes) == 6


def test_reported_in_the_trainer_under_the_extension_name(tmp_path):
    trainer = make_trainer(tmp_path, stop=(2, 'epoch'))
    model = trainer.updater.get_optimizer('main').target
    test = dataset(7, seed=5)
    trainer.extend(extensions.Evaluator(
        chainer.iterators.SerialIterator(test, 3, repeat=False,
                                         shuffle=False), model))
    whole = chainer.iterators.SerialIterator(test, 7, repeat=False,
                                             shuffle=False)
    trainer.extend(extensions.Evaluator(whole, model), name='full')
    trainer.extend(extensions.LogReport())
    trainer.run()
    entry = trainer.get_extension('LogReport').log[-1]
    with chainer.using_config('train', False):
        x, t = chainer.dataset.concat_examples(test)
        full = float(model(x, t).array)
    assert entry['full/main/loss'] == pytest.approx(full, rel=1e-5)
    # Batches of 3, 3 and 1 are averaged per batch.
    parts = []
    for s in (slice(0, 3), slice(3, 6), slice(6, 7)):
        parts.append(float(model(x[s], t[s]).array))
    assert entry['validation/main/loss'] == pytest.approx(
        numpy.mean(parts), rel=1e-5)


def test_eval_hook_eval_func_converter_and_device():
    seen = []
    hooks = []

    def converter(batch, device):
        seen.append(device)
        return chainer.dataset.concat_examples(batch, device)

    def eval_func(x):
        chainer.report({'total': x.sum()})

    evaluator = extensions.Evaluator(
        _iterator(6, 3), _Probe(), converter=converter, device='@numpy',
        eval_hook=lambda e: hooks.append(e), eval_func=eval_func)
    result = evaluator()
    assert hooks == [evaluator]
    assert seen == ['@numpy', '@numpy']
    assert result == {'total': pytest.approx((3 + 12) / 2)}


def test_dict_iterators_and_targets():
    probe = _Probe()
    evaluator = extensions.Evaluator({'main': _iterator()}, {'main': probe})
    assert evaluator.get_iterator('main') is evaluator.get_all_iterators()[
        'main']
    assert evaluator.get_target('main') is probe
    assert 'main/mean_x' in evaluator()
    with pytest.raises(TypeError, match='main'):
        extensions.Evaluator({'other': _iterator()}, probe)
    with pytest.raises(TypeError, match='target'):
        extensions.Evaluator(_iterator(), {'other': probe})


def test_repeating_iterator_warns():
    with pytest.warns(UserWarning, match='repeat'):
        extensions.Evaluator(_iterator(repeat=True), _Probe())


def test_progress_bar(capsys):
    extensions.Evaluator(_iterator(10, 4), _Probe(), progress_bar=True)()
    out = capsys.readouterr().out
    assert 'validation: 10/10 examples' in out


def test_links_of_the_target_report_with_their_path():
    class Outer(chainer.Chain):
        def __init__(self):
            super().__init__()
            with self.init_scope():
                self.inner = _Probe()

        def forward(self, x):
            return self.inner(x)

    evaluator = extensions.Evaluator(_iterator(), Outer())
    assert 'main/inner/mean_x' in evaluator()


def test_evaluator_defaults():
    evaluator = extensions.Evaluator(_iterator(), Regressor())
    assert evaluator.default_name == 'validation'
    assert evaluator.trigger == (1, 'epoch')
    assert evaluator.priority == chainer.training.PRIORITY_WRITER
    with pytest.raises(TypeError, match='unexpected'):
        extensions.Evaluator(_iterator(), Regressor(), progress=True)
