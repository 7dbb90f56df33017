#!/usr/bin/env python
"""Check that weights saved by ChainerCV load into chainer_cv's models and
give the same predictions.

For each model, a reference interpreter (one where ``chainer`` and
``chainercv`` import) builds ChainerCV's model with a fixed seed and random
weights, gives the biases and the batch normalisations' scales and shifts
random values (so that every saved array matters), sets the batch
normalisations' statistics to those of the test images (so that
activations keep a trained network's scale), predicts on fixed test images
of odd sizes, and saves the weights with ``chainer.serializers.save_npz``
and the outputs in a second npz. This interpreter then builds
chainer_cv's model from the weight file (its ``pretrained_model=<path>``
argument, as users do), checks that saving it writes the same arrays
(keys, shapes, dtypes), predicts on the same images and compares::

    python check_chainercv_npz.py --reference-python /path/to/python \
        [--models SSD300 YOLOv2Tiny ...] [--out DIR] [--compare-only]

It prints one line per model and output (the largest absolute difference
and the scale of the reference's values; for detectors the number of
detections and how many are found on both sides) and exits with 1 when an
output differs beyond the tolerance or a model fails on our side; a model
that fails on the reference side is reported and skipped. Detections may
differ where scores tie exactly or an overlap is within rounding of the
suppression threshold; such models are reported as "OK but for ties or
borderline suppression". ``--list`` prints the models; ``--compare-only``
compares with the files of an earlier run in ``--out``.

The reference resizes with Pillow (``cv_resize_backend = 'PIL'``), as
chainer_cv does; ChainerCV's Mask R-CNN needs OpenCV all the same (it pastes
masks with it). ChainerCV 0.13 uses ``numpy.float`` and ``numpy.bool``,
which the reference gets back on NumPy >= 1.24.
"""
import argparse
import contextlib
import importlib
import json
import os
import subprocess
import sys
import tempfile
import time
import traceback

import numpy

SEED = 0

# |ours - reference| <= ATOL + RTOL * max|reference| for float outputs.
ATOL = 1e-4
RTOL = 1e-3
# Detections are matched when their boxes overlap by at least this much.
MATCH_IOU = 0.99
# Share of agreeing pixels below which a label map fails.
MIN_LABEL_AGREEMENT = 0.995
# Where a model's scores tie (see TIES), the share of the reference's
# detections that must still be found.
MIN_MATCHED_WITH_TIES = 0.8
# Where a box overlaps another by an IoU this close to the suppression
# threshold, rounding decides whether one side keeps it; the share of the
# reference's detections that must still be found then.
BORDERLINE_IOU = 1e-3
MIN_MATCHED_BORDERLINE = 0.95


def reference_images(sizes=((119, 157), (181, 97), (75, 75))):
    """Deterministic RGB images (CHW, float32 in [0, 255]) of odd sizes:
    smooth gradients with a few filled rectangles and noise."""
    rng = numpy.random.RandomState(SEED)
    images = []
    for H, W in sizes:
        y, x = numpy.mgrid[0:H, 0:W].astype(numpy.float32)
        img = numpy.stack([
            127 + 100 * numpy.sin(x / 9.0 + c) * numpy.cos(y / 13.0 - c)
            for c in range(3)])
        for _ in range(4):
            y0, x0 = rng.randint(0, H - 10), rng.randint(0, W - 10)
            h, w = rng.randint(5, H // 2), rng.randint(5, W // 2)
            img[:, y0:y0 + h, x0:x0 + w] = rng.uniform(0, 255, (3, 1, 1))
        img += rng.normal(0, 8, img.shape)
        images.append(numpy.clip(img, 0, 255).astype(numpy.float32))
    return images


def _module(cv, name):
    return importlib.import_module(cv.__name__ + name)


# ---------------------------------------------------------------- models
#
# Each model: build(cv, pretrained_model) returns it; run(cv, chainer,
# model, images) returns a dict of numpy arrays. ``cv`` is ``chainercv``
# or ``chainer_cv``, ``chainer`` is ``chainer`` or ``chainer_core``: the
# same code runs on both sides.


def _classifier_run(size):
    def run(cv, chainer, model, images):
        out = {}
        batch = numpy.stack([
            cv.transforms.resize(img, size) - model.mean for img in images])
        picks = [name for name in model.layer_names
                 if name in ('conv1', 'conv1_1', 'pool1', 'res2', 'res3',
                             'res4', 'res5', 'pool3', 'pool5', 'fc6', 'fc7',
                             'fc8', 'prob')]
        model.pick = picks
        with chainer.using_config('train', False), \
                chainer.no_backprop_mode():
            hs = model(chainer.Variable(batch))
        for name, h in zip(picks, hs):
            out['forward/' + name] = numpy.asarray(h.array)
        model.pick = 'prob'
        predictor = cv.links.FeaturePredictor(
            model, crop_size=size, scale_size=int(size[0] * 256 / 224),
            crop='center')
        out['predict/prob'] = numpy.asarray(predictor.predict(images))
        return out
    return run


def _detection_run(preset='evaluate', names=('bboxes', 'labels', 'scores'),
                   large=False):
    """Prediction with a preset; ``large``: with one more image, larger
    than the model's input (YOLO shrinks it, the others' images are
    resized anyway)."""
    def run(cv, chainer, model, images):
        if preset is not None:
            model.use_preset(preset)
        if large:
            images = images + reference_images(((437, 503),))
        values = model.predict(images)
        out = {}
        for name, per_image in zip(names, values):
            for i, value in enumerate(per_image):
                out['{}/{}'.format(name, i)] = numpy.asarray(value)
        return out
    return run


def _segmentation_run(forward_size):
    def run(cv, chainer, model, images):
        out = {}
        for i, label in enumerate(model.predict(images)):
            out['label/{}'.format(i)] = numpy.asarray(label)
        x = cv.transforms.resize(images[0], forward_size)
        if hasattr(model, 'prepare'):
            x = model.prepare(x)
        elif getattr(model, 'mean', None) is not None:
            x = x - model.mean
        with chainer.using_config('train', False), \
                chainer.no_backprop_mode():
            y = model(chainer.Variable(x[None].astype(numpy.float32)))
        out['forward/score'] = numpy.asarray(y.array)
        return out
    return run


def _fpn(cls_name, mask):
    names = ['rois', 'bboxes', 'labels', 'scores'] + (['masks'] if mask
                                                      else [])

    def build(cv, pretrained_model):
        model = getattr(cv.links, cls_name)(
            n_fg_class=3, pretrained_model=pretrained_model,
            return_values=names, min_size=160, max_size=224)
        # Fewer proposals: ChainerCV's region pooling on the CPU is a loop
        # in Python. (ChainerCV's attributes are private, ours public.)
        for prefix in ('_', ''):
            setattr(model.rpn, prefix + 'test_nms_limit_pre', 300)
            setattr(model.rpn, prefix + 'test_nms_limit_post', 100)
        return model
    return build, _detection_run(names=names)


MODELS = {
    'VGG16': (
        lambda cv, p: cv.links.VGG16(n_class=5, pretrained_model=p),
        _classifier_run((224, 224))),
    'ResNet50-fb': (
        lambda cv, p: cv.links.ResNet50(n_class=5, pretrained_model=p,
                                        arch='fb'),
        _classifier_run((129, 129))),
    'ResNet50-he': (
        lambda cv, p: cv.links.ResNet50(n_class=5, pretrained_model=p,
                                        arch='he'),
        _classifier_run((129, 129))),
    'SEResNet50': (
        lambda cv, p: cv.links.SEResNet50(n_class=5, pretrained_model=p),
        _classifier_run((129, 129))),
    'SEResNeXt50': (
        lambda cv, p: cv.links.SEResNeXt50(n_class=5, pretrained_model=p),
        _classifier_run((129, 129))),
    'MobileNetV2': (
        lambda cv, p: cv.links.MobileNetV2(n_class=5, pretrained_model=p),
        _classifier_run((224, 224))),
    'SSD300': (
        lambda cv, p: cv.links.SSD300(n_fg_class=3, pretrained_model=p),
        _detection_run()),
    'SSD512': (
        lambda cv, p: cv.links.SSD512(n_fg_class=3, pretrained_model=p),
        _detection_run()),
    'FasterRCNNVGG16': (
        lambda cv, p: cv.links.FasterRCNNVGG16(
            n_fg_class=3, pretrained_model=p, min_size=224, max_size=320),
        _detection_run()),
    'FasterRCNNFPNResNet50': _fpn('FasterRCNNFPNResNet50', mask=False),
    'MaskRCNNFPNResNet50': _fpn('MaskRCNNFPNResNet50', mask=True),
    'YOLOv2': (
        lambda cv, p: cv.links.YOLOv2(n_fg_class=3, pretrained_model=p),
        _detection_run(large=True)),
    'YOLOv2Tiny': (
        lambda cv, p: _module(cv, '.experimental.links').YOLOv2Tiny(
            n_fg_class=3, pretrained_model=p),
        _detection_run(large=True)),
    'YOLOv3': (
        lambda cv, p: cv.links.YOLOv3(n_fg_class=3, pretrained_model=p),
        _detection_run(large=True)),
    'SegNetBasic': (
        lambda cv, p: cv.links.SegNetBasic(n_class=4, pretrained_model=p),
        _segmentation_run((96, 128))),
    'DeepLabV3plusXception65': (
        lambda cv, p: cv.links.DeepLabV3plusXception65(
            n_class=4, pretrained_model=p, min_input_size=(129, 129)),
        _segmentation_run((129, 129))),
    'PSPNetResNet50': (
        lambda cv, p: _module(cv, '.experimental.links').PSPNetResNet50(
            n_class=4, pretrained_model=p, input_size=(161, 161)),
        _segmentation_run((161, 161))),
}

# Where scores tie exactly, non-maximum suppression keeps whichever tied
# box it visits first. ChainerCV visits them in the order of NumPy's
# unstable argsort, which changes with NumPy's version; chainer_cv in a
# stable order (the input order). The detections then differ by those
# boxes and the boxes they suppress.
_PADDING = 'the grey padding around an image gives equal cells'
TIES = {
    'FasterRCNNVGG16': 'the region proposal network scores many anchors '
    'alike on these weights',
    'YOLOv2': _PADDING,
    'YOLOv2Tiny': _PADDING,
    'YOLOv3': _PADDING,
}

# Fast enough (seconds each on two CPU cores) for a routine test.
FAST_MODELS = ('YOLOv2Tiny', 'SegNetBasic')


# ------------------------------------------------------- reference side


def _perturb(model, rng):
    """Give the parameters that random initialisation leaves constant
    (biases, batch normalisation's scales and shifts, SSD's L2
    normalisation scale) random values of the usual magnitude."""
    for name, param in sorted(model.namedparams()):
        if param.array is None:
            continue
        leaf = name.rsplit('/', 1)[-1]
        a = param.array
        if leaf in ('gamma', 'scale'):
            a *= rng.uniform(0.8, 1.2, a.shape).astype(a.dtype)
        elif leaf in ('b', 'beta'):
            a += rng.normal(0, 0.1, a.shape).astype(a.dtype)


def _calibration_hook(chainer):
    """A link hook that sets each batch normalisation's statistics to
    those of its input just before it normalises it, so that a pass over
    the test images leaves statistics like those of a trained network
    (random weights with the initial statistics let activations grow by
    orders of magnitude from layer to layer)."""

    class Calibrate(chainer.LinkHook):
        name = 'Calibrate'

        def forward_preprocess(self, args):
            link = args.link
            if not isinstance(link, chainer.links.BatchNormalization) or \
                    link.avg_mean is None:
                return
            x = args.args[0]
            x = getattr(x, 'array', x)
            axes = (0,) + tuple(range(2, x.ndim))
            link.avg_mean[...] = x.mean(axis=axes)
            link.avg_var[...] = x.var(axis=axes)

    return Calibrate()


def _restore_numpy_aliases():
    """ChainerCV 0.13 uses ``numpy.bool`` and ``numpy.float``, which NumPy
    1.24 removed: put the builtins back under those names."""
    for name, value in (('bool', bool), ('float', float), ('int', int),
                        ('complex', complex), ('object', object),
                        ('str', str)):
        if name not in vars(numpy):
            setattr(numpy, name, value)


def reference_side(names, out_dir):
    import chainer
    import chainercv
    # chainer_cv resamples with Pillow: ChainerCV's choice where OpenCV is
    # not installed (with OpenCV, its bilinear resampling differs).
    chainer.global_config.cv_resize_backend = 'PIL'
    _restore_numpy_aliases()
    images = reference_images()
    for name in names:
        meta = {'name': name}
        try:
            build, run = MODELS[name]
            numpy.random.seed(SEED)
            model = build(chainercv, None)
            calibrate = any(
                isinstance(link, chainer.links.BatchNormalization)
                for link in model.links())
            # A first prediction creates the lazily initialised parameters
            # (calibrated already: uncalibrated, a Faster R-CNN with FPN
            # can propose nothing).
            with _calibration_hook(chainer) if calibrate else \
                    contextlib.nullcontext():
                run(chainercv, chainer, model, images[-1:])
            _perturb(model, numpy.random.RandomState(SEED + 1))
            if calibrate:
                with _calibration_hook(chainer):
                    run(chainercv, chainer, model, images)
            start = time.time()
            outputs = run(chainercv, chainer, model, images)
            meta['seconds'] = time.time() - start
            chainer.serializers.save_npz(
                os.path.join(out_dir, name + '.weights.npz'), model)
            numpy.savez(os.path.join(out_dir, name + '.outputs.npz'),
                        **outputs)
            meta['ok'] = True
        except Exception as e:
            meta['ok'] = False
            meta['error'] = '{}: {}'.format(type(e).__name__, e)
            meta['traceback'] = traceback.format_exc()
        with open(os.path.join(out_dir, name + '.meta.json'), 'w') as f:
            json.dump(meta, f)
        print('reference', name, 'ok' if meta['ok'] else meta['error'],
              flush=True)


# ------------------------------------------------------------ comparing


def _iou(a, b):
    tl = numpy.maximum(a[:, None, :2], b[None, :, :2])
    br = numpy.minimum(a[:, None, 2:], b[None, :, 2:])
    inter = numpy.prod(numpy.clip(br - tl, 0, None), axis=2)
    area_a = numpy.prod(a[:, 2:] - a[:, :2], axis=1)
    area_b = numpy.prod(b[:, 2:] - b[:, :2], axis=1)
    return inter / numpy.maximum(area_a[:, None] + area_b[None] - inter,
                                 1e-12)


def _float_line(key, ref, ours):
    if ref.shape != ours.shape:
        return False, '{}: shape {} (ChainerCV) != {} (ours)'.format(
            key, ref.shape, ours.shape)
    ref = ref.astype(numpy.float64)
    ours = ours.astype(numpy.float64)
    diff = float(numpy.max(numpy.abs(ref - ours))) if ref.size else 0.0
    scale = float(numpy.max(numpy.abs(ref))) if ref.size else 0.0
    ok = diff <= ATOL + RTOL * scale
    return ok, '{}: max abs diff {:.3g} (values up to {:.3g})'.format(
        key, diff, scale)


def _match(ref, ours):
    """(ref indices, our indices, how): the detections found on both
    sides: in the same order if they are, else matched greedily in the
    reference's order (same label, the best IoU, at least MATCH_IOU)."""
    n_ref, n_ours = len(ref['labels']), len(ours['labels'])
    if n_ref == n_ours and numpy.array_equal(ref['labels'], ours['labels']) \
            and (n_ref == 0 or numpy.all(numpy.diag(
                _iou(ref['bboxes'], ours['bboxes'])) >= MATCH_IOU)):
        return numpy.arange(n_ref), numpy.arange(n_ref), 'same order'
    iou = _iou(ref['bboxes'], ours['bboxes']) if n_ref and n_ours \
        else numpy.zeros((n_ref, n_ours))
    iou = numpy.where(ref['labels'][:, None] == ours['labels'][None], iou, 0)
    taken = numpy.zeros(n_ours, bool)
    r_idx, o_idx = [], []
    for r in range(n_ref):
        cand = numpy.where(taken, -1, iou[r])
        if n_ours and cand.max() >= MATCH_IOU:
            o = int(cand.argmax())
            taken[o] = True
            r_idx.append(r)
            o_idx.append(o)
    return (numpy.array(r_idx, int), numpy.array(o_idx, int),
            'matched {} of {}'.format(len(r_idx), n_ref))


def _borderline(ref, ours, r, o, nms_thresh):
    """Whether an unmatched detection overlaps another detection of its
    class, on either side, by an IoU within BORDERLINE_IOU of
    ``nms_thresh``: a box that one side suppresses and the other keeps
    because of rounding."""
    if nms_thresh is None:
        return False
    for mine, other, matched in ((ref, ours, r), (ours, ref, o)):
        unmatched = numpy.setdiff1d(numpy.arange(len(mine['labels'])),
                                    matched)
        for k in unmatched:
            for side in (mine, other):
                same = side['labels'] == mine['labels'][k]
                iou = _iou(mine['bboxes'][k:k + 1].astype(numpy.float64),
                           side['bboxes'][same].astype(numpy.float64))[0]
                if numpy.any(numpy.abs(iou - nms_thresh) < BORDERLINE_IOU):
                    return True
    return False


def _compare_detections(i, ref, ours, ties=None, nms_thresh=None):
    """Lines for image ``i``'s detections; ``ref`` and ``ours`` map
    'bboxes', 'labels', 'scores' (and 'masks') to arrays. Detections may
    differ where scores tie (``ties``: why the model's scores tie, if
    they do) or a box overlaps another by an IoU next to the model's
    ``nms_thresh``, down to MIN_MATCHED_WITH_TIES and
    MIN_MATCHED_BORDERLINE of them found on both sides."""
    n_ref, n_ours = len(ref['labels']), len(ours['labels'])
    r, o, how = _match(ref, ours)
    ok = len(r) == n_ref == n_ours
    head = 'detections/{}: {} (ChainerCV) / {} (ours), {}'.format(
        i, n_ref, n_ours, how)
    n = max(n_ref, n_ours)
    if not ok and ties and len(r) >= MIN_MATCHED_WITH_TIES * n:
        ok = True
        head += ' (tied scores: ' + ties + ')'
    elif not ok and len(r) >= MIN_MATCHED_BORDERLINE * n and _borderline(
            ref, ours, r, o, nms_thresh):
        ok = True
        head += ' (borderline suppression: an IoU within {} of the ' \
            'threshold {})'.format(BORDERLINE_IOU, nms_thresh)
    if not ok and len(r) < n_ref:
        unmatched = numpy.setdiff1d(numpy.arange(n_ref), r)
        head += '; unmatched reference scores {:.4g}..{:.4g}'.format(
            ref['scores'][unmatched].min(), ref['scores'][unmatched].max())
    lines = [(ok, head)]
    for key in ('bboxes', 'scores'):
        lines.append(_float_line('{}/{}'.format(key, i),
                                 ref[key][r], ours[key][o]))
    if 'masks' in ref:
        a, b = ref['masks'][r], ours['masks'][o]
        if a.shape != b.shape:
            lines.append((False, 'masks/{}: shape {} != {}'.format(
                i, a.shape, b.shape)))
        else:
            differ = float(numpy.mean(a != b)) if a.size else 0.0
            lines.append((differ <= 1e-3, 'masks/{}: {:.3g} of the pixels '
                          'differ'.format(i, differ)))
    return lines


def compare(ref, ours, ties=None, nms_thresh=None):
    """[(ok, line)] for two dicts of outputs (``ties``, ``nms_thresh``: as
    :func:`_compare_detections`)."""
    lines = []
    missing = sorted(set(ref) - set(ours))
    if missing:
        lines.append((False, 'outputs missing on our side: {}'.format(
            ', '.join(missing))))
    detections = {}
    for key in sorted(ref):
        if key not in ours:
            continue
        kind, _, index = key.rpartition('/')
        if kind in ('bboxes', 'labels', 'scores', 'masks'):
            detections.setdefault(int(index), set()).add(kind)
        elif kind == 'label':
            a, b = ref[key], ours[key]
            if a.shape != b.shape:
                lines.append((False, '{}: shape {} != {}'.format(
                    key, a.shape, b.shape)))
            else:
                agree = float(numpy.mean(a == b))
                lines.append((agree >= MIN_LABEL_AGREEMENT,
                              '{}: {:.4%} of the pixels agree'.format(
                                  key, agree)))
        else:
            lines.append(_float_line(key, ref[key], ours[key]))
    for i, kinds in sorted(detections.items()):
        if not {'bboxes', 'labels', 'scores'} <= kinds:
            continue
        pick = {k: numpy.asarray(ref['{}/{}'.format(k, i)]) for k in kinds}
        mine = {k: numpy.asarray(ours['{}/{}'.format(k, i)]) for k in kinds}
        lines.extend(_compare_detections(i, pick, mine, ties, nms_thresh))
    return lines


def npz_arrays(path):
    """{key: (shape, dtype name)} of the arrays of an npz file."""
    with numpy.load(path, allow_pickle=True) as f:
        return {k: (f[k].shape, f[k].dtype.name) for k in f.files}


def compare_keys(chainer, model, path):
    """(ok, line): whether saving ``model`` writes the arrays of the
    weight file at ``path``, key for key, shape for shape (loading skips
    the keys of the file that the model lacks)."""
    with tempfile.TemporaryDirectory() as tmp:
        mine = os.path.join(tmp, 'ours.npz')
        chainer.serializers.save_npz(mine, model)
        ours = npz_arrays(mine)
    ref = npz_arrays(path)
    problems = []
    only_ref = sorted(set(ref) - set(ours))
    only_ours = sorted(set(ours) - set(ref))
    if only_ref:
        problems.append('not in our model: ' + ', '.join(
            '{} {}'.format(k, ref[k]) for k in only_ref))
    if only_ours:
        problems.append('not in the file: ' + ', '.join(
            '{} {}'.format(k, ours[k]) for k in only_ours))
    differ = sorted(k for k in set(ref) & set(ours) if ref[k] != ours[k])
    if differ:
        problems.append('shapes or dtypes differ: ' + ', '.join(
            '{} {} {} (file) {} {} (ours)'.format(k, *(ref[k] + ours[k]))
            for k in differ))
    if problems:
        return False, 'arrays: ' + '; '.join(problems)
    return True, 'arrays: the {} arrays of the file, same keys, shapes ' \
        'and dtypes'.format(len(ref))


def our_side(names, out_dir):
    import chainer_core as chainer
    import chainer_cv
    images = reference_images()
    failed = []
    for name in names:
        with open(os.path.join(out_dir, name + '.meta.json')) as f:
            meta = json.load(f)
        if not meta['ok']:
            print('{}: SKIPPED, fails on the reference side: {}'.format(
                name, meta['error']), flush=True)
            continue
        build, run = MODELS[name]
        ties = TIES.get(name)
        try:
            model = build(chainer_cv,
                          os.path.join(out_dir, name + '.weights.npz'))
            start = time.time()
            outputs = run(chainer_cv, chainer, model, images)
            seconds = time.time() - start
        except Exception as e:
            print('{}: FAILED on our side: {}: {}'.format(
                name, type(e).__name__, e), flush=True)
            traceback.print_exc()
            failed.append(name)
            continue
        with numpy.load(os.path.join(out_dir, name + '.outputs.npz')) as f:
            ref = {k: f[k] for k in f.files}
        lines = [compare_keys(chainer, model, os.path.join(
            out_dir, name + '.weights.npz'))] + compare(
                ref, outputs, ties, getattr(model, 'nms_thresh', None))
        ok = all(good for good, _ in lines)
        status = 'MISMATCH'
        if ok:
            status = 'OK'
            if any('(tied scores' in line or '(borderline' in line
                   for _, line in lines):
                status = 'OK but for ties or borderline suppression'
        print('{}: {} (predict {:.1f} s ChainerCV, {:.1f} s ours)'.format(
            name, status, meta['seconds'], seconds), flush=True)
        for good, line in lines:
            print('    {} {}'.format(' ' if good else '!', line))
        if not ok:
            failed.append(name)
    return failed


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--reference-python',
                        help='an interpreter where chainer and chainercv '
                        'import')
    parser.add_argument('--models', nargs='+', default=list(MODELS),
                        choices=list(MODELS), metavar='MODEL')
    parser.add_argument('--out', help='where the weights and outputs go '
                        '(default: a temporary directory)')
    parser.add_argument('--list', action='store_true',
                        help='print the models and exit')
    parser.add_argument('--compare-only', action='store_true',
                        help='compare with the files an earlier run left '
                        'in --out, without running the reference')
    parser.add_argument('--reference-side', action='store_true',
                        help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.list:
        print('\n'.join(MODELS))
        return 0
    if args.reference_side:
        reference_side(args.models, args.out)
        return 0
    if args.compare_only:
        if not args.out:
            parser.error('--compare-only needs --out')
    elif not args.reference_python:
        parser.error('--reference-python is required')
    with tempfile.TemporaryDirectory() as tmp:
        out = args.out or tmp
        os.makedirs(out, exist_ok=True)
        if not args.compare_only:
            subprocess.run(
                [args.reference_python, os.path.abspath(__file__),
                 '--reference-side', '--out', out, '--models'] + args.models,
                check=True)
        failed = our_side(args.models, out)
    if failed:
        print('differ or fail: ' + ', '.join(failed))
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())
