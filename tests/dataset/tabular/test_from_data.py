"""tabular.from_data: arrays, lists and functions, alone, in tuples or in
dicts; keys, modes, sizes and errors."""
import numpy
import pytest

from chainer_core.dataset import tabular


def test_one_array_is_mode_none():
    x = numpy.arange(10) * 3
    d = tabular.from_data(x)
    assert d.mode is None and len(d) == 10 and len(d.keys) == 1
    assert d[4] == 12 and d[1:3] == [3, 6]
    # The whole column is the array itself.
    assert d.fetch() is x
    assert d.get_examples([2, 0], None)[0].tolist() == [6, 0]
    assert d.get_examples(slice(1, 5, 2), None)[0].tolist() == [3, 9]


def test_list_columns_stay_lists():
    data = [10, 11, 12, 13, 14]
    d = tabular.from_data(('k', data))
    assert d.keys == ('k',) and d.mode is None
    assert d.fetch() is data
    assert d.get_examples(slice(1, 4), None) == ([11, 12, 13],)
    assert d.get_examples([0, 2], None) == ([10, 12],)
    assert d.get_examples(numpy.array([4]), None) == ([14],)
    assert d.get_examples([0, 2], ()) == ()


def test_tuple_of_columns():
    x, y = numpy.arange(5), numpy.arange(5) * 2
    d = tabular.from_data((x, ('y', y)))
    assert d.mode is tuple and d.keys[1] == 'y' and d.keys[0] != d.keys[1]
    assert d[3] == (3, 6)
    assert d[1:3] == [(1, 2), (2, 4)]
    fetched = d.fetch()
    assert fetched[0] is x and fetched[1] is y
    assert tabular.from_data(([1, 2],)).mode is tuple


def test_dict_of_columns():
    d = tabular.from_data({'x': numpy.arange(3), 'y': [5, 6, 7]})
    assert d.mode is dict and d.keys == ('x', 'y')
    assert d[0:2] == [{'x': 0, 'y': 5}, {'x': 1, 'y': 6}]
    assert tabular.from_data({'a': [1, 2]}).mode is dict


def test_functions():
    calls = []

    def square(i):
        calls.append(i)
        return i * i

    d = tabular.from_data(('sq', square), size=5)
    assert d.keys == ('sq',) and len(d) == 5 and calls == []
    assert d[3] == 9 and calls == [3]
    assert d.fetch() == [0, 1, 4, 9, 16]
    two = tabular.from_data((('c', square), ('d', lambda i: -i)), size=4)
    calls.clear()
    assert two.get_examples([3, 1], [1]) == ([-3, -1],)
    assert calls == []
    assert two.get_examples([3, 1], [0, 1, 0]) == ([9, 1], [-3, -1], [9, 1])


def test_functions_take_the_length_of_the_arrays():
    d = tabular.from_data((('neg', lambda i: -i), numpy.arange(3)))
    assert len(d) == 3 and d.fetch()[0] == [0, -1, -2]
    d = tabular.from_data({'x': [4, 5], 'f': lambda i: i + 100})
    assert d[1] == {'x': 5, 'f': 101}


def test_rows_keep_array_shapes():
    x = numpy.arange(6.).reshape(3, 2)
    d = tabular.from_data(x)
    assert d[1].tolist() == [2., 3.]
    assert d.get_examples([0], None)[0].shape == (1, 2)


@pytest.mark.parametrize('data,size,error,match', [
    (lambda i: i, 3, ValueError, 'a function needs a key'),
    (('k', lambda i: i), None, ValueError, "size is required .* 'k'"),
    ((numpy.arange(3), ('q', numpy.arange(4))), None, ValueError,
     "every column must have 3 rows, the column 'q' has 4"),
    ((numpy.arange(3), ('c', lambda i: i)), 4, ValueError,
     'every column must have 4 rows'),
    (numpy.arange(3), 4, ValueError, 'every column must have 4 rows'),
    (5, None, TypeError, 'a column must be a list, an array or a function'),
    ('abc', None, TypeError, 'got str'),
    ((), None, ValueError, 'no column'),
    ({}, None, ValueError, 'no column'),
    ((('k', [1]), ('k', [2])), None, ValueError, "'k' appears twice"),
])
def test_bad_data(data, size, error, match):
    with pytest.raises(error, match='from_data: .*' + match):
        tabular.from_data(data, size=size)
