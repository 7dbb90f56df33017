"""TabularDataset.slice: rows by slice, list, mask; keys by name, index,
tuple; slices of slices; what the underlying dataset is asked."""
import numpy
import pytest

from ._table import Table, as_lists, columns


@pytest.mark.parametrize('rows,expected', [
    (slice(1, 4), [1, 2, 3]), (slice(None, None, -2), [5, 3, 1]),
    (slice(-2, None), [4, 5]), (slice(10, 20), []),
    (slice(4, 0, -1), [4, 3, 2, 1]), ([5, 0, 0], [5, 0, 0]), ([-1], [5]),
    ([], []), (numpy.array([5, 0]), [5, 0]),
    ([True, False, True, False, True, False], [0, 2, 4]),
    (numpy.array([False, True, False, False, False, True]), [1, 5]),
])
def test_rows(rows, expected):
    t = Table()
    s = t.slice[rows]
    assert len(s) == len(expected)
    assert s.keys == t.keys and s.mode is tuple
    assert as_lists(s.fetch()) == columns(t, expected)


@pytest.mark.parametrize('keys,indices,mode', [
    ('b', (1,), None), (1, (1,), None), (-1, (2,), None),
    (('b',), (1,), tuple), (('c', 'a'), (2, 0), tuple),
    (['c', 'a'], (2, 0), tuple), (('a', 2), (0, 2), tuple),
    (('a', 'a'), (0, 0), tuple), ((), (), tuple),
])
def test_keys(keys, indices, mode):
    t = Table()
    s = t.slice[:, keys]
    assert s.keys == tuple('abc'[k] for k in indices)
    assert s.mode is mode
    fetched = s.fetch()
    if mode is None:
        fetched = (fetched,)
    assert as_lists(fetched) == columns(t, keys=indices)


def test_key_selection_keeps_dict_mode_and_makes_unary_tuple():
    s = Table(mode=dict).slice[:, ('c', 'a')]
    assert s.mode is dict and list(s.fetch()) == ['c', 'a']
    unary = Table(keys=('z',), mode=None)
    assert unary.slice[:, ('z',)].mode is tuple
    assert unary.slice[:, 'z'].mode is None


def test_slices_compose_into_one_read():
    t = Table(10)
    s = t.slice[1:9].slice[::-2, ('c', 'a')].slice[[3, 0], 'a']
    # rows 1..8, every second backwards: 8 6 4 2; then [3, 0]: 2 8.
    assert s.fetch().tolist() == t.table[0][[2, 8]].tolist()
    assert t.calls == [([2, 8], (0,))]
    t.calls.clear()
    assert as_lists(t.slice[2:8].slice[1:3].fetch()) == columns(t, [3, 4])
    assert t.calls == [(slice(3, 5, 1), (0, 1, 2))]


def test_whole_rows_are_asked_as_none():
    t = Table()
    t.slice[:, 'b'].fetch()
    assert t.calls == [(None, (1,))]


def test_descending_slice_down_to_row_zero():
    t = Table()
    s = t.slice[3::-1]
    assert as_lists(s.fetch()) == columns(t, [3, 2, 1, 0])
    assert as_lists(t.slice[4:1:-1].slice[::-1].fetch()) == \
        columns(t, [2, 3, 4])
    assert len(t.slice[-10:-8:-1]) == 0
    assert as_lists(t.slice[-10:-8:-1].fetch()) == columns(t, [])


def test_get_examples_of_a_slice():
    t = Table()
    s = t.slice[[3, 1, 2]]
    assert as_lists(s.get_examples(slice(0, 2), None)) == columns(t, [3, 1])
    assert as_lists(s.get_examples([2, -1], [1])) == \
        columns(t, [2, 2], keys=[1])
    assert s[0] == tuple(c[0] for c in columns(t, [3]))


@pytest.mark.parametrize('args,error,match', [
    (3, TypeError, 'indices must be'),
    ([6], IndexError, 'index 6 is out of bounds for 6 rows'),
    ([True, False], ValueError, 'one entry per row'),
    ([[0, 1]], ValueError, 'one-dimensional'),
    ([0.5], TypeError, 'ints or booleans'),
    ((slice(None), 'z'), KeyError, "no key 'z'"),
    ((slice(None), 3), IndexError, 'key index 3'),
    ((slice(None), 1.0), TypeError, 'key indices must be ints'),
    ((slice(1, 3), 'a', 'b'), ValueError, r'\[rows\] or \[rows, keys\]'),
])
def test_bad_selections(args, error, match):
    with pytest.raises(error, match=match):
        Table().slice[args]
