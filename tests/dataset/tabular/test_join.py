"""TabularDataset.join: columns of several datasets side by side."""
import pytest

from ._table import Table, as_lists, columns


def _pair():
    return Table(4), Table(4, keys=('d', 'e'), mode=dict, offset=100)


def test_columns_side_by_side():
    a, b = _pair()
    j = a.join(b)
    assert j.keys == ('a', 'b', 'c', 'd', 'e')
    assert j.mode is tuple and len(j) == 4
    assert as_lists(j.fetch()) == columns(a) + columns(b)
    assert j[1] == tuple(c[1] for c in columns(a) + columns(b))


def test_each_dataset_is_asked_only_its_keys_once():
    a, b = _pair()
    got = a.join(b).get_examples([1, 2], (4, 0, 4))
    assert as_lists(got) == (columns(b, [1, 2], [1]) +
                             columns(a, [1, 2], [0]) +
                             columns(b, [1, 2], [1]))
    assert a.calls == [([1, 2], (0,))] and b.calls == [([1, 2], (1,))]
    a.calls.clear()
    a.join(b).get_examples(None, (3,))
    assert a.calls == []


def test_mode_of_the_first_or_tuple():
    a, b = _pair()
    assert b.join(a).mode is dict
    unary = Table(4, keys=('z',), mode=None)
    assert unary.join(a).mode is tuple
    assert unary.join().mode is tuple


def test_convert_of_the_first():
    a, b = _pair()
    j = a.with_converter(lambda *columns: len(columns)).join(b)
    assert j.convert(j.fetch()) == 5


def test_slice_of_a_join():
    a, b = _pair()
    s = a.join(b).slice[1:3, ('e', 'a')]
    assert as_lists(s.fetch()) == columns(b, slice(1, 3), [1]) + \
        columns(a, slice(1, 3), [0])


def test_bad_datasets():
    a, _ = _pair()
    with pytest.raises(ValueError, match=r'same length, got \[4, 3\]'):
        a.join(Table(3, keys=('d',)))
    with pytest.raises(ValueError, match="key 'a' appears twice"):
        a.join(Table(4, keys=('a', 'z')))
    with pytest.raises(TypeError, match='TabularDataset'):
        a.join({'d': [1, 2, 3, 4]})
