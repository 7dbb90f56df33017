"""FailOnNonNumber, observe_value/observe_lr, ParameterStatistics,
MicroAverage, unchain_variables and DumpGraph."""
import re

import numpy
import pytest

import chainer_core as chainer
from chainer_core import configuration
from chainer_core.serializers import npz
from chainer_core.testing import get_trainer_with_mock_updater
from chainer_core.training import extensions

from ._util import Regressor, make_trainer


@pytest.mark.parametrize('bad', [numpy.nan, numpy.inf, -numpy.inf])
def test_fail_on_nonnumber_stops_training(tmp_path, bad):
    trainer = make_trainer(tmp_path, stop=(10, 'iteration'))
    model = trainer.updater.get_optimizer('main').target
    iterations = []

    def poison(t):
        iterations.append(t.updater.iteration)
        if t.updater.iteration == 3:
            model.fc.b.array[1] = bad

    trainer.extend(poison, priority=chainer.training.PRIORITY_WRITER)
    trainer.extend(extensions.FailOnNonNumber())
    with pytest.raises(RuntimeError, match=r'value of parameter /fc/b .*'
                       r"optimizer 'main' holds NaN or Inf at iteration 3"):
        trainer.run(show_loop_exception_msg=False)
    assert iterations == [1, 2, 3]


def test_fail_on_nonnumber_from_diverging_training(tmp_path):
    # A far too large step makes the parameters overflow.
    trainer = make_trainer(tmp_path, stop=(200, 'iteration'),
                           optimizer=chainer.optimizers.SGD(lr=10.))
    trainer.extend(extensions.FailOnNonNumber())
    with numpy.errstate(all='ignore'):
        with pytest.raises(RuntimeError, match='NaN or Inf'):
            trainer.run(show_loop_exception_msg=False)
    assert trainer.updater.iteration < 200


def test_fail_on_nonnumber_checks_gradients(tmp_path):
    def run(check_grad):
        trainer = make_trainer(tmp_path, stop=(2, 'iteration'))
        model = trainer.updater.get_optimizer('main').target

        def poison_grad(t):
            model.fc.W.grad = numpy.full_like(model.fc.W.array, numpy.nan)

        trainer.extend(poison_grad, priority=chainer.training.PRIORITY_WRITER)
        trainer.extend(extensions.FailOnNonNumber(check_grad=check_grad))
        trainer.run(show_loop_exception_msg=False)

    run(False)
    with pytest.raises(RuntimeError, match='gradient of parameter /fc/W'):
        run(True)


def test_fail_on_nonnumber_passes_finite_training(tmp_path):
    trainer = make_trainer(tmp_path, stop=(5, 'iteration'))
    trainer.extend(extensions.FailOnNonNumber())
    trainer.run()
    assert trainer.updater.iteration == 5


def test_observe_value_and_lr(tmp_path):
    trainer = make_trainer(tmp_path, stop=(2, 'epoch'))
    trainer.extend(extensions.observe_value(
        'iteration_twice', lambda t: t.updater.iteration * 2))
    trainer.extend(extensions.observe_lr())
    trainer.extend(extensions.LogReport())
    trainer.run()
    log = trainer.get_extension('LogReport').log
    assert [e['iteration_twice'] for e in log] == [8, 16]
    assert [e['lr'] for e in log] == [0.05, 0.05]
    assert extensions.observe_lr().priority == \
        chainer.training.PRIORITY_WRITER


def test_parameter_statistics(tmp_path):
    trainer = make_trainer(tmp_path, stop=(2, 'iteration'))
    model = trainer.updater.get_optimizer('main').target
    snapshots = []
    trainer.extend(lambda t: snapshots.append(
        (model.fc.W.array.copy(), model.fc.W.grad.copy())), name='copy',
        priority=chainer.training.PRIORITY_WRITER + 1)
    stats = extensions.ParameterStatistics(model, trigger=(2, 'iteration'))
    trainer.extend(stats)
    trainer.extend(extensions.ParameterStatistics(
        model.fc, statistics={'norm': lambda x: numpy.sqrt((x * x).sum())},
        report_grads=False, prefix='p', trigger=(1, 'iteration')),
        name='custom')
    observations = []
    trainer.extend(lambda t: observations.append(dict(t.observation)),
                   name='look', priority=0)
    trainer.run()
    assert 'None/fc/W/data/mean' not in observations[0]
    last = observations[-1]
    W = numpy.stack([s[0] for s in snapshots])
    gW = numpy.stack([s[1] for s in snapshots])
    assert last['None/fc/W/data/mean'] == pytest.approx(
        numpy.mean([w.mean() for w in W]))
    assert last['None/fc/W/grad/max'] == pytest.approx(
        numpy.mean([g.max() for g in gW]))
    assert last['None/fc/b/data/zeros'] == pytest.approx(0)
    percentiles = [last['None/fc/W/data/percentile/{}'.format(i)]
                   for i in range(7)]
    assert percentiles == sorted(percentiles)
    assert last['None/fc/W/data/percentile/3'] == pytest.approx(
        numpy.mean([numpy.median(w) for w in W]))
    # The child link fc: its own name, then the prefix.
    assert observations[0]['p/fc/W/data/norm'] == pytest.approx(
        numpy.sqrt((W[0] ** 2).sum()))
    assert not any(k.startswith('p/') and '/grad/' in k for k in last)
    stats.register_statistics('one', lambda x: 1.)
    assert 'one' in stats._statistics
    with pytest.raises(ValueError, match='statistics'):
        extensions.ParameterStatistics(model, statistics='all')


def test_parameter_statistics_skip_nan(tmp_path):
    model = Regressor()
    model.fc.b.array[0] = numpy.nan
    trainer = get_trainer_with_mock_updater((1, 'iteration'),
                                            out=str(tmp_path))
    trainer.extend(extensions.ParameterStatistics(
        model, report_grads=False, skip_nan_params=True,
        trigger=(1, 'iteration')))
    seen = []
    trainer.extend(lambda t: seen.append(dict(t.observation)), name='look',
                   priority=0)
    trainer.run()
    assert numpy.isnan(seen[0]['None/fc/b/data/mean'])
    assert not numpy.isnan(seen[0]['None/fc/W/data/mean'])


def test_micro_average(tmp_path):
    counts = {1: (3, 4), 2: (1, 4), 3: (2, 2), 4: (0, 1)}
    trainer = get_trainer_with_mock_updater((4, 'iteration'),
                                            iter_per_epoch=2,
                                            out=str(tmp_path))

    def report(t):
        correct, total = counts[t.updater.iteration]
        t.observation['correct'] = correct
        t.observation['total'] = total

    trainer.extend(report, priority=chainer.training.PRIORITY_WRITER)
    trainer.extend(extensions.MicroAverage('correct', 'total', 'accuracy'))
    seen = []
    trainer.extend(lambda t: seen.append(t.observation.get('accuracy')),
                   name='look', priority=0)
    trainer.run()
    assert seen == [None, pytest.approx(4 / 8), None, pytest.approx(2 / 3)]
    ext = trainer.get_extension('MicroAverage')
    ext._numerator, ext._denominator = 5., 7.
    npz.save_npz(str(tmp_path / 'm.npz'), ext)
    fresh = extensions.MicroAverage('correct', 'total', 'accuracy')
    npz.load_npz(str(tmp_path / 'm.npz'), fresh)
    assert (fresh._numerator, fresh._denominator) == (5., 7.)


def test_unchain_variables(tmp_path):
    trainer = make_trainer(tmp_path, stop=(1, 'iteration'))
    creators = []
    with chainer.using_config('keep_graph_on_report', True):
        trainer.extend(lambda t: creators.append(
            t.observation['main/loss'].creator), name='before',
            priority=chainer.training.PRIORITY_READER)
        trainer.extend(extensions.unchain_variables)
        trainer.extend(lambda t: creators.append(
            t.observation['main/loss'].creator), name='after',
            priority=-1)
        trainer.run()
    assert creators[0] is not None and creators[1] is None


def test_dump_graph(tmp_path):
    trainer = make_trainer(tmp_path, stop=(3, 'iteration'))
    original = configuration.config.keep_graph_on_report
    trainer.extend(extensions.DumpGraph('main/loss'))
    during = []
    trainer.extend(lambda t: during.append(
        configuration.config.keep_graph_on_report), name='flag',
        priority=chainer.training.PRIORITY_WRITER)
    trainer.run()
    assert during == [True, original, original]
    assert configuration.config.keep_graph_on_report == original
    dot = (tmp_path / 'cg.dot').read_text()
    assert dot.startswith('digraph graphname{rankdir=TB;')
    assert dot.rstrip().endswith('}')
    nodes = dict(re.findall(r'(\d+) \[label="([^"]*)"', dot))
    edges = re.findall(r'(\d+) -> (\d+);', dot)
    labels = sorted(nodes.values())
    # loss = sum((x W^T + b - t)^2) / 5: the ops of the graph, and the
    # variables (x, W, b, t and the intermediate results).
    functions = [lab for lab in labels if 'float32' not in lab]
    # The operators carry Chainer's labels.
    assert len(functions) == 5
    assert {'LinearFunction', '_ - _', '_ * _', 'Sum'} <= set(functions)
    # Parameters by name; x (5, 3); the 0-dim loss.
    assert 'W: (2, 3), float32' in labels and 'b: (2), float32' in labels
    assert '(5, 3), float32' in labels and 'float32' in labels
    for src, dst in edges:
        assert src in nodes and dst in nodes
    # Every function node has its inputs and one output in the file.
    linear = next(i for i, lab in nodes.items() if lab == 'LinearFunction')
    assert sum(1 for s, d in edges if d == linear) == 3
    assert sum(1 for s, d in edges if s == linear) == 1


def test_dump_graph_errors(tmp_path):
    trainer = make_trainer(tmp_path, stop=(1, 'iteration'))
    trainer.extend(extensions.DumpGraph('main/missing', filename='g.dot'))
    with pytest.raises(KeyError, match='main/missing'):
        trainer.run(show_loop_exception_msg=False)
    assert configuration.config.keep_graph_on_report is False
