"""Compositions (slice of join of transform, concat of slices, ...)
checked against the same operations done on plain lists of rows."""
import numpy
import pytest

import chainer_core as chainer
from chainer_core.dataset import tabular

N = 9
X = numpy.arange(N) * 2
Y = numpy.arange(N) + 100


def _rows():
    """The reference: one dict per row."""
    return [{'x': int(X[i]), 'y': int(Y[i]), 'i': i} for i in range(N)]


def _base():
    return tabular.from_data({'x': X, 'y': Y}).join(
        tabular.from_data(('i', lambda i: i), size=N))


def _values(example, keys):
    if isinstance(example, dict):
        return tuple(int(example[k]) for k in keys)
    if isinstance(example, tuple):
        return tuple(int(v) for v in example)
    return (int(example),)


def test_slice_of_join_of_transform():
    d = _base().transform(('s', 'i'), lambda x, y, i: {'s': x + y, 'i': i})
    d = d.join(tabular.from_data(('neg', -numpy.arange(N))))
    d = d.slice[[7, 1, 4, 4], ('neg', 's')]
    rows = _rows()
    want = [(-rows[i]['i'], rows[i]['x'] + rows[i]['y'])
            for i in (7, 1, 4, 4)]
    assert d.mode is dict
    assert [_values(e, ('neg', 's')) for e in d] == want
    fetched = d.fetch()
    assert list(zip(*(list(map(int, fetched[k])) for k in ('neg', 's')))) \
        == want


def test_concat_of_slices_of_transform_batch():
    base = _base().transform_batch(
        ('p', 'i'), lambda x, y, i: (numpy.asarray(x) * numpy.asarray(y),
                                     numpy.asarray(i)))
    d = base.slice[::3].concat(base.slice[-1:0:-4], base.slice[[2]])
    order = list(range(0, N, 3)) + list(range(N - 1, 0, -4)) + [2]
    rows = _rows()
    want = [(rows[i]['x'] * rows[i]['y'], i) for i in order]
    assert len(d) == len(order)
    assert [_values(e, ()) for e in d] == want
    assert [_values(e, ()) for e in d[::-1]] == want[::-1]
    sub = d.slice[[True, False] * 3]
    assert [_values(e, ()) for e in sub] == want[::2]


@pytest.mark.parametrize('shuffle', [False, True])
def test_trained_on_through_an_iterator(shuffle):
    d = _base().slice[1:, ('x', 'y')].transform(
        ('x', 't'), lambda x, y: (numpy.float32(x / 2), numpy.int32(y % 2)))
    it = chainer.iterators.SerialIterator(d, 4, repeat=False,
                                          shuffle=shuffle)
    seen = []
    for batch in it:
        x, t = chainer.dataset.concat_examples(batch)
        assert x.dtype == numpy.float32 and t.dtype == numpy.int32
        seen.extend(zip(x.tolist(), t.tolist()))
    rows = _rows()[1:]
    want = [(r['x'] / 2, r['y'] % 2) for r in rows]
    assert sorted(seen) == sorted(want)
    if not shuffle:
        assert seen == want


def test_with_converter_after_compositions():
    d = _base().slice[2:5].asdict().with_converter(
        lambda x, y, i: numpy.stack([x, y]))
    converted = d.convert(d.fetch())
    rows = _rows()[2:5]
    assert converted.tolist() == [[r['x'] for r in rows],
                                  [r['y'] for r in rows]]
