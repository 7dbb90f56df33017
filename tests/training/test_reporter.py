"""Reporter, report, Summary and DictSummary."""
import numpy
import pytest

import chainer_core as chainer
from chainer_core import reporter
from chainer_core.serializers import npz


def test_observers_name_their_values():
    r = reporter.Reporter()
    link = chainer.links.Linear(2, 2)
    r.add_observer('main', link)
    # Observers are known by id(): keep them alive so a new object cannot
    # take a registered id.
    child, stranger = object(), object()
    r.add_observers('main', [('/child', child)])
    observation = {}
    with r.scope(observation):
        chainer.report({'loss': 1.0}, link)
        chainer.report({'plain': 2})
    assert observation == {'main/loss': 1.0, 'plain': 2}
    with r.scope({}):
        with pytest.raises(KeyError, match='not registered'):
            chainer.report({'x': 1}, stranger)


def test_report_without_a_reporter_does_nothing():
    chainer.report({'x': 1})
    with pytest.raises(RuntimeError, match='no reporter'):
        reporter.get_current_reporter()


def test_nested_scopes():
    outer, inner = {}, {}
    r = reporter.Reporter()
    with r.scope(outer):
        chainer.report({'a': 1})
        with reporter.report_scope(inner):
            chainer.report({'b': 2})
            assert reporter.get_current_reporter() is r
        chainer.report({'c': 3})
    assert outer == {'a': 1, 'c': 3} and inner == {'b': 2}


def test_reported_variables_are_cut_from_the_graph():
    x = chainer.Variable(numpy.array([1., 2.]))
    y = chainer.functions.sum(x * x)
    observation = {}
    with reporter.Reporter().scope(observation):
        chainer.report({'y': y})
    assert observation['y'].creator is None
    assert float(observation['y'].array) == 5.
    with chainer.using_config('keep_graph_on_report', True):
        with reporter.Reporter().scope(observation):
            chainer.report({'y': y})
    assert observation['y'] is y


def test_summary():
    s = reporter.Summary()
    for v in (1., numpy.float32(2.), chainer.Variable(numpy.array(6.))):
        s.add(v)
    assert s.compute_mean() == pytest.approx(3.)
    mean, std = s.make_statistics()
    assert mean == pytest.approx(3.)
    assert std == pytest.approx(numpy.std([1., 2., 6.]))
    s.add(10., weight=2)
    assert s.compute_mean() == pytest.approx((9. + 20.) / 5)


def test_dict_summary():
    d = reporter.DictSummary()
    d.add({'a': 1., 'b': numpy.array(4.), 'v': numpy.ones(3),
           'text': 'x', 'flag': True, 'w': (2., 3)})
    d.add({'a': 3., 'w': (chainer.Variable(numpy.array(6.)),
                          numpy.array(1))})
    assert d.compute_mean() == {'a': 2., 'b': 4.,
                                'w': pytest.approx((6. + 6.) / 4)}
    stats = d.make_statistics()
    assert stats['a'] == 2. and stats['a.std'] == pytest.approx(1.)
    with pytest.raises(ValueError, match="weight of 'bad'"):
        d.add({'bad': (1., numpy.ones(2))})


def test_dict_summary_serialization(tmp_path):
    d = reporter.DictSummary()
    d.add({'a': 1., 'b': 2.})
    d.add({'a': 2.})
    path = str(tmp_path / 'd.npz')
    npz.save_npz(path, d)
    loaded = reporter.DictSummary()
    loaded.add({'stale': 1.})
    npz.load_npz(path, loaded)
    assert loaded.compute_mean() == d.compute_mean()
    loaded.add({'a': 6.})
    assert loaded.compute_mean()['a'] == pytest.approx(3.)
