import gc

import pytest

from chainer_cv.utils import unzip


class _Counting:
    """An iterator of tuples that counts how many it has given."""

    def __init__(self, n, width=3):
        self.n, self.width, self.given = n, width, 0

    def __iter__(self):
        return self

    def __next__(self):
        if self.given == self.n:
            raise StopIteration
        self.given += 1
        return tuple(self.given * 10 + k for k in range(self.width))


class TestUnzip:

    @pytest.mark.parametrize('n,width', [(1, 1), (5, 3), (20, 2)])
    def test_inverse_of_zip(self, n, width):
        columns = unzip(_Counting(n, width))
        assert len(columns) == width
        assert [list(c) for c in columns] == \
            [list(c) for c in zip(*_Counting(n, width))]

    def test_empty(self):
        assert unzip(iter([])) == ()

    def test_lazy(self):
        source = _Counting(100)
        a, b, c = unzip(source)
        assert source.given == 1
        assert next(b) == 11 and next(b) == 21
        assert source.given == 2
        assert [next(a) for _ in range(3)] == [10, 20, 30]
        assert source.given == 3

    def test_dropped_column_is_not_buffered(self):
        a, b = unzip(_Counting(50, 2))
        del b
        gc.collect()
        assert len(list(a)) == 50
