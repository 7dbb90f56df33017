"""TabularDataset.transform and transform_batch: new columns computed
from examples or batches; the mode follows what the function returns."""
import numpy
import pytest

from ._table import Table, as_lists, columns


def test_transform_example_by_example():
    t = Table(4)
    a, b, c = columns(t)
    seen = []

    def f(a, b, c):
        seen.append((a, b, c))
        return a + b, c

    d = t.transform(('s', 'c'), f)
    assert d.keys == ('s', 'c') and len(d) == 4 and seen == []
    assert d.mode is tuple and len(seen) == 1
    assert as_lists(d.fetch()) == ([x + y for x, y in zip(a, b)], c)
    assert d[1] == (a[1] + b[1], c[1])
    assert as_lists(d.get_examples([1, 2], [1])) == (c[1:3],)


@pytest.mark.parametrize('keys,f,mode,pick', [
    (('s', 'c'), lambda a, b, c: {'s': a + b, 'c': c}, dict,
     lambda fetched: fetched['s']),
    ('s', lambda a, b, c: a + b, None, lambda fetched: fetched),
    (('s',), lambda a, b, c: (a + b,), tuple, lambda fetched: fetched[0]),
    (('s',), lambda a, b, c: a + b, None, lambda fetched: fetched),
])
def test_mode_follows_the_return_type(keys, f, mode, pick):
    t = Table(4)
    d = t.transform(keys, f)
    assert d.mode is mode
    a, b, _ = columns(t)
    assert list(pick(d.fetch())) == [x + y for x, y in zip(a, b)]


def test_a_dict_may_hold_more_than_the_keys():
    t = Table(4)
    d = t.transform(('s', 't'), lambda a, b, c: {'t': a, 's': b, 'u': c})
    assert as_lists(d.fetch().values()) == columns(t, keys=[1, 0])


def test_inputs_follow_the_mode_of_the_dataset():
    assert Table(3, mode=dict).transform(
        's', lambda **kw: sorted(kw)).fetch() == [['a', 'b', 'c']] * 3
    unary = Table(3, keys=('z',), mode=None)
    assert unary.transform('s', lambda z: z * 10).fetch() == [0, 10, 20]


@pytest.mark.parametrize('keys,f,match', [
    (('s', 't'), lambda a, b, c: (a,), r'returned 1 values for the 2 keys'),
    (('s', 't'), lambda a, b, c: {'s': a}, r"lacks the keys \['t'\]"),
    (('s', 't'), lambda a, b, c: a, 'single int64 for the 2 keys'),
    ('s', lambda a, b, c: (a, b), 'returned 2 values for the 1 keys'),
])
def test_returns_not_matching_the_keys(keys, f, match):
    with pytest.raises(ValueError, match=match):
        Table(3).transform(keys, f).fetch()


def test_return_type_must_not_change():
    calls = []

    def f(a, b, c):
        calls.append(a)
        return (a,) if len(calls) % 2 else {'s': a}

    with pytest.raises(ValueError, match='same type; it returned a dict '
                                         'after a tuple'):
        Table(3).transform('s', f).fetch()


def test_mode_of_an_empty_dataset_comes_from_the_keys():
    empty = Table(0)
    assert empty.transform('s', lambda a, b, c: a).mode is None
    assert empty.transform(('s', 't'), lambda a, b, c: (a, b)).mode is tuple
    assert empty.transform(('s',), lambda a, b, c: a).fetch() == ([],)


def test_transform_batch():
    t = Table(4)
    a, b, c = columns(t)
    batches = []

    def f(a, b, c):
        batches.append(len(a))
        return a + b, c

    d = t.transform_batch(('s', 'c'), f)
    assert d.mode is tuple and batches == [1]
    fetched = d.fetch()
    assert isinstance(fetched[0], numpy.ndarray) and batches == [1, 4]
    assert as_lists(fetched) == ([x + y for x, y in zip(a, b)], c)
    assert d[2] == (a[2] + b[2], c[2])
    assert as_lists(d.get_examples(slice(1, 3), [1])) == (c[1:3],)
    assert batches[-1] == 2
    d = t.transform_batch('s', lambda a, b, c: a * 2)
    assert d.mode is None and d.fetch().tolist() == [2 * x for x in a]
    d = t.transform_batch(('s',), lambda a, b, c: {'s': a * 2})
    assert d.mode is dict and list(d.fetch()) == ['s']
    assert Table(0).transform_batch(('s',), lambda a, b, c: (a,)).fetch()[
        0].tolist() == []


def test_transform_batch_must_keep_the_length():
    with pytest.raises(ValueError, match="column 's' has 1 rows, the batch "
                                         "4"):
        Table(4).transform_batch(('s',), lambda a, b, c: (a[:1],)).fetch()


def test_convert_of_the_dataset_and_bad_arguments():
    t = Table(3).with_converter(lambda *columns: 'converted')
    d = t.transform('s', lambda a, b, c: a)
    assert d.convert(d.fetch()) == 'converted'
    with pytest.raises(TypeError, match='transform must be callable'):
        Table(3).transform('s', 3)
    with pytest.raises(TypeError, match='keys must be a str or a tuple'):
        Table(3).transform_batch(3, lambda a, b, c: a)
