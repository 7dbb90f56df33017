"""with_converter, astuple and asdict: the same data converted or shaped
otherwise, and which converter each composition keeps."""
import pytest

from chainer_core.dataset import tabular

from ._table import Table, as_lists, columns


def test_with_converter_calls_by_mode():
    t = Table(4)
    w = t.with_converter(lambda a, b, c: a + b)
    assert w.keys == t.keys and w.mode is tuple and len(w) == 4
    a, b, _ = columns(t)
    assert w.convert(w.fetch()).tolist() == [x + y for x, y in zip(a, b)]
    assert as_lists(w.fetch()) == columns(t)
    assert w[0] == (a[0], b[0], columns(t)[2][0])
    d = Table(3, mode=dict).with_converter(lambda **kw: sorted(kw))
    assert d.convert(d.fetch()) == ['a', 'b', 'c']
    u = Table(3, keys=('z',), mode=None).with_converter(lambda z: ('got', z))
    assert u.convert(3) == ('got', 3)


def test_compositions_keep_the_converter():
    t = Table(4).with_converter(lambda *columns: len(columns))
    assert t.slice[1:].convert(t.slice[1:].fetch()) == 3
    assert t.astuple().convert(t.fetch()) == 3
    assert t.concat(Table(2)).convert(t.fetch()) == 3
    assert t.transform_batch('s', lambda a, b, c: a).convert((1, 2)) == 2
    replaced = t.with_converter(lambda *columns: 'second')
    assert replaced.convert(t.fetch()) == 'second'
    # A dict reaches a converter by keyword.
    named = Table(4).with_converter(lambda a, b, c: (a, b, c)).asdict()
    assert named.convert({'c': 3, 'a': 1, 'b': 2}) == (1, 2, 3)


def test_delegate_dataset_has_the_default_converter():
    t = Table(4)
    custom = t.with_converter(lambda *columns: 'custom')
    converted = tabular.DelegateDataset(custom).convert(t.fetch())
    assert as_lists(converted) == columns(t)


def test_with_converter_needs_a_callable():
    with pytest.raises(TypeError, match='converter must be callable, got '
                                        'int'):
        Table().with_converter(3)


@pytest.mark.parametrize('mode', [tuple, dict, None])
def test_astuple_and_asdict(mode):
    keys = ('a', 'b', 'c') if mode else ('z',)
    t = Table(4, keys=keys, mode=mode)
    as_tuple, as_dict = t.astuple(), t.asdict()
    assert as_tuple.mode is tuple and as_dict.mode is dict
    assert as_tuple is not t and as_tuple.keys == as_dict.keys == keys
    assert as_lists(as_tuple.fetch()) == columns(t)
    assert list(as_dict.fetch()) == list(keys)
    assert as_dict[1] == dict(zip(keys, (c[1] for c in columns(t))))
    assert as_tuple[1] == tuple(c[1] for c in columns(t))
    assert as_dict.astuple().mode is tuple
    assert as_lists(as_tuple.get_examples(None, [0])) == columns(t, keys=[0])
