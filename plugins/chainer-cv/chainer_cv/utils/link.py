import os

from chainer_core.dataset import get_dataset_root


def model_path(url):
    """Where the pre-trained weights published at ``url`` are looked for.

    The file named as the URL's last component, in
    ``<dataset root>/pfnet/chainercv/models/``: the place ChainerCV caches
    its downloads, so weights fetched for ChainerCV are found as they are.
    The dataset root is :func:`chainer_core.dataset.get_dataset_root`
    (``$CHAINER_DATASET_ROOT``, by default ``~/.chainer/dataset``).

    Args:
        url (str): The URL of the weights.

    Returns:
        str: The path of the local file.
    """
    return os.path.join(get_dataset_root(), 'pfnet', 'chainercv', 'models',
                        os.path.basename(url))


def download_model(url):
    """The local path of the pre-trained weights published at ``url``.

    Unlike ChainerCV, nothing is downloaded: the file must already be at
    :func:`model_path`.

    Args:
        url (str): The URL of the weights.

    Returns:
        str: The path of the file.

    Raises:
        FileNotFoundError: The file is not there; the message says where
            to put it and where to get it.
    """
    path = model_path(url)
    if not os.path.exists(path):
        raise FileNotFoundError(
            'pre-trained weights not found at {}: chainer_cv never downloads; '
            'fetch {} yourself and save it at that path (or pass the path of '
            'an .npz file as pretrained_model)'.format(path, url))
    return path


def prepare_pretrained_model(param, pretrained_model, models, default={}):
    """Resolve a model's hyper-parameters and the weights file to load.

    ``models`` maps the names of known weights to dictionaries with:

    * ``'url'`` (str): where the weights are published; the file is looked
      for at :func:`model_path`.
    * ``'param'`` (dict): the hyper-parameters the weights were trained
      with.
    * ``'overwritable'`` (set): names in ``'param'`` the caller may set to
      another value (e.g. a score threshold).

    With a known name, each :obj:`None` in ``param`` takes the value of
    ``'param'``, and a value that contradicts it (and is not overwritable)
    raises :class:`ValueError`. Any other non-empty ``pretrained_model`` is
    the path of an ``.npz`` file. Finally each remaining :obj:`None` takes
    its value from ``default``.

    Args:
        param (dict): The hyper-parameters given to the model, :obj:`None`
            for those not given. Updated in place.
        pretrained_model (str): A name in ``models``, the path of an
            ``.npz`` file, or :obj:`None` (random initialisation).
        models (dict): The known weights, as above.
        default (dict): Values of the hyper-parameters that are still
            :obj:`None`.

    Returns:
        ``(param, path)``: the completed ``param`` and the path of the
        weights to load, :obj:`None` when there are none.

    Raises:
        FileNotFoundError: The weights of a known name are not on disk
            (nothing is downloaded; the message says where to put them), or
            the path given does not exist.
        ValueError: A hyper-parameter contradicts the named weights, or is
            left :obj:`None` with no default.

    .. admonition:: Example

        >>> models = {'voc0712': {'param': {'n_fg_class': 20},
        ...                       'url': 'https://example.org/ssd300.npz'}}
        >>> param, path = prepare_pretrained_model(
        ...     {'n_fg_class': None}, 'weights/ssd300.npz', models)
    """
    if pretrained_model in models:
        model = models[pretrained_model]
        preset = model.get('param', {})
        overwritable = model.get('overwritable', set())
        for key, value in param.items():
            if key not in preset:
                continue
            if value is None:
                param[key] = preset[key]
            elif key not in overwritable and value != preset[key]:
                raise ValueError(
                    'prepare_pretrained_model: {} must be {!r} for the '
                    'pre-trained weights {!r}; got {!r}'.format(
                        key, preset[key], pretrained_model, value))
        path = download_model(model['url'])
    elif pretrained_model:
        path = os.fspath(pretrained_model)
        if not os.path.exists(path):
            raise FileNotFoundError(
                'prepare_pretrained_model: pretrained_model {!r} is neither '
                'a known name ({}) nor an existing file'.format(
                    pretrained_model, ', '.join(sorted(models)) or 'none'))
    else:
        path = None
    for key, value in param.items():
        if value is None:
            if key not in default:
                raise ValueError('prepare_pretrained_model: {} must be '
                                 'specified'.format(key))
            param[key] = default[key]
    return param, path
