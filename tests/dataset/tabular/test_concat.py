"""TabularDataset.concat: rows of several datasets, read dataset by
dataset and put back in the order asked for."""
import numpy
import pytest

from chainer_core.dataset import tabular

from ._table import Table, as_lists


def _pair():
    # Rows 0-3 from a, 4-6 from b; b's values are a's plus 100.
    return Table(4), Table(3, offset=100)


def _reference(a, b):
    return numpy.concatenate([a.table, b.table], axis=1)


@pytest.mark.parametrize('rows,expected', [
    (None, range(7)), (slice(2, 6), [2, 3, 4, 5]),
    (slice(6, 1, -2), [6, 4, 2]),
    (slice(None, None, -1), [6, 5, 4, 3, 2, 1, 0]),
    ([0, 5, 1, 6], [0, 5, 1, 6]), ([6, 0, 5, 1], [6, 0, 5, 1]),
    ([5, 6], [5, 6]), ([3, 4], [3, 4]), ([], []), (slice(5, 5), []),
    ([-1, -7], [6, 0]), ([True] * 7, range(7)),
])
def test_rows_across_datasets(rows, expected):
    a, b = _pair()
    c = a.concat(b)
    assert len(c) == 7 and c.keys == a.keys and c.mode is tuple
    want = _reference(a, b)[:, list(expected)]
    got = c.get_examples(rows, None)
    assert as_lists(got) == tuple(w.tolist() for w in want)


def _read(dataset):
    """The rows each call asked of ``dataset``."""
    n = len(dataset)
    return [list(range(n)[rows]) if isinstance(rows, slice) else rows
            for rows, _ in dataset.calls]


def test_each_dataset_is_read_once_with_its_own_rows():
    a, b = _pair()
    a.concat(b).get_examples([6, 0, 5, 1], (2,))
    assert a.calls == [([0, 1], (2,))] and b.calls == [([2, 1], (2,))]
    a.calls.clear()
    b.calls.clear()
    a.concat(b).get_examples(slice(6, 1, -2), None)
    assert _read(a) == [[2]] and _read(b) == [[2, 0]]
    a.calls.clear()
    b.calls.clear()
    a.concat(b).get_examples([5, 6], None)
    assert a.calls == [] and b.calls == [([1, 2], (0, 1, 2))]


def test_arrays_stay_arrays_and_lists_mix():
    a, b = _pair()
    got = a.concat(b).fetch()
    assert all(isinstance(c, numpy.ndarray) for c in got)
    listed = tabular.from_data({'v': [7, 8]})
    arrayed = tabular.from_data({'v': numpy.array([9])})
    mixed = listed.concat(arrayed).fetch()['v']
    assert [int(v) for v in mixed] == [7, 8, 9]


def test_several_and_none():
    a, b = _pair()
    c = a.concat(b, b)
    assert len(c) == 10
    assert c[9] == tuple(b.table[:, 2].tolist())
    assert as_lists(a.concat().fetch()) == tuple(a.table.tolist())


def test_mode_and_convert_of_the_first():
    a, b = _pair()
    d = Table(3, mode=dict)
    assert a.concat(d).mode is tuple and d.concat(a).mode is dict
    c = a.with_converter(lambda a, b, c: 'first').concat(b)
    assert c.convert(c.fetch()) == 'first'


def test_slices_and_indexing_of_a_concat():
    a, b = _pair()
    c = a.concat(b)
    assert c[3:5] == [tuple(a.table[:, 3]), tuple(b.table[:, 0])]
    assert c.slice[3:5, 'c'].fetch().tolist() == [a.table[2, 3],
                                                  b.table[2, 0]]


def test_bad_datasets():
    a, b = _pair()
    with pytest.raises(ValueError, match='keys .* dataset 1 has'):
        a.concat(Table(3, keys=('a', 'b')))
    with pytest.raises(ValueError, match='concat'):
        a.concat(Table(3, keys=('a', 'c', 'b')))
    with pytest.raises(TypeError, match='dataset 1 must be a TabularDataset'):
        a.concat([1, 2])
