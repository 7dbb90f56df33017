import warnings

import numpy
import pytest

from chainer_cv.utils import apply_to_iterator, ProgressHook


def _batches(n_example, batch_size, with_rest, n_input):
    examples = []
    for i in range(n_example):
        inputs = tuple(numpy.full((2,), i * 10 + k) for k in range(n_input))
        examples.append(inputs + (('rest', i), i * 2) if with_rest else
                        inputs if n_input > 1 else inputs[0])
    return iter([examples[i:i + batch_size]
                 for i in range(0, n_example, batch_size)]), examples


class _LocalComm:
    """A one-worker communicator, as chainer-mn's with a single process."""
    rank, size = 0, 1

    def bcast_obj(self, obj, max_buf_len=None, root=0):
        return obj

    def gather_obj(self, obj, root=0):
        return [obj]


class TestApplyToIterator:

    @pytest.mark.parametrize('n_input', [1, 2])
    @pytest.mark.parametrize('with_rest', [False, True])
    @pytest.mark.parametrize('tuple_output', [False, True])
    @pytest.mark.parametrize('comm', [None, _LocalComm()])
    def test_values(self, n_input, with_rest, tuple_output, comm):
        iterator, examples = _batches(7, 3, with_rest, n_input)
        calls = []

        def func(*inputs):
            assert len(inputs) == n_input
            calls.append(len(inputs[0]))
            total = [sum(v.sum() for v in values)
                     for values in zip(*inputs)]
            return (total, [-t for t in total]) if tuple_output else total

        in_values, out_values, rest_values = apply_to_iterator(
            func, iterator, n_input=n_input, comm=comm)
        assert calls == [3]
        assert len(in_values) == n_input
        assert len(out_values) == (2 if tuple_output else 1)
        assert len(rest_values) == (2 if with_rest else 0)
        totals = list(out_values[0])
        assert calls == [3, 3, 1]
        for i, example in enumerate(examples):
            example = example if isinstance(example, tuple) else (example,)
            assert totals[i] == sum(v.sum() for v in example[:n_input])
        for k, values in enumerate(in_values):
            for i, value in enumerate(values):
                numpy.testing.assert_array_equal(value, examples[i][k]
                                                 if n_input > 1 or with_rest
                                                 else examples[i])
        if tuple_output:
            assert list(out_values[1]) == [-t for t in totals]
        if with_rest:
            assert list(rest_values[0]) == [('rest', i) for i in range(7)]
            assert list(rest_values[1]) == [i * 2 for i in range(7)]

    def test_hook_gets_each_batch(self):
        iterator, _ = _batches(5, 2, True, 1)
        seen = []
        in_values, out_values, _ = apply_to_iterator(
            lambda x: [v.sum() for v in x], iterator,
            hook=lambda i, o, r: seen.append((len(i[0]), len(o[0]),
                                              len(r[0]))))
        list(out_values[0])
        assert seen == [(2, 2, 2), (2, 2, 2), (1, 1, 1)]

    def test_uneven_batch_warns(self):
        class Comm(_LocalComm):
            size = 2

            def bcast_obj(self, obj, max_buf_len=None, root=0):
                return obj

            def gather_obj(self, obj, root=0):
                return [obj, None]

        iterator, _ = _batches(3, 3, False, 1)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter('always')
            _, out_values, _ = apply_to_iterator(
                lambda x: [v.sum() for v in x], iterator, comm=Comm())
        assert any('not a multiple' in str(w.message) for w in caught)
        assert len(list(out_values[0])) == 2

    def test_empty_iterator(self):
        assert apply_to_iterator(lambda x: x, iter([])) == ((), (), ())


class TestProgressHook:

    @pytest.mark.parametrize('n_total,expected', [
        (None, '5 samples'), (10, '5 of 10 samples')])
    def test_reports(self, capsys, n_total, expected):
        hook = ProgressHook(n_total)
        hook(([1, 2],), ([1, 2],), ())
        hook(([1, 2, 3],), ([1, 2, 3],), ())
        err = capsys.readouterr().err
        assert err.split('\r')[-1].startswith(expected + ', ')
        assert 'samples/sec' in err
