"""TupleDataset, DictDataset, SubDataset and the splits, ConcatenatedDataset,
TransformDataset."""
import numpy
import pytest

from chainer_core import datasets


def test_tuple_dataset():
    x = numpy.arange(10).reshape(5, 2)
    y = list('abcde')
    dataset = datasets.TupleDataset(x, y)
    assert len(dataset) == 5
    a, b = dataset[3]
    numpy.testing.assert_array_equal(a, [6, 7])
    assert b == 'd'
    part = dataset[1:3]
    assert isinstance(part, list) and len(part) == 2
    assert part[1][1] == 'c'
    with pytest.raises(ValueError, match='length'):
        datasets.TupleDataset(x, y[:4])
    with pytest.raises(ValueError):
        datasets.TupleDataset()


def test_dict_dataset():
    dataset = datasets.DictDataset(x=numpy.arange(4), y=numpy.arange(4) * 2)
    assert len(dataset) == 4
    assert dataset[2] == {'x': 2, 'y': 4}
    assert dataset[[0, 3]] == [{'x': 0, 'y': 0}, {'x': 3, 'y': 6}]
    with pytest.raises(ValueError, match='length'):
        datasets.DictDataset(x=[1, 2], y=[1])


def test_sub_dataset_with_order_and_negative_indices():
    base = list(range(10, 20))
    order = [9, 8, 7, 6, 5, 4, 3, 2, 1, 0]
    sub = datasets.SubDataset(base, 2, 6, order)
    assert len(sub) == 4
    assert [sub[i] for i in range(4)] == [17, 16, 15, 14]
    assert sub[-1] == 14 and sub[-4] == 17
    assert sub[1:3] == [16, 15]
    with pytest.raises(IndexError):
        sub[4]
    with pytest.raises(IndexError):
        sub[-5]
    with pytest.raises(ValueError):
        datasets.SubDataset(base, 0, 11)
    with pytest.raises(ValueError, match='order'):
        datasets.SubDataset(base, 0, 3, order[:5])


def test_split_dataset():
    base = list(range(7))
    first, second = datasets.split_dataset(base, 3)
    assert list(first) == [0, 1, 2] and list(second) == [3, 4, 5, 6]
    first, second = datasets.split_dataset(base, split_at=2,
                                           order=[6, 5, 4, 3, 2, 1, 0])
    assert list(first) == [6, 5] and list(second) == [4, 3, 2, 1, 0]
    with pytest.raises(ValueError, match='split_at'):
        datasets.split_dataset(base, 8)
    with pytest.raises(ValueError, match='split_at'):
        datasets.split_dataset(base, -1)


def test_split_dataset_random_is_a_partition():
    base = list(range(20))
    first, second = datasets.split_dataset_random(base, 6, seed=3)
    assert len(first) == 6 and len(second) == 14
    assert sorted(list(first) + list(second)) == base
    again, _ = datasets.split_dataset_random(base, 6, seed=3)
    assert list(again) == list(first)
    assert list(first) != list(range(6))


def test_split_dataset_n():
    base = list(range(11))
    parts = datasets.split_dataset_n(base, 3)
    assert [list(p) for p in parts] == [[0, 1, 2], [3, 4, 5], [6, 7, 8]]
    parts = datasets.split_dataset_n_random(base, 2, seed=0)
    assert [len(p) for p in parts] == [5, 5]
    assert not set(parts[0]) & set(parts[1])


def test_cross_validation_folds_follow_chainer():
    base = list(range(7))
    folds = datasets.get_cross_validation_datasets(base, 3)
    # Blocks [0, 1], [2, 3], [4, 5, 6]: the last block is tested first.
    assert [(list(train), list(test)) for train, test in folds] == [
        ([0, 1, 2, 3], [4, 5, 6]),
        ([4, 5, 6, 0, 1], [2, 3]),
        ([2, 3, 4, 5, 6], [0, 1]),
    ]
    deprecated = datasets.get_cross_validation_datasets(base, n_fold=3)
    assert [list(t) for _, t in deprecated] == [list(t) for _, t in folds]
    with pytest.raises(TypeError):
        datasets.get_cross_validation_datasets(base)


def test_cross_validation_with_order_and_random():
    base = list(range(10))
    order = list(reversed(base))
    folds = datasets.get_cross_validation_datasets(base, n_folds=2,
                                                   order=order)
    assert list(folds[0][1]) == [4, 3, 2, 1, 0]
    assert list(folds[1][1]) == [9, 8, 7, 6, 5]
    assert order == list(reversed(base))
    folds = datasets.get_cross_validation_datasets_random(base, 4, seed=1)
    tests = sorted(sum((list(t) for _, t in folds), []))
    assert tests == base
    for train, test in folds:
        assert sorted(list(train) + list(test)) == base
        assert len(test) in (2, 3)


def test_concatenated_dataset():
    dataset = datasets.ConcatenatedDataset([0, 1], [], [2, 3, 4])
    assert len(dataset) == 5
    assert list(dataset) == [0, 1, 2, 3, 4]
    assert dataset[-1] == 4 and dataset[1:4] == [1, 2, 3]
    with pytest.raises(IndexError):
        dataset[5]
    assert len(datasets.ConcatenatedDataset()) == 0


def test_transform_dataset():
    calls = []

    def double(x):
        calls.append(x)
        return x * 2

    dataset = datasets.TransformDataset([1, 2, 3], double)
    assert len(dataset) == 3 and calls == []
    assert dataset[2] == 6 and calls == [3]
    assert dataset[:2] == [2, 4]
    with pytest.raises(TypeError):
        datasets.TransformDataset([1], 'not callable')
