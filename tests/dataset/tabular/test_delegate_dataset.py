"""tabular.DelegateDataset: a base for datasets reading another one."""
import numpy
import pytest

from chainer_core.dataset import tabular

from ._table import Table, as_lists, columns


class _Squares(tabular.DelegateDataset):
    def __init__(self, n):
        super().__init__(tabular.from_data(
            (numpy.arange(n), ('sq', lambda i: i * i))))


def test_reads_through():
    t = Table(4, mode=dict)
    d = tabular.DelegateDataset(t)
    assert d.dataset is t
    assert d.keys == t.keys and d.mode is dict and len(d) == 4
    assert as_lists(d.fetch().values()) == columns(t)
    assert d.get_examples([1], (2,)) == t.get_examples([1], (2,))


def test_subclass_composes():
    s = _Squares(5)
    assert s[3] == (3, 9)
    assert s.slice[1:4, 'sq'].fetch() == [1, 4, 9]
    assert s.join(tabular.from_data(('x', [0] * 5)))[2] == (2, 4, 0)


def test_needs_a_tabular_dataset():
    with pytest.raises(TypeError, match='DelegateDataset: dataset must be a '
                                        'TabularDataset, got list'):
        tabular.DelegateDataset([1, 2])
