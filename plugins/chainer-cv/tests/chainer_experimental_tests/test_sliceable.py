import numpy
import pytest

from chainer_cv.chainer_experimental.datasets.sliceable import \
    ConcatenatedDataset
from chainer_cv.chainer_experimental.datasets.sliceable import GetterDataset
from chainer_cv.chainer_experimental.datasets.sliceable import \
    TransformDataset
from chainer_cv.chainer_experimental.datasets.sliceable import TupleDataset


class Counting(GetterDataset):
    """Examples (i, i * 2, i * 3) whose getters count their calls."""

    def __init__(self, n=10, offset=0):
        super().__init__()
        self.n = n
        self.offset = offset
        self.calls = {'a': [], 'bc': []}
        self.add_getter('a', self._get_a)
        self.add_getter(('b', 'c'), self._get_bc)

    def __len__(self):
        return self.n

    def _get_a(self, i):
        self.calls['a'].append(i)
        return i + self.offset

    def _get_bc(self, i):
        self.calls['bc'].append(i)
        return (i + self.offset) * 2, (i + self.offset) * 3


def test_getter_dataset_example_and_keys():
    dataset = Counting()
    assert dataset.keys == ('a', 'b', 'c')
    assert len(dataset) == 10
    assert dataset[3] == (3, 6, 9)
    assert dataset[-1] == (9, 18, 27)
    # One call per getter per example, even for two keys of one getter.
    assert dataset.calls == {'a': [3, 9], 'bc': [3, 9]}
    assert list(dataset)[2] == (2, 4, 6)


def test_getter_dataset_keys_setter_selects_and_orders():
    dataset = Counting()
    dataset.keys = ('c', 'a')
    assert dataset.keys == ('c', 'a')
    assert dataset[2] == (6, 2)
    dataset.keys = 'b'
    assert dataset.keys == 'b'
    assert dataset[2] == 4
    dataset.keys = (0, 2)
    assert dataset.keys == ('a', 'c')
    with pytest.raises(KeyError, match="Counting.*'d'"):
        dataset.keys = ('a', 'd')


def test_getter_dataset_duplicate_key():
    dataset = Counting()
    with pytest.raises(ValueError, match="'a' exists"):
        dataset.add_getter('a', lambda i: i)


@pytest.mark.parametrize('index, expected', [
    (slice(None), list(range(10))),
    (slice(2, 8, 3), [2, 5]),
    (slice(None, None, -2), [9, 7, 5, 3, 1]),
    ([4, 1, -1], [4, 1, 9]),
    (numpy.array([0, 3]), [0, 3]),
    ([i % 3 == 0 for i in range(10)], [0, 3, 6, 9]),
    ([], []),
])
def test_slice_by_indices(index, expected):
    view = Counting().slice[index]
    assert view.keys == ('a', 'b', 'c')
    assert len(view) == len(expected)
    assert [example[0] for example in view] == expected


def test_slice_by_keys_loads_only_their_getters():
    dataset = Counting()
    view = dataset.slice[:, 'a']
    assert dataset.calls == {'a': [], 'bc': []}
    assert view.keys == 'a'
    assert list(view) == list(range(10))
    assert dataset.calls['bc'] == []

    dataset = Counting()
    view = dataset.slice[[1, 2], ('c', 'b')]
    assert view.keys == ('c', 'b')
    assert view[1] == (6, 4)
    assert dataset.calls == {'a': [], 'bc': [2]}

    view = dataset.slice[:, (2,)]
    assert view.keys == ('c',)
    assert view[4] == (12,)


def test_slicing_a_view():
    dataset = Counting()
    view = dataset.slice[2:].slice[::2, ('b', 'a')].slice[1:, 'a']
    assert view.keys == 'a'
    assert list(view) == [4, 6, 8]
    assert dataset.calls['bc'] == []


def test_slice_errors():
    dataset = Counting()
    with pytest.raises(IndexError, match='shape'):
        dataset.slice[[True, False]]
    with pytest.raises(IndexError, match='out of range'):
        dataset.slice[[10]]
    with pytest.raises(KeyError, match="'z'"):
        dataset.slice[:, 'z']
    with pytest.raises(IndexError):
        dataset.slice[:][10]


def test_tuple_dataset():
    first = Counting(4)
    dataset = TupleDataset(first, ('d', numpy.arange(4) * 10),
                           (('e', 'f'), [(i, -i) for i in range(4)]))
    assert dataset.keys == ('a', 'b', 'c', 'd', 'e', 'f')
    assert dataset[2] == (2, 4, 6, 20, 2, -2)
    view = dataset.slice[:, ('f', 'a')]
    assert view[3] == (-3, 3)
    assert first.calls['bc'] == [2]
    with pytest.raises(ValueError, match='same length'):
        TupleDataset(first, ('d', numpy.arange(5)))
    with pytest.raises(TypeError, match='argument 1'):
        TupleDataset(first, numpy.arange(4))


def test_concatenated_dataset():
    dataset = ConcatenatedDataset(Counting(3), Counting(2, offset=100))
    assert len(dataset) == 5
    assert dataset.keys == ('a', 'b', 'c')
    assert [example[0] for example in dataset] == [0, 1, 2, 100, 101]
    assert dataset[-1] == (101, 202, 303)
    assert list(dataset.slice[2:4, 'b']) == [4, 200]
    other = Counting()
    other.keys = ('a', 'b')
    with pytest.raises(ValueError, match='same keys'):
        ConcatenatedDataset(Counting(), other)


def test_transform_dataset():
    base = Counting(5)
    dataset = TransformDataset(base, ('sum', 'product'),
                               lambda example: (sum(example),
                                                example[0] * example[1]))
    assert dataset.keys == ('sum', 'product')
    assert dataset[2] == (12, 8)
    assert list(dataset.slice[1:3, 'product']) == [2, 8]

    single = TransformDataset(base, 'sum', sum)
    assert single.keys == 'sum'
    assert single[1] == 6

    unnamed = TransformDataset(base, 2, lambda example: example[:2])
    assert unnamed.keys == (None, None)
    assert unnamed.slice[:, 1][3] == 6

    inferred = TransformDataset([(1, 2), (3, 4)], lambda e: (e[1], e[0]))
    assert inferred.keys == (None, None)
    assert inferred[1] == (4, 3)
    inferred_single = TransformDataset([1, 2], lambda e: e * 10)
    assert inferred_single.keys is None
    assert inferred_single[1] == 20
