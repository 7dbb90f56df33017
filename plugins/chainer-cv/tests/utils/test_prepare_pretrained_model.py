import os

import numpy
import pytest

import chainer_core
from chainer_cv.utils import (download_model, model_path,
                              prepare_pretrained_model)

_MODELS = {
    'voc0712': {'param': {'n_fg_class': 20, 'min_size': 600},
                'overwritable': {'min_size'},
                'url': 'https://example.org/models/ssd300_voc0712.npz'},
}


@pytest.fixture
def dataset_root(tmp_path):
    before = chainer_core.dataset.get_dataset_root()
    chainer_core.dataset.set_dataset_root(str(tmp_path))
    yield tmp_path
    chainer_core.dataset.set_dataset_root(before)


class TestPreparePretrainedModel:

    @pytest.mark.parametrize('given,expected', [
        ({'n_fg_class': None, 'min_size': None},
         {'n_fg_class': 20, 'min_size': 600}),
        ({'n_fg_class': 20, 'min_size': 800},
         {'n_fg_class': 20, 'min_size': 800}),
        ({'n_fg_class': None, 'other': None},
         {'n_fg_class': 20, 'other': 1})])
    def test_known_name(self, dataset_root, given, expected):
        path = model_path(_MODELS['voc0712']['url'])
        os.makedirs(os.path.dirname(path))
        numpy.savez(path, w=numpy.zeros(1))
        param, out_path = prepare_pretrained_model(
            dict(given), 'voc0712', _MODELS, default={'other': 1})
        assert param == expected and out_path == path
        assert path.startswith(str(dataset_root))

    def test_known_name_missing_file(self, dataset_root):
        expected = os.path.join(str(dataset_root), 'pfnet', 'chainercv',
                                'models', 'ssd300_voc0712.npz')
        with pytest.raises(FileNotFoundError) as e:
            prepare_pretrained_model({'n_fg_class': None}, 'voc0712', _MODELS)
        assert expected in str(e.value)
        assert 'https://example.org/models/ssd300_voc0712.npz' in str(e.value)
        assert 'never downloads' in str(e.value)
        with pytest.raises(FileNotFoundError, match='never downloads'):
            download_model(_MODELS['voc0712']['url'])

    def test_contradicting_param(self, dataset_root):
        with pytest.raises(ValueError, match="n_fg_class must be 20 .*"
                           "'voc0712'; got 10"):
            prepare_pretrained_model({'n_fg_class': 10}, 'voc0712', _MODELS)

    def test_path(self, tmp_path):
        path = str(tmp_path / 'w.npz')
        numpy.savez(path, w=numpy.zeros(1))
        assert prepare_pretrained_model({'n_fg_class': 3}, path, _MODELS) == \
            ({'n_fg_class': 3}, path)
        with pytest.raises(FileNotFoundError, match='neither a known name '
                           r'\(voc0712\) nor an existing file'):
            prepare_pretrained_model({}, str(tmp_path / 'no.npz'), _MODELS)

    def test_no_weights(self):
        assert prepare_pretrained_model(
            {'n_fg_class': None}, None, _MODELS,
            default={'n_fg_class': 5}) == ({'n_fg_class': 5}, None)
        with pytest.raises(ValueError, match='n_fg_class must be specified'):
            prepare_pretrained_model({'n_fg_class': None}, None, _MODELS)
