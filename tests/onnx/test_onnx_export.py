"""chainer_core.onnx.export and export_testcase: names, opsets, external
converters, the backend-test layout, bad input, and every converter
covered by the tests of its family."""
import io
import os
import pathlib
import re
import subprocess
import sys

import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F
import chainer_core.links as L
from onnx_check import check, DEFAULT_OPSET, f32, functions_applied, host
from onnx_check import onnx, OPSETS, run
import chainer_core.onnx
from chainer_core.onnx import converters

import test_onnx_activation
import test_onnx_array
import test_onnx_connection
import test_onnx_loss
import test_onnx_math
import test_onnx_normalization
import test_onnx_pooling



class MLP(chainer.Chain):

    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.l1 = L.Linear(4, 5)
            self.l2 = L.Linear(5, 3)

    def forward(self, x):
        return self.l2(F.relu(self.l1(x)))


class WithBatchNorm(chainer.Chain):

    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.conv = L.Convolution2D(2, 3, 3, pad=1)
            self.bn = L.BatchNormalization(3)

    def forward(self, x):
        return F.relu(self.bn(self.conv(x)))


def _trained_bn():
    model = WithBatchNorm()
    model.bn.avg_mean[:] = f32(3, seed=1)
    model.bn.avg_var[:] = f32(3, seed=2, low=0.5, high=2)
    return model


def test_every_converter_is_checked_against_onnx_runtime():
    covered = set()
    for module in (test_onnx_activation, test_onnx_array,
                   test_onnx_connection, test_onnx_loss, test_onnx_math,
                   test_onnx_normalization, test_onnx_pooling):
        for _, fn, args in module.CASES:
            covered |= functions_applied(fn, args)
    # Dropout (exported with train=True) and the copy between graphs
    # (where native:0 is installed) have tests of their own.
    covered |= {'Dropout', '_CopyAcross'}
    missing = set(converters.registry) - covered
    assert not missing
    assert len(converters.registry) >= 130


def test_docs_list_every_converter():
    text = (pathlib.Path(__file__).resolve().parents[2] / 'docs' /
            'onnx.md').read_text()
    listed = re.findall(r'^\| \w+ \| `(\w+)` \|', text, re.M)
    assert sorted(listed) == sorted(converters.registry)


def test_default_opset_and_versions():
    model = chainer_core.onnx.export(MLP(), f32(2, 4))
    assert DEFAULT_OPSET == chainer_core.onnx.default_opset_version()
    assert 13 <= DEFAULT_OPSET <= 21
    assert [(o.domain, o.version) for o in model.opset_import] == \
        [('', DEFAULT_OPSET)]
    assert model.ir_version <= 13
    assert model.producer_name == 'chainer-core'
    onnx.checker.check_model(model)


def test_parameters_are_initializers_named_by_their_path():
    model = MLP()
    onnx_model = chainer_core.onnx.export(model, f32(2, 4))
    inits = {t.name: onnx.numpy_helper.to_array(t)
             for t in onnx_model.graph.initializer}
    assert sorted(inits) == ['/l1/W', '/l1/b', '/l2/W', '/l2/b']
    for path, p in model.namedparams():
        numpy.testing.assert_array_equal(inits[path], p.array)
    assert [i.name for i in onnx_model.graph.input] == ['Input_0']
    assert [o.name for o in onnx_model.graph.output] == ['Output_0']


@pytest.mark.parametrize('opset_version', OPSETS)
def test_train_false_uses_running_statistics(opset_version):
    model = _trained_bn()
    onnx_model = check(model, [f32(2, 2, 5, 5)], opset_version)
    names = {t.name for t in onnx_model.graph.initializer}
    assert {'/bn/avg_mean', '/bn/avg_var', '/bn/gamma',
            '/bn/beta'} <= names
    assert 'BatchNormalization' in {n.op_type for n in onnx_model.graph.node}


@pytest.mark.parametrize('opset_version', OPSETS)
def test_train_true_normalizes_with_the_batch(opset_version):
    model = _trained_bn()
    onnx_model = check(model, [f32(4, 2, 5, 5)], opset_version, train=True)
    assert 'BatchNormalization' not in {
        n.op_type for n in onnx_model.graph.node}


def test_names_and_return_named_inout():
    model = MLP()
    x = f32(2, 4)
    onnx_model, inputs, outputs = chainer_core.onnx.export(
        model, [x], input_names=['pixels'], output_names=['scores'],
        return_named_inout=True)
    assert list(inputs) == ['pixels'] and list(outputs) == ['scores']
    numpy.testing.assert_array_equal(inputs['pixels'].array, x)
    got, = run(onnx_model, inputs)
    numpy.testing.assert_allclose(got, outputs['scores'].array, rtol=1e-5,
                                  atol=1e-5)


def test_dict_inputs_and_outputs_are_named_by_their_keys():
    def fn(a, b):
        return {'sum': a + b, 'product': a * b}
    onnx_model, inputs, outputs = chainer_core.onnx.export(
        fn, {'a': f32(3), 'b': f32(3, seed=1)}, return_named_inout=True)
    assert list(inputs) == ['a', 'b']
    assert list(outputs) == ['sum', 'product']
    got = run(onnx_model, inputs)
    for z, y in zip(got, outputs.values()):
        numpy.testing.assert_allclose(z, y.array, rtol=1e-5)


def test_outputs_that_are_inputs_or_repeated():
    def fn(a, b):
        c = a * b
        return a, c, c, b
    x, y = f32(3), f32(3, seed=1)
    onnx_model, inputs, outputs = chainer_core.onnx.export(
        fn, [x, y], return_named_inout=True)
    got = run(onnx_model, inputs)
    for z, expected in zip(got, (x, x * y, x * y, y)):
        numpy.testing.assert_allclose(z, expected, rtol=1e-6)


def test_constants_read_in_the_forward_become_initializers():
    table = numpy.arange(12, dtype=numpy.float32).reshape(3, 4)
    check(lambda a: a + table, [f32(3, 4)], DEFAULT_OPSET)


def test_unused_calls_are_left_out():
    def fn(a):
        F.exp(a)
        return F.relu(a)
    onnx_model = chainer_core.onnx.export(fn, f32(3))
    assert [n.op_type for n in onnx_model.graph.node] == ['Relu']


def test_writes_the_file(tmp_path):
    path = str(tmp_path / 'mlp.onnx')
    onnx_model = chainer_core.onnx.export(MLP(), f32(2, 4), filename=path)
    assert onnx.load(path) == onnx_model
    buffer = io.BytesIO()
    chainer_core.onnx.export(MLP(), f32(2, 4), filename=buffer)
    assert onnx.load_model_from_string(buffer.getvalue()).graph.node


def test_external_converters_replace_and_add():
    def relu_as_abs(func, opset_version, input_names, output_names,
                    context):
        return [onnx.helper.make_node('Abs', input_names, output_names)]

    x = f32(5)
    onnx_model, inputs, _ = chainer_core.onnx.export(
        F.relu, x, external_converters={'ReLU': relu_as_abs},
        return_named_inout=True)
    got, = run(onnx_model, inputs)
    numpy.testing.assert_allclose(got, numpy.abs(x))


class Cube(chainer.FunctionNode):

    def forward(self, inputs):
        return inputs[0] ** 3,


def test_a_function_without_converter_is_named_with_the_way_out():
    with pytest.raises(NotImplementedError) as e:
        chainer_core.onnx.export(lambda a: Cube().apply((a,))[0], f32(3),
                                 opset_version=13)
    message = str(e.value)
    assert 'Cube' in message and 'opset 13' in message
    assert "external_converters={'Cube': converter}" in message

    def convert_cube(func, opset_version, input_names, output_names,
                     context):
        gb = converters.GraphBuilder(context)
        gb.op('Pow', [input_names[0], gb.const(3, 'f')], output_names)
        return gb.nodes

    check(lambda a: Cube().apply((a,))[0], [f32(3)], 13,
          external_converters={'Cube': convert_cube})


def test_external_opset_imports_are_declared():
    def custom(func, opset_version, input_names, output_names, context):
        return [onnx.helper.make_node('Cube', input_names, output_names,
                               domain='org.example')]
    onnx_model = chainer_core.onnx.export(
        lambda a: Cube().apply((a,))[0], f32(3),
        external_converters={'Cube': custom},
        external_opset_imports={'org.example': 2})
    assert ('org.example', 2) in [(o.domain, o.version)
                                  for o in onnx_model.opset_import]


@pytest.mark.parametrize('opset_version', [12, 22, '13', 13.0, True])
def test_unknown_opset_is_refused(opset_version):
    with pytest.raises(ValueError) as e:
        chainer_core.onnx.export(MLP(), f32(2, 4),
                                 opset_version=opset_version)
    assert repr(opset_version) in str(e.value)
    assert 'from 13 to' in str(e.value)


@pytest.mark.parametrize('result, what', [
    (lambda a: 1.5, 'a Python scalar'),
    (lambda a: 3, 'a Python scalar'),
    (lambda a: (F.relu(a), 2.0), 'a Python scalar'),
    (lambda a: F.relu(a).array, 'ndarray'),
    (lambda a: None, 'NoneType'),
    (lambda a: [], 'no outputs'),
])
def test_outputs_that_are_not_variables_are_refused(result, what):
    with pytest.raises(TypeError) as e:
        chainer_core.onnx.export(result, f32(3))
    assert what in str(e.value)


@pytest.mark.parametrize('args', [1.0, [f32(3), 'x'], [None]])
def test_inputs_that_are_not_arrays_are_refused(args):
    with pytest.raises(TypeError, match='args must hold Variables or arrays'):
        chainer_core.onnx.export(F.relu, args)


@pytest.mark.parametrize('kwargs', [
    {'input_names': ['a', 'b']}, {'input_names': 'x'},
    {'output_names': ['y', 'z']}, {'output_names': [1]},
])
def test_names_of_the_wrong_number_are_refused(kwargs):
    with pytest.raises(ValueError, match='_names must be a list of 1'):
        chainer_core.onnx.export(F.relu, f32(3), **kwargs)


def test_an_input_name_taken_by_a_parameter_is_refused():
    with pytest.raises(ValueError, match="'/l1/W' is used twice"):
        chainer_core.onnx.export(MLP(), f32(2, 4), input_names=['/l1/W'])


def test_export_testcase_layout(tmp_path):
    model = MLP()
    x = f32(2, 4)
    out = tmp_path / 'mlp'
    onnx_model = chainer_core.onnx.export_testcase(
        model, x, str(out), output_grad=True, input_names=['x'])
    assert onnx.load(str(out / 'model.onnx')) == onnx_model
    data = out / 'test_data_set_0'
    assert sorted(os.listdir(str(data))) == [
        'gradient_0.pb', 'gradient_1.pb', 'gradient_2.pb', 'gradient_3.pb',
        'input_0.pb', 'output_0.pb']
    tensor = onnx.load_tensor(str(data / 'input_0.pb'))
    assert tensor.name == 'x'
    numpy.testing.assert_array_equal(
        onnx.numpy_helper.to_array(tensor), x)
    output = onnx.load_tensor(str(data / 'output_0.pb'))
    assert output.name == 'Output_0'
    with chainer.using_config('train', False):
        expected = model(x)
    numpy.testing.assert_allclose(
        onnx.numpy_helper.to_array(output), expected.array, rtol=1e-6)
    for i, (path, p) in enumerate(model.namedparams()):
        grad = onnx.load_tensor(str(data / 'gradient_{}.pb'.format(i)))
        assert grad.name == path
        numpy.testing.assert_allclose(
            onnx.numpy_helper.to_array(grad), p.grad, rtol=1e-6)


def test_export_testcase_refuses_its_own_arguments(tmp_path):
    with pytest.raises(TypeError, match='filename is set by'):
        chainer_core.onnx.export_testcase(MLP(), f32(2, 4), str(tmp_path),
                                          filename='x.onnx')


def _python(code):
    return subprocess.run([sys.executable, '-c', code],
                          capture_output=True, text=True)


def test_importing_chainer_core_does_not_import_onnx():
    result = _python('import sys, chainer_core, chainer_core.functions, '
                     'chainer_core.links; print("onnx" in sys.modules)')
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == 'False'


def test_without_onnx_the_error_says_how_to_install_it():
    result = _python("import sys; sys.modules['onnx'] = None; "
                     'import chainer_core.onnx')
    assert result.returncode != 0
    assert 'ImportError' in result.stderr
    assert 'pip install chainer-core[onnx]' in result.stderr


@pytest.mark.parametrize('opset_version', OPSETS)
def test_export_on_each_device(chainer_device, opset_version):
    numpy.random.seed(0)
    model = _trained_bn()
    reference = chainer_core.onnx.export(model, f32(2, 2, 5, 5),
                                         opset_version=opset_version)
    model.to_device(chainer_device)
    x = chainer_device.send(f32(2, 2, 5, 5))
    onnx_model = check(model, [x], opset_version)
    # The same graph whatever device ran the model.
    assert [(n.op_type, list(n.input), list(n.output))
            for n in onnx_model.graph.node] == \
        [(n.op_type, list(n.input), list(n.output))
         for n in reference.graph.node]
    assert host(x).shape == (2, 2, 5, 5)


@pytest.mark.parametrize('opset_version', OPSETS)
def test_copy_between_devices(chainer_device, opset_version):
    # From @numpy to another device's graph (native:0's is apart) and back.
    def fn(a):
        b = F.copy(F.exp(a), chainer_device) * 2
        return F.copy(F.tanh(b), '@numpy') + a
    onnx_model = check(fn, [f32(3, 4)], opset_version)
    assert [n.op_type for n in onnx_model.graph.node] == [
        'Exp', 'Identity', 'Mul', 'Tanh', 'Identity', 'Add']


@pytest.mark.parametrize('device', chainer.backend.available_devices(),
                         ids=str)
def test_compare_with_onnxruntime(device):
    pytest.importorskip('onnxruntime')
    link = L.Linear(3, 2)
    link.to_device(device)
    x = chainer.get_device(device).send(
        numpy.random.RandomState(0).rand(4, 3).astype(numpy.float32))
    model, inputs, outputs = chainer.onnx.export(
        link, x, return_named_inout=True)
    assert chainer.onnx.compare_with_onnxruntime(model, inputs, outputs) \
        < 1e-5
    name, = outputs
    shifted = {name: chainer.backend.CpuDevice().send(
        outputs[name].array) + 0.5}
    diff = chainer.onnx.compare_with_onnxruntime(model, inputs, shifted)
    assert abs(diff - 0.5) < 1e-5
