"""Validation of the per-image arrays the evaluations take.

Every error names the public function, the argument (with the image index)
and what was expected against what was given, because a wrong array deep
in a validation set is otherwise reported as an obscure broadcasting error
long after the prediction that produced it.
"""
import numpy


def per_image(fname, **sequences):
    """Lists of the given sequences (one entry per image), all of one length.

    ``None`` values are passed through; they stand for an optional
    argument left out.
    """
    lists = {name: None if seq is None else list(seq)
             for name, seq in sequences.items()}
    given = [(name, len(seq)) for name, seq in lists.items()
             if seq is not None]
    lengths = {n for _, n in given}
    if len(lengths) > 1:
        raise ValueError(
            '{}: the sequences must hold one entry per image, so have one '
            'length; got {}'.format(
                fname, ', '.join('len({})={}'.format(name, n)
                                 for name, n in given)))
    return lists


def host(array):
    if isinstance(array, numpy.ndarray):
        return array
    if hasattr(array, 'shape') and hasattr(array, 'dtype'):
        from chainer_core.backends import cuda
        return numpy.asarray(cuda.to_cpu(array))
    return numpy.asarray(array)


def _where(name, index):
    return name if index is None else '{}[{}]'.format(name, index)


def bboxes(fname, name, index, array):
    """``(R, 4)`` float64 boxes; an empty array of any shape is no box."""
    array = host(array)
    if array.size == 0:
        return numpy.zeros((0, 4))
    if array.ndim != 2 or array.shape[1] != 4:
        raise ValueError(
            '{}: {} must be bounding boxes of shape (R, 4) '
            '(y_min, x_min, y_max, x_max), got shape {}'.format(
                fname, _where(name, index), array.shape))
    if array.dtype.kind not in 'iuf':
        raise TypeError('{}: {} must hold numbers, got dtype {}'.format(
            fname, _where(name, index), array.dtype))
    return array.astype(numpy.float64)


def masks(fname, name, index, array):
    """``(R, H, W)`` bool masks."""
    array = host(array)
    if array.ndim != 3:
        raise ValueError(
            '{}: {} must be masks of shape (R, H, W), got shape {}'.format(
                fname, _where(name, index), array.shape))
    if array.dtype != numpy.bool_:
        raise TypeError('{}: {} must be bool masks, got dtype {}'.format(
            fname, _where(name, index), array.dtype))
    return array


def vector(fname, name, index, array, length, kind):
    """A 1-d array of ``length`` entries of the dtype ``kind``: ``'label'``
    (integers >= 0), ``'score'`` (numbers), ``'flag'`` (bools or 0/1) or
    ``'area'`` (numbers >= 0)."""
    array = host(array)
    where = _where(name, index)
    if array.ndim != 1 or len(array) != length:
        raise ValueError(
            '{}: {} must have the shape ({},), one entry per instance, got '
            'shape {}'.format(fname, where, length, array.shape))
    if length == 0:
        return array.astype(_DTYPES[kind])
    allowed = {'label': 'iu', 'score': 'iuf', 'flag': 'biu',
               'area': 'iuf'}[kind]
    if array.dtype.kind not in allowed:
        raise TypeError('{}: {} must have an {} dtype, got {}'.format(
            fname, where, _DTYPE_NAMES[kind], array.dtype))
    if kind in ('label', 'area') and array.min() < 0:
        raise ValueError('{}: {} must be >= 0, got {}'.format(
            fname, where, array.min()))
    return array.astype(_DTYPES[kind])


_DTYPES = {'label': numpy.int64, 'score': numpy.float64,
           'flag': numpy.bool_, 'area': numpy.float64}
_DTYPE_NAMES = {'label': 'integer', 'score': 'integer or float',
                'flag': 'bool or integer', 'area': 'integer or float'}


def same_image_size(fname, pred_name, gt_name, index, pred, gt):
    if pred.shape[1:] != gt.shape[1:]:
        raise ValueError(
            '{}: {}[{}] and {}[{}] must be masks of one image size, got '
            '{} and {}'.format(fname, pred_name, index, gt_name, index,
                               pred.shape[1:], gt.shape[1:]))


def instances(fname, index, region_kind, region_name, regions, **vectors):
    """The validated arrays of the instances of one image.

    ``region_kind`` is ``'bbox'`` or ``'mask'``; each keyword is
    ``name=(array, kind)`` as for :func:`vector`, with ``array`` None for
    an optional argument left out (None is returned for it). Returns the
    regions then the vectors, in the keywords' order.
    """
    check = bboxes if region_kind == 'bbox' else masks
    regions = check(fname, region_name, index, regions)
    result = [regions]
    for name, (array, kind) in vectors.items():
        result.append(None if array is None else vector(
            fname, name, index, array, len(regions), kind))
    return result
