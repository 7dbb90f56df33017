"""Choosing the hyperparameters and the weight file of a model from its
``pretrained_model`` argument, as ChainerCV's models do (without
downloading)."""
import os

import numpy

import chainer_core as chainer


def local_path(filename):
    """Where ChainerCV keeps a downloaded weight file."""
    return os.path.join(chainer.dataset.get_dataset_root(), 'pfnet',
                        'chainercv', 'models', filename)


def _same(a, b):
    return numpy.array_equal(numpy.asarray(a), numpy.asarray(b))


def prepare(name, param, pretrained_model, models, default):
    """(param, path): the hyperparameters ``param`` with None values
    filled in, and the npz file to load (None: random weights).

    ``models`` maps the known weight names (``'imagenet'``) to
    ``{'param': ..., 'overwritable': ..., 'file': ...}``. A known name
    fills the parameters it was trained with (those not overwritable
    must agree) and means the file under :func:`local_path`, which must
    exist; any other string is the path of an npz file.
    """
    param = dict(param)
    if pretrained_model in models:
        model = models[pretrained_model]
        for key, value in model['param'].items():
            if param[key] is None:
                param[key] = value
            elif key not in model['overwritable'] and \
                    not _same(param[key], value):
                raise ValueError(
                    '{}: {} must be {!r} (or None) for the pretrained model '
                    '{!r}'.format(name, key, value, pretrained_model))
        path = local_path(model['file'])
        if not os.path.exists(path):
            raise FileNotFoundError(
                '{}: the weights {!r} are expected at {}, which does not '
                'exist; nothing is downloaded: fetch {} (ChainerCV '
                'distributes it) and put it there, or pass the path of an '
                'npz file as pretrained_model'.format(
                    name, pretrained_model, path, model['file']))
    elif pretrained_model:
        path = pretrained_model
        if not os.path.exists(path):
            raise FileNotFoundError(
                '{}: pretrained_model {!r} is neither a known weight name '
                '({}) nor an existing npz file'.format(
                    name, path, ', '.join(sorted(models)) or 'none'))
    else:
        path = None
    for key, value in default.items():
        if param[key] is None:
            param[key] = value
    return param, path


def load(path, model):
    if path:
        chainer.serializers.load_npz(path, model)
