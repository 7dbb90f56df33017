"""What the vision models share: image preprocessing in NumPy, ten-crop
oversampling, the layer-by-layer forward pass, and the local files of
pre-trained weights."""
import os

import numpy

from chainer_core import configuration
from chainer_core.dataset import download
from chainer_core.functions.array.reshape import reshape
from chainer_core.functions.math.sum import sum as sum_
from chainer_core.variable import Variable


def _to_hwc_rgb(image):
    """An image (PIL image, or array of shape (H, W), (H, W, C) or (C, H,
    W) with C in 1, 3, 4) as a float32 (H, W, 3) RGB array in [0, 255]."""
    if not isinstance(image, numpy.ndarray) and hasattr(image, 'convert'):
        image = numpy.asarray(image.convert('RGB'))
    image = numpy.asarray(image)
    if image.ndim == 3 and image.shape[0] in (1, 3) and \
            image.shape[2] not in (1, 3, 4):
        image = image.transpose(1, 2, 0)
    if image.ndim == 3 and image.shape[2] == 1:
        image = image[:, :, 0]
    if image.ndim == 2:
        image = numpy.stack([image] * 3, axis=2)
    if image.ndim != 3 or image.shape[2] not in (3, 4):
        raise ValueError('an image must be a PIL image or an array of shape '
                         '(H, W), (H, W, C) or (C, H, W) with 1, 3 or 4 '
                         'channels, got shape {}'.format(image.shape))
    # As Chainer does through PIL: 8-bit values, alpha dropped.
    image = numpy.clip(image[:, :, :3], 0, 255).astype(numpy.uint8)
    return image.astype(numpy.float32)


def _resize_axis(image, size, axis):
    """Linear interpolation along ``axis`` with pixel centres aligned."""
    n = image.shape[axis]
    if n == size:
        return image
    pos = (numpy.arange(size, dtype=numpy.float64) + 0.5) * n / size - 0.5
    pos = numpy.clip(pos, 0, n - 1)
    lo = numpy.floor(pos).astype(numpy.intp)
    hi = numpy.minimum(lo + 1, n - 1)
    w = (pos - lo).astype(numpy.float32)
    shape = [1] * image.ndim
    shape[axis] = size
    w = w.reshape(shape)
    return numpy.take(image, lo, axis=axis) * (1 - w) + \
        numpy.take(image, hi, axis=axis) * w


def resize(image, size):
    """Bilinear resize of an (H, W, C) array to ``size = (width,
    height)`` (PIL's order, as Chainer passes it to ``Image.resize``)."""
    width, height = size
    return _resize_axis(_resize_axis(image, height, 0), width, 1)


def prepare_image(image, size, mean):
    """Chainer's preprocessing of the vision models: RGB image -> resized
    (unless ``size`` is None) -> BGR float32 minus the mean pixel ``mean``
    (BGR) -> (3, H, W)."""
    image = _to_hwc_rgb(image)
    if size:
        image = resize(image, size)
    image = image[:, :, ::-1] - numpy.asarray(mean, dtype=numpy.float32)
    return numpy.ascontiguousarray(image.transpose(2, 0, 1),
                                   dtype=numpy.float32)


def oversample(images, crop_dims):
    """Ten crops of each image of ``images`` (N, C, H, W): the four corners
    and the centre, then the same five mirrored left-right; the result is
    (10 N, C, ch, cw), the ten crops of an image consecutive."""
    ch, cw = crop_dims
    n, c, h, w = images.shape
    if ch > h or cw > w:
        raise ValueError('oversample: the crop {} is larger than the images '
                         '{}'.format((ch, cw), (h, w)))
    corners = [(0, 0), (0, w - cw), (h - ch, 0), (h - ch, w - cw),
               ((h - ch) // 2, (w - cw) // 2)]
    crops = numpy.empty((n, 10, c, ch, cw), dtype=images.dtype)
    for k, (top, left) in enumerate(corners):
        crop = images[:, :, top:top + ch, left:left + cw]
        crops[:, k] = crop
        crops[:, k + 5] = crop[:, :, :, ::-1]
    return crops.reshape(n * 10, c, ch, cw)


def forward_layers(model, x, layers, kwargs):
    """Run ``model.functions`` in order until every layer in ``layers`` is
    computed; returns ``{name: Variable}``."""
    name = type(model).__name__
    if 'test' in kwargs:
        raise ValueError("{}: the test argument is not supported anymore; "
                         "use chainer.using_config('train', False)".format(
                             name))
    if kwargs:
        raise TypeError('{}: unexpected keyword arguments {}'.format(
            name, ', '.join(sorted(kwargs))))
    functions = model.functions
    targets = set(layers)
    unknown = targets - set(functions)
    if unknown:
        raise ValueError('{}: unknown layers {}; available layers are {}'
                         .format(name, sorted(unknown), list(functions)))
    h = x
    activations = {}
    for key, funcs in functions.items():
        if not targets:
            break
        for func in funcs:
            h = func(h)
        if key in targets:
            activations[key] = h
            targets.remove(key)
    return activations


def extract(model, images, layers, size, prepare):
    """``model.forward`` of the prepared ``images`` (no change of the train
    or backprop configuration, as in Chainer)."""
    x = numpy.stack([prepare(image, size=size) for image in images])
    return model(Variable(model.device.send(x)), layers=layers)


def predict(model, images, oversample_, prepare, out_layer='prob'):
    """Class probabilities of ``images``: resized to 256x256, then the mean
    over the ten 224x224 crops (``oversample_``) or the centre crop, with
    ``config.train`` and backprop off."""
    x = numpy.stack([prepare(image, size=(256, 256)) for image in images])
    if oversample_:
        x = oversample(x, (224, 224))
    else:
        x = x[:, :, 16:240, 16:240]
    with configuration.using_config('train', False), \
            configuration.using_config('enable_backprop', False):
        y = model(Variable(model.device.send(numpy.ascontiguousarray(x))),
                  layers=[out_layer])[out_layer]
        if oversample_:
            n = y.shape[0] // 10
            y = sum_(reshape(y, (n, 10) + y.shape[1:]), axis=1) / 10
    return y


def models_dir():
    """Where ``pretrained_model='auto'`` looks for weights: Chainer's
    ``pfnet/chainer/models`` under the dataset root
    (:func:`~chainer_core.dataset.download.get_dataset_root`)."""
    return os.path.join(download.get_dataset_root(), 'pfnet', 'chainer',
                        'models')


def pretrained_path(name, pretrained_model, filename, source):
    """The npz file ``pretrained_model`` names for the model ``name``
    ('auto': ``filename`` in :func:`models_dir`; else a path). Nothing is
    downloaded: a missing file is an error saying where to put it and how
    to make it; ``source`` says where the original weights come from."""
    if pretrained_model == 'auto':
        path = os.path.join(models_dir(), filename)
        where = ("pretrained_model='auto' reads {} (the models folder under "
                 "the dataset root, set by CHAINER_DATASET_ROOT or "
                 "chainer.dataset.set_dataset_root)".format(path))
    else:
        path = os.fspath(pretrained_model)
        where = 'pretrained_model={!r}'.format(path)
    if not os.path.exists(path):
        raise FileNotFoundError(
            '{}: no pre-trained weights: {}, and that file does not exist. '
            'Nothing is downloaded at run time. Put the npz file there: '
            'convert {} with Chainer (chainer.links.{}.'
            'convert_caffemodel_to_npz(caffemodel, npz)), or save a Chainer '
            '{} holding the weights with chainer.serializers.save_npz(npz, '
            'model) (the keys are the same); or pass the path of such a '
            'file as pretrained_model, or pretrained_model=None for random '
            'weights.'.format(name, where, source, name, name))
    return path
