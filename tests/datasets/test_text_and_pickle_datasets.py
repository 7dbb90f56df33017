"""TextDataset and the pickle dataset files."""
import io
import pickle

import numpy
import pytest

from chainer_core import datasets, iterators


@pytest.fixture
def texts(tmp_path):
    a = tmp_path / 'a.txt'
    b = tmp_path / 'b.txt'
    a.write_text('first line\nsecond\n\nfourth has ü\nlast')
    b.write_bytes('один\nдва\nтри\nчетыре\nпять\n'.encode('cp1251'))
    return str(a), str(b)


def test_one_file_line_by_line(texts):
    dataset = datasets.TextDataset(texts[0], encoding='utf-8')
    assert len(dataset) == 5
    assert dataset[0] == 'first line\n'
    assert dataset[2] == '\n'
    assert dataset[3] == 'fourth has ü\n'
    assert dataset[4] == 'last'
    assert dataset[-1] == 'last'
    assert dataset[1:3] == ['second\n', '\n']
    assert dataset[3] == 'fourth has ü\n'
    with pytest.raises(IndexError):
        dataset[5]


def test_several_files_with_their_encodings(texts):
    dataset = datasets.TextDataset(list(texts), encoding=['utf-8', 'cp1251'])
    assert len(dataset) == 5
    assert dataset[1] == ('second\n', 'два\n')
    assert dataset[4] == ('last', 'пять\n')


def test_filter_func(texts):
    dataset = datasets.TextDataset(
        list(texts), encoding=['utf-8', 'cp1251'],
        filter_func=lambda x, y: x.strip() != '' and 'е' not in y)
    assert [pair[0] for pair in dataset] == [
        'first line\n', 'second\n', 'last']


def test_newline_and_errors(tmp_path):
    path = tmp_path / 'crlf.txt'
    path.write_bytes(b'a\r\nb\xff\r\n')
    plain = datasets.TextDataset(str(path), encoding='utf-8',
                                 errors='replace')
    assert plain[0] == 'a\n' and plain[1] == 'b\ufffd\n'
    kept = datasets.TextDataset(str(path), encoding='latin-1', newline='')
    assert kept[0] == 'a\r\n' and kept[1] == 'b\xff\r\n'


def test_files_of_different_lengths(texts, tmp_path):
    short = tmp_path / 'short.txt'
    short.write_text('x\n')
    with pytest.raises(ValueError, match='different numbers of lines'):
        datasets.TextDataset([texts[0], str(short)])


def test_option_lists_must_match(texts):
    with pytest.raises(ValueError, match='encoding'):
        datasets.TextDataset(list(texts), encoding=['utf-8'])
    with pytest.raises(ValueError, match='at least one'):
        datasets.TextDataset([])


def test_pickle_keeps_the_index(texts):
    dataset = datasets.TextDataset(texts[1], encoding='cp1251',
                                   filter_func=lambda line: 'т' in line)
    copy = pickle.loads(pickle.dumps(dataset))
    assert len(copy) == 3
    assert [copy[i] for i in range(3)] == ['три\n', 'четыре\n', 'пять\n']


def test_text_in_worker_processes(tmp_path):
    path = tmp_path / 'many.txt'
    path.write_text(''.join('line {}\n'.format(i) for i in range(200)))
    dataset = datasets.TextDataset(str(path))
    it = iterators.MultiprocessIterator(dataset, 10, n_processes=2,
                                        repeat=False, shuffle=False)
    try:
        got = sum(list(it), [])
    finally:
        it.finalize()
    assert got == ['line {}\n'.format(i) for i in range(200)]
    assert dataset[150] == 'line 150\n'


EXAMPLES = [(1, 2.0, 'hello'), {'x': numpy.arange(3)}, None,
            numpy.float32(1.5), list(range(100))]


def _same(a, b):
    if isinstance(a, dict):
        assert a.keys() == b.keys()
        numpy.testing.assert_array_equal(a['x'], b['x'])
    else:
        assert a == b


@pytest.mark.parametrize('protocol', [2, pickle.HIGHEST_PROTOCOL])
def test_pickle_dataset_round_trip(tmp_path, protocol):
    path = str(tmp_path / 'data.pkl')
    with datasets.open_pickle_dataset_writer(path, protocol=protocol) as w:
        for example in EXAMPLES:
            w.write(example)
        w.flush()
    with datasets.open_pickle_dataset(path) as dataset:
        assert len(dataset) == len(EXAMPLES)
        for i in (4, 0, 2, 1, 3):
            _same(dataset[i], EXAMPLES[i])
        assert dataset[-5] == EXAMPLES[0]


def test_pickle_dataset_on_file_objects():
    buffer = io.BytesIO()
    writer = datasets.PickleDatasetWriter(buffer)
    writer.write('a')
    writer.write(['b'])
    dataset = datasets.PickleDataset(io.BytesIO(buffer.getvalue()))
    assert len(dataset) == 2 and dataset[1] == ['b'] and dataset[0] == 'a'


def test_pickle_dataset_needs_random_access():
    class Stream(io.RawIOBase):
        def readable(self):
            return True

    with pytest.raises(ValueError, match='random access'):
        datasets.PickleDataset(Stream())


def test_pickle_dataset_closed(tmp_path):
    path = str(tmp_path / 'data.pkl')
    with datasets.open_pickle_dataset_writer(path) as w:
        w.write(1)
    dataset = datasets.open_pickle_dataset(path)
    assert dataset[0] == 1
    dataset.close()
    with pytest.raises(ValueError):
        dataset[0]


def test_pickle_dataset_in_worker_processes(tmp_path):
    path = str(tmp_path / 'data.pkl')
    with datasets.open_pickle_dataset_writer(path) as w:
        for i in range(120):
            w.write((numpy.full(50, i), i))
    with datasets.open_pickle_dataset(path) as dataset:
        it = iterators.MultiprocessIterator(dataset, 8, n_processes=2,
                                            repeat=False, shuffle=False)
        try:
            got = sum(list(it), [])
        finally:
            it.finalize()
        assert [i for _, i in got] == list(range(120))
        for x, i in got:
            assert (x == i).all()
        assert dataset[77][1] == 77


def test_docstrings_warn_about_untrusted_files():
    for obj in (datasets.PickleDataset, datasets.open_pickle_dataset):
        assert 'trusted files only' in obj.__doc__.lower()
