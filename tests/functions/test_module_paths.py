"""Chainer's module layout: a category package exposes its modules (not
functions of the same name), the recurrent functions also import from
functions.rnn, and forget from functions.util."""
import importlib
import types

import pytest

import chainer_core.functions as F


@pytest.mark.parametrize('path,attr', [
    ('math.sparse_matmul', 'CooMatMul'),
    ('math.einsum', 'einsum'),
    ('array.flip', 'flip'),
    ('connection.linear', 'linear'),
    ('connection.local_convolution_2d', 'local_convolution_2d'),
    ('noise.dropout', 'dropout'),
    ('loss.crf1d', 'crf1d'),
    ('pooling.max_pooling_nd', 'max_pooling_3d'),
])
def test_category_attribute_is_the_module(path, attr):
    category, name = path.split('.')
    module = getattr(getattr(F, category), name)
    assert isinstance(module, types.ModuleType)
    assert module is importlib.import_module('chainer_core.functions.' +
                                             path)
    assert hasattr(module, attr)


@pytest.mark.parametrize('name', ['lstm', 'slstm', 'tree_lstm', 'n_step_gru',
                                  'n_step_lstm', 'n_step_rnn'])
def test_rnn_paths(name):
    module = getattr(F.rnn, name)
    assert isinstance(module, types.ModuleType)
    assert getattr(module, name) is getattr(F, name)


def test_util_forget():
    assert F.util.forget.forget is F.forget


def test_top_level_names_are_functions():
    for name in ('sparse_matmul', 'linear', 'dropout', 'flip', 'lstm',
                 'max_pooling_1d', 'transpose_sequence', 'shift'):
        assert callable(getattr(F, name))
        assert not isinstance(getattr(F, name), types.ModuleType)
