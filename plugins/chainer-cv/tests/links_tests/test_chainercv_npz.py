"""ChainerCV's weight files: our models save the arrays ChainerCV's do
(names, shapes and dtypes, read off files ChainerCV 0.13.1 saved), and,
given an interpreter with ChainerCV in ``CHAINER_CV_REFERENCE_PYTHON``,
the files ChainerCV saves load into our models and give the same
predictions (``tools/check_chainercv_npz.py``)."""
import importlib.util
import os
import subprocess

import numpy
import pytest

import chainer_core
from chainer_core import serializers

from chainer_cv import experimental
from chainer_cv import links

_TOOL = os.path.join(os.path.dirname(__file__), '..', '..', 'tools',
                     'check_chainercv_npz.py')


def _load_tool():
    spec = importlib.util.spec_from_file_location('check_chainercv_npz',
                                                  _TOOL)
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    return tool


def _saved(model):
    """{key: (shape, dtype name)} of what ``save_npz`` writes for ``model``
    (its keys and arrays are those of the dictionary serializer)."""
    serializer = serializers.DictionarySerializer()
    serializer.save(model)
    return {k: (numpy.asarray(v).shape, numpy.asarray(v).dtype.name)
            for k, v in serializer.target.items()}


def _conv_bn(prefix, out_channels, in_channels, ksize):
    """The arrays of ChainerCV's Conv2DBNActiv without bias."""
    return {
        prefix + '/conv/W': ((out_channels, in_channels, ksize, ksize),
                             'float32'),
        prefix + '/bn/gamma': ((out_channels,), 'float32'),
        prefix + '/bn/beta': ((out_channels,), 'float32'),
        prefix + '/bn/avg_mean': ((out_channels,), 'float32'),
        prefix + '/bn/avg_var': ((out_channels,), 'float32'),
        prefix + '/bn/N': ((), 'int64'),
    }


# The 50 arrays of ChainerCV's YOLOv2Tiny(n_fg_class=3): eight 3 x 3
# convolutions with batch normalisation (16 to 1024 channels), then a
# 1 x 1 convolution with bias giving 5 anchors x (4 + 1 + 3) outputs.
YOLO_V2_TINY_ARRAYS = {
    **_conv_bn('extractor/0', 16, 3, 3),
    **_conv_bn('extractor/1', 32, 16, 3),
    **_conv_bn('extractor/2', 64, 32, 3),
    **_conv_bn('extractor/3', 128, 64, 3),
    **_conv_bn('extractor/4', 256, 128, 3),
    **_conv_bn('extractor/5', 512, 256, 3),
    **_conv_bn('extractor/6', 1024, 512, 3),
    **_conv_bn('extractor/7', 1024, 1024, 3),
    'subnet/W': ((40, 1024, 1, 1), 'float32'),
    'subnet/b': ((40,), 'float32'),
}

# Some of the 71 arrays of ChainerCV's SSD300(n_fg_class=3).
SSD300_ARRAYS = {
    'extractor/conv1_1/W': ((64, 3, 3, 3), 'float32'),
    'extractor/conv1_1/b': ((64,), 'float32'),
    'extractor/conv1_2/W': ((64, 64, 3, 3), 'float32'),
    'extractor/conv1_2/b': ((64,), 'float32'),
    'extractor/conv4_3/W': ((512, 512, 3, 3), 'float32'),
    'extractor/conv4_3/b': ((512,), 'float32'),
    'extractor/norm4/scale': ((512,), 'float32'),
    'extractor/conv6/W': ((1024, 512, 3, 3), 'float32'),
    'extractor/conv6/b': ((1024,), 'float32'),
    'extractor/conv11_2/W': ((256, 128, 3, 3), 'float32'),
    'extractor/conv11_2/b': ((256,), 'float32'),
    # 4 default boxes at conv4_3: 4 x 4 offsets and 4 x 4 class scores.
    'multibox/loc/0/W': ((16, 512, 3, 3), 'float32'),
    'multibox/loc/0/b': ((16,), 'float32'),
    'multibox/conf/0/W': ((16, 512, 3, 3), 'float32'),
    'multibox/conf/0/b': ((16,), 'float32'),
}


def test_yolo_v2_tiny_saves_chainercvs_arrays(tmp_path):
    model = experimental.links.YOLOv2Tiny(n_fg_class=3)
    assert _saved(model) == YOLO_V2_TINY_ARRAYS
    path = str(tmp_path / 'tiny.npz')
    serializers.save_npz(path, model)
    with numpy.load(path) as f:
        assert {k: (f[k].shape, f[k].dtype.name)
                for k in f.files} == YOLO_V2_TINY_ARRAYS


def test_ssd300_saves_chainercvs_arrays():
    model = links.SSD300(n_fg_class=3)
    with chainer_core.no_backprop_mode(), \
            chainer_core.using_config('train', False):
        model(numpy.zeros((1, 3, 300, 300), numpy.float32))
    saved = _saved(model)
    assert len(saved) == 71
    assert {k: saved.get(k) for k in SSD300_ARRAYS} == SSD300_ARRAYS
    assert {k.split('/')[0] for k in saved} == {'extractor', 'multibox'}


@pytest.mark.parametrize('cls,first,second', [
    # As ChainerCV's: SE-ResNet strides in the first 1x1 convolution of a
    # stage's first block, SE-ResNeXt (and ResNet 'fb') in the 3x3 one.
    (links.SEResNet50, 2, 1),
    (links.SEResNeXt50, 1, 2),
])
def test_where_the_blocks_stride(cls, first, second):
    zero = chainer_core.initializers.Zero()
    block = cls(n_class=2, initialW=zero, fc_kwargs={'initialW': zero}).res3.a
    assert block.conv1.conv.stride == (first, first)
    assert block.conv2.conv.stride == (second, second)


def test_a_missing_array_is_named(tmp_path):
    path = str(tmp_path / 'segnet.npz')
    serializers.save_npz(path, links.SegNetBasic(n_class=4))
    with numpy.load(path) as f:
        arrays = {k: f[k] for k in f.files if k != 'conv3_bn/avg_var'}
    numpy.savez(path, **arrays)
    with pytest.raises(KeyError, match='conv3_bn/avg_var'):
        links.SegNetBasic(n_class=4, pretrained_model=path)


def test_yolo_files_may_lack_arrays(tmp_path):
    # As ChainerCV, YOLO's files are loaded leniently: an array missing
    # from the file keeps its initial value.
    arrays = {k: numpy.full(shape, 0.5, dtype)
              for k, (shape, dtype) in YOLO_V2_TINY_ARRAYS.items()}
    del arrays['extractor/3/bn/avg_var']
    path = str(tmp_path / 'tiny.npz')
    numpy.savez(path, **arrays)
    model = experimental.links.YOLOv2Tiny(n_fg_class=3, pretrained_model=path)
    numpy.testing.assert_array_equal(model.extractor[3].bn.avg_var, 1)
    numpy.testing.assert_array_equal(model.extractor[3].bn.avg_mean, 0.5)


def test_a_wrong_shape_is_named_with_both_shapes(tmp_path):
    arrays = {k: numpy.zeros(shape, dtype)
              for k, (shape, dtype) in YOLO_V2_TINY_ARRAYS.items()}
    # Weights for 4 classes loaded into a model of 3.
    arrays['subnet/W'] = numpy.zeros((45, 1024, 1, 1), numpy.float32)
    path = str(tmp_path / 'tiny.npz')
    numpy.savez(path, **arrays)
    with pytest.raises(ValueError, match=r'subnet/W.*\(40, 1024, 1, 1\).*'
                       r'\(45, 1024, 1, 1\)'):
        experimental.links.YOLOv2Tiny(n_fg_class=3, pretrained_model=path)


def test_comparison_flags_differences():
    tool = _load_tool()
    bbox = numpy.array([[0, 0, 10, 10], [20, 20, 30, 40]], numpy.float32)
    ref = {'bboxes/0': bbox, 'labels/0': numpy.array([0, 1], numpy.int32),
           'scores/0': numpy.array([0.9, 0.8], numpy.float32),
           'forward/prob': numpy.array([0.25, 0.75], numpy.float32)}
    assert all(ok for ok, _ in tool.compare(ref, dict(ref)))
    ours = dict(ref, **{'forward/prob': numpy.array([0.3, 0.7])})
    assert not all(ok for ok, _ in tool.compare(ref, ours))
    ours = dict(ref, **{'labels/0': numpy.array([0, 0], numpy.int32)})
    assert not all(ok for ok, _ in tool.compare(ref, ours))
    ours = {k: v[:1] if k.endswith('/0') else v for k, v in ref.items()}
    assert not all(ok for ok, _ in tool.compare(ref, ours))


# The reference: an interpreter where chainer and chainercv import.
_REFERENCE = os.environ.get('CHAINER_CV_REFERENCE_PYTHON')


def _reference_or_skip():
    if not _REFERENCE:
        pytest.skip('CHAINER_CV_REFERENCE_PYTHON is not set (the path of a '
                    'Python interpreter where chainer and chainercv import)')
    try:
        found = subprocess.run(
            [_REFERENCE, '-c', 'import chainer, chainercv'],
            capture_output=True, text=True)
    except OSError as e:
        pytest.skip('CHAINER_CV_REFERENCE_PYTHON={} does not run: {}'.format(
            _REFERENCE, e))
    if found.returncode:
        pytest.skip('CHAINER_CV_REFERENCE_PYTHON={}: chainer and chainercv '
                    'do not import there: {}'.format(
                        _REFERENCE,
                        (found.stderr.strip().splitlines() or ['?'])[-1]))
    return _REFERENCE


def _check(models, tmp_path, capsys):
    tool = _load_tool()
    status = tool.main(['--reference-python', _reference_or_skip(),
                        '--out', str(tmp_path), '--models'] + list(models))
    report = capsys.readouterr().out
    assert status == 0, report
    for name in models:
        assert '{}: OK'.format(name) in report, report
    return report


def test_fast_models_match_chainercv(tmp_path, capsys):
    # YOLOv2Tiny and SegNetBasic, about 15 seconds.
    _check(_load_tool().FAST_MODELS, tmp_path, capsys)


_SLOW = ('VGG16', 'ResNet50-fb', 'ResNet50-he', 'SEResNet50', 'SEResNeXt50',
         'SSD300', 'SSD512', 'FasterRCNNVGG16', 'FasterRCNNFPNResNet50',
         'MaskRCNNFPNResNet50', 'YOLOv2', 'YOLOv3', 'DeepLabV3plusXception65',
         'PSPNetResNet50')


@pytest.mark.slow
@pytest.mark.parametrize('name', _SLOW)
def test_model_matches_chainercv(name, tmp_path, capsys):
    _check((name,), tmp_path, capsys)
