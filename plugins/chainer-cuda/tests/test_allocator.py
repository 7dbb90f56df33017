"""cuda.using_allocator hands CuPy the allocator for its block; no GPU is
needed to see that (test_chainer_names.py allocates through it on one)."""
import pytest

from chainer_core.backends import cuda


def test_using_allocator_is_cupys_in_the_block():
    cupy = pytest.importorskip('cupy')
    before = cupy.cuda.get_allocator()

    def allocator(size):
        raise AssertionError('nothing is allocated here')

    with cuda.using_allocator(allocator):
        assert cupy.cuda.get_allocator() is allocator
    assert cupy.cuda.get_allocator() == before
