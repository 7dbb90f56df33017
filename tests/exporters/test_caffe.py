"""chainer_core.exporters.caffe: the prototxt is compared with the one
Chainer 7.8.1 writes for the same model (``chainer_7_8_1_cnn.prototxt``),
and the caffemodel is decoded by a protobuf reader written here from the
wire-format specification and caffe.proto's field numbers."""
import os
import struct

import numpy
import pytest

import chainer_core as chainer
from chainer_core.exporters import caffe
import chainer_core.functions as F
import chainer_core.links as L

_HERE = os.path.dirname(__file__)


def _read_varint(buf, pos):
    shift = result = 0
    while True:
        byte = buf[pos]
        pos += 1
        result |= (byte & 0x7f) << shift
        shift += 7
        if not byte & 0x80:
            return result, pos


def _decode(buf):
    """``{field number: [raw values]}``: ints for varints, bytes for
    length-delimited fields, 4-byte strings for fixed32."""
    fields = {}
    pos = 0
    while pos < len(buf):
        key, pos = _read_varint(buf, pos)
        number, wire = key >> 3, key & 7
        if wire == 0:
            value, pos = _read_varint(buf, pos)
        elif wire == 2:
            size, pos = _read_varint(buf, pos)
            value, pos = buf[pos:pos + size], pos + size
        elif wire == 5:
            value, pos = buf[pos:pos + 4], pos + 4
        else:
            raise AssertionError('unexpected wire type {}'.format(wire))
        fields.setdefault(number, []).append(value)
    return fields


def _signed(v):
    return v - (1 << 64) if v >= 1 << 63 else v


def _ints(packed):
    out, pos = [], 0
    while pos < len(packed):
        v, pos = _read_varint(packed, pos)
        out.append(_signed(v))
    return out


def _float(raw):
    return struct.unpack('<f', raw)[0]


def _blob(raw):
    f = _decode(raw)
    shape = tuple(_ints(_decode(f[7][0])[1][0]))
    data = numpy.frombuffer(f[5][0], '<f4')
    return data.reshape(shape)


def _layers(path):
    with open(path, 'rb') as fh:
        net = _decode(fh.read())
    layers = []
    for raw in net[100]:
        f = _decode(raw)
        layers.append({
            'name': f[1][0].decode(), 'type': f[2][0].decode(),
            'bottom': [b.decode() for b in f.get(3, [])],
            'top': [t.decode() for t in f[4]],
            'blobs': [_blob(b) for b in f.get(7, [])],
            'phase': f[10][0],
            'params': {n: _decode(v[0]) for n, v in f.items() if n >= 100}})
    return layers


class _Net(chainer.Chain):
    """The model ``chainer_7_8_1_cnn.prototxt`` was written for."""

    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.conv1 = L.Convolution2D(3, 4, 3, stride=1, pad=1)
            self.bn1 = L.BatchNormalization(4)
            self.conv2 = L.Convolution2D(4, 4, 3, stride=2, pad=1,
                                         nobias=True)
            self.deconv = L.Deconvolution2D(8, 2, 2, stride=2)
            self.fc = L.Linear(None, 5)

    def forward(self, x):
        h = F.relu(self.bn1(self.conv1(x)))
        h = F.max_pooling_2d(h, 2, stride=2)
        h = F.local_response_normalization(h)
        a = F.leaky_relu(self.conv2(h), slope=0.1)
        b = F.average_pooling_2d(h, 3, stride=2, pad=1)
        h = self.deconv(F.concat((a, b), axis=1))
        h = F.sigmoid(h)
        h = h + h
        h = F.reshape(h, (1, -1))
        return F.softmax(self.fc(h))


@pytest.fixture
def exported(tmp_path):
    rng = numpy.random.RandomState(0)
    model = _Net()
    model.bn1.avg_mean[...] = rng.randn(4)
    model.bn1.avg_var[...] = rng.rand(4) + .5
    model.bn1.gamma.array[...] = rng.randn(4)
    model.bn1.beta.array[...] = rng.randn(4)
    x = rng.rand(1, 3, 8, 8).astype(numpy.float32)
    caffe.export(model, [chainer.Variable(x)], str(tmp_path), True, 'test')
    return model, tmp_path


def test_prototxt_is_chainers(exported):
    _, out = exported
    with open(os.path.join(_HERE, 'chainer_7_8_1_cnn.prototxt')) as f:
        expected = f.read()
    assert (out / 'chainer_model.prototxt').read_text() == expected


def test_caffemodel_layers(exported):
    model, out = exported
    layers = _layers(str(out / 'chainer_model.caffemodel'))
    assert [(l['name'], l['type']) for l in layers] == [
        ('Convolution2DFunction-0-1', 'Convolution'),
        ('FixedBatchNormalization-1-1_bn', 'BatchNorm'),
        ('FixedBatchNormalization-1-1', 'Scale'),
        ('ReLU-2-1', 'ReLU'), ('MaxPoolingND-3-1', 'Pooling'),
        ('LocalResponseNormalization-4-1', 'LRN'),
        ('AveragePooling2D-5-1', 'Pooling'),
        ('Convolution2DFunction-5-1', 'Convolution'),
        ('LeakyReLU-6-1', 'ReLU'), ('Concat-7-1', 'Concat'),
        ('Deconvolution2DFunction-8-1', 'Deconvolution'),
        ('Sigmoid-9-1', 'Sigmoid'), ('_ + _-10-1', 'Eltwise'),
        ('Reshape-11-1', 'Reshape'), ('LinearFunction-12-1', 'InnerProduct'),
        ('Softmax-13-1', 'Softmax')]
    assert all(l['phase'] == 1 for l in layers)
    by_name = {l['name']: l for l in layers}
    assert by_name['Concat-7-1']['bottom'] == [
        'LeakyReLU-6-1', 'AveragePooling2D-5-1']
    assert by_name['_ + _-10-1']['bottom'] == ['Sigmoid-9-1'] * 2
    assert by_name['Convolution2DFunction-0-1']['bottom'] == ['data']

    conv1 = by_name['Convolution2DFunction-0-1']
    numpy.testing.assert_array_equal(conv1['blobs'][0], model.conv1.W.array)
    numpy.testing.assert_array_equal(conv1['blobs'][1], model.conv1.b.array)
    assert len(by_name['Convolution2DFunction-5-1']['blobs']) == 1
    bn = by_name['FixedBatchNormalization-1-1_bn']['blobs']
    numpy.testing.assert_array_equal(bn[0], model.bn1.avg_mean)
    numpy.testing.assert_array_equal(bn[1], model.bn1.avg_var)
    numpy.testing.assert_array_equal(bn[2], [1.])
    scale = by_name['FixedBatchNormalization-1-1']['blobs']
    numpy.testing.assert_array_equal(scale[0], model.bn1.gamma.array)
    numpy.testing.assert_array_equal(scale[1], model.bn1.beta.array)
    deconv = by_name['Deconvolution2DFunction-8-1']['blobs']
    numpy.testing.assert_array_equal(deconv[0], model.deconv.W.array)
    # The bias has one value per output channel (num_output 2).
    assert deconv[1].shape == (2,)
    fc = by_name['LinearFunction-12-1']['blobs']
    assert fc[0].shape == (5, 32)
    numpy.testing.assert_array_equal(fc[0], model.fc.W.array)


def test_caffemodel_params(exported):
    _, out = exported
    by_name = {l['name']: l for l in _layers(
        str(out / 'chainer_model.caffemodel'))}
    conv = by_name['Convolution2DFunction-5-1']['params'][106]
    # num_output, bias_term, group, pad, kernel, stride (caffe.proto).
    assert {n: v[0] for n, v in conv.items()} == {
        1: 4, 2: 0, 5: 1, 9: 1, 10: 1, 11: 3, 12: 3, 13: 2, 14: 2}
    bn = by_name['FixedBatchNormalization-1-1_bn']['params'][139]
    assert bn[1] == [1] and _float(bn[3][0]) == pytest.approx(2e-5)
    lrn = by_name['LocalResponseNormalization-4-1']['params'][118]
    assert lrn[1] == [5] and lrn[4] == [0]
    assert _float(lrn[2][0]) == pytest.approx(5e-4)
    assert _float(lrn[3][0]) == .75 and _float(lrn[5][0]) == 2.
    pool = by_name['MaxPoolingND-3-1']['params'][121]
    assert pool[1] == [0] and pool[5] == [2] and pool[7] == [2]
    assert by_name['AveragePooling2D-5-1']['params'][121][1] == [1]
    relu = by_name['LeakyReLU-6-1']['params'][123]
    assert _float(relu[1][0]) == pytest.approx(.1)
    assert by_name['Concat-7-1']['params'][104][2] == [1]
    reshape = by_name['Reshape-11-1']['params'][133]
    assert _ints(_decode(reshape[1][0])[1][0]) == [1, -1]
    fc = by_name['LinearFunction-12-1']['params'][117]
    assert fc[1] == [5] and fc[2] == [1]


def test_no_params_and_no_directory(tmp_path):
    model = L.Linear(3, 2)
    x = numpy.ones((1, 3), numpy.float32)
    caffe.export(model, [x], str(tmp_path), export_params=False)
    assert os.listdir(str(tmp_path)) == ['chainer_model.prototxt']
    cwd = os.getcwd()
    os.chdir(str(tmp_path))
    try:
        os.remove('chainer_model.prototxt')
        caffe.export(model, [x])
        assert os.listdir('.') == []
    finally:
        os.chdir(cwd)


def test_unsupported_function():
    with pytest.raises(NotImplementedError, match='Tanh'):
        caffe.export(lambda x: F.tanh(x), [numpy.ones((1, 2), 'f')])


def test_one_input_only():
    with pytest.raises(NotImplementedError, match='one input'):
        caffe.export(lambda x, y: x + y,
                     [numpy.ones(2, 'f'), numpy.ones(2, 'f')])
