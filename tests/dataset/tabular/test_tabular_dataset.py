"""TabularDataset's own API: examples in the three modes, indexing,
fetch, convert, iteration, and use by iterators and concat_examples."""
import numpy
import pytest

import chainer_core as chainer
from chainer_core.dataset import TabularDataset, tabular

from ._table import Table, columns


def test_is_a_dataset_mixin_and_exported():
    assert issubclass(TabularDataset, chainer.dataset.DatasetMixin)
    assert chainer.dataset.tabular is tabular
    with pytest.raises(NotImplementedError):
        len(TabularDataset())


@pytest.mark.parametrize('mode', [tuple, dict])
def test_examples_follow_the_mode(mode):
    t = Table(mode=mode)
    a, b, c = columns(t)

    def example(i):
        values = (a[i], b[i], c[i])
        return values if mode is tuple else dict(zip('abc', values))

    assert t[2] == example(2)
    assert t[-1] == example(5)
    assert t[numpy.int64(3)] == example(3)
    assert t[1:4] == [example(i) for i in (1, 2, 3)]
    assert t[::-2] == [example(i) for i in (5, 3, 1)]
    assert t[[4, 0, 4]] == [example(i) for i in (4, 0, 4)]
    assert t[numpy.array([1, 2])] == [example(1), example(2)]
    mask = numpy.array([True, False, False, True, False, True])
    assert t[mask] == [example(0), example(3), example(5)]
    assert list(t) == [example(i) for i in range(6)]


def test_a_slice_of_rows_is_read_in_one_call():
    t = Table()
    t[1:4]
    (rows, keys), = t.calls
    assert list(range(6)[rows]) == [1, 2, 3] and keys is None
    t.calls.clear()
    t[[5, -1]]
    assert t.calls == [([5, 5], None)]
    t.calls.clear()
    t[2]
    assert t.calls == [([2], None)]


def test_mode_none_examples_are_the_values():
    t = Table(4, keys=('z',), mode=None)
    z, = columns(t)
    assert t[1] == z[1]
    assert t[1:3] == z[1:3]
    numpy.testing.assert_array_equal(t.fetch(), z)


@pytest.mark.parametrize('bad,error', [
    (6, IndexError), (-7, IndexError), (1.5, TypeError), ('a', TypeError),
    ([6], IndexError), (numpy.array([True]), ValueError)])
def test_bad_index(bad, error):
    with pytest.raises(error, match='TabularDataset'):
        Table()[bad]


def test_fetch_follows_the_mode():
    t = Table(4)
    fetched = t.fetch()
    assert isinstance(fetched, tuple)
    for got, want in zip(fetched, columns(t)):
        numpy.testing.assert_array_equal(got, want)
    fetched = Table(4, mode=dict).fetch()
    assert list(fetched) == ['a', 'b', 'c']
    numpy.testing.assert_array_equal(fetched['c'], [8, 9, 10, 11])


def test_convert_makes_arrays():
    t = Table(4)
    converted = t.convert(([1, 2], numpy.arange(2)))
    assert all(isinstance(c, numpy.ndarray) for c in converted)
    numpy.testing.assert_array_equal(converted[0], [1, 2])
    array = numpy.arange(3)
    # Arrays are not copied.
    assert t.convert((array,))[0] is array
    converted = Table(4, mode=dict).convert({'a': [[1, 2], [3, 4]]})
    assert converted['a'].shape == (2, 2)
    numpy.testing.assert_array_equal(
        Table(4, keys=('z',), mode=None).convert([5, 6]), [5, 6])
    with pytest.raises(TypeError, match='convert: a column must be a list'):
        t.convert((1, 2, 3))


@pytest.mark.parametrize('mode', [tuple, dict, None])
def test_serial_iterator_and_concat_examples(mode):
    keys = ('a', 'b') if mode else ('a',)
    t = Table(5, keys=keys, mode=mode)
    it = chainer.iterators.SerialIterator(t, 2, repeat=False, shuffle=False)
    batches = [chainer.dataset.concat_examples(b) for b in it]
    assert len(batches) == 3
    a = t.table[0]
    if mode is tuple:
        numpy.testing.assert_array_equal(batches[1][0], a[2:4])
        numpy.testing.assert_array_equal(batches[2][1], t.table[1][4:])
    elif mode is dict:
        numpy.testing.assert_array_equal(batches[1]['a'], a[2:4])
    else:
        numpy.testing.assert_array_equal(batches[2], a[4:])


def test_shuffled_iterator_sees_every_row_once_per_epoch():
    t = tabular.from_data((numpy.arange(7), numpy.arange(7) * 10))
    it = chainer.iterators.SerialIterator(t, 3, repeat=False, shuffle=True)
    rows = sorted(ex for batch in it for ex in batch)
    assert rows == [(i, 10 * i) for i in range(7)]


def test_fetch_then_convert_feeds_a_model():
    x = numpy.arange(12, dtype=numpy.float32).reshape(4, 3)
    d = tabular.from_data({'x': x, 't': [0, 1, 0, 1]}).with_converter(
        lambda x, t: (x * 2, numpy.asarray(t, numpy.int32)))
    xs, ts = d.convert(d.fetch())
    numpy.testing.assert_array_equal(xs, x * 2)
    assert ts.dtype == numpy.int32


@pytest.mark.parametrize('make', [
    lambda d: chainer.iterators.MultithreadIterator(
        d, 2, repeat=False, shuffle=False, n_threads=2),
    lambda d: chainer.iterators.MultiprocessIterator(
        d, 2, repeat=False, shuffle=False, n_processes=2),
], ids=['threads', 'processes'])
def test_parallel_iterators(make):
    d = tabular.from_data((numpy.arange(10), ('sq', lambda i: i * i)))
    it = make(d.slice[::2])
    try:
        examples = [ex for batch in it for ex in batch]
    finally:
        it.finalize()
    assert examples == [(i, i * i) for i in range(0, 10, 2)]
