"""``import chainer_core`` leaves the subpackages and the heavy modules
they use to first use, and every name stays reachable as before.

Each check runs in a fresh interpreter: the test process has imported
most of the package already.
"""
import json
import os
import subprocess
import sys

import pytest

# Imported by the first use of what needs them, never by the import.
NOT_IMPORTED = [
    'urllib.request', 'http.client', 'multiprocessing', 'concurrent.futures',
    'tarfile', 'gzip', 'matplotlib', 'PIL', 'h5py', 'scipy', 'cupy',
    'chainer_core.dataset', 'chainer_core.datasets',
    'chainer_core.distributions', 'chainer_core.function_hooks',
    'chainer_core.gradient_check', 'chainer_core.initializers',
    'chainer_core.iterators', 'chainer_core.link', 'chainer_core.link_hooks',
    'chainer_core.links', 'chainer_core.optimizer',
    'chainer_core.optimizer_hooks', 'chainer_core.optimizers',
    'chainer_core.reporter', 'chainer_core.serializers',
    'chainer_core.training', 'chainer_core.functions.activation',
    'chainer_core.functions.activation.relu',
    'chainer_core.functions.connection.linear',
]


def _run(code):
    out = subprocess.run([sys.executable, '-c', code], capture_output=True,
                         text=True)
    assert out.returncode == 0, out.stderr
    return out.stdout


def _imported_after(code):
    return set(json.loads(_run(
        'import sys, json\n' + code +
        '\nprint(json.dumps(sorted(sys.modules)))')))


def test_import_leaves_subpackages_and_heavy_modules():
    imported = _imported_after('import chainer_core')
    assert not imported & set(NOT_IMPORTED)


def test_variable_arithmetic_needs_no_other_op():
    imported = _imported_after(
        'import numpy, chainer_core\n'
        'x = chainer_core.Variable(numpy.ones(3, numpy.float32))\n'
        'y = (x * 2 + 1) / x - x ** 2\n'
        'y.grad = numpy.ones(3, numpy.float32)\n'
        'y.backward()')
    assert 'chainer_core.functions.activation.relu' not in imported
    assert 'chainer_core.links' not in imported


def test_concat_examples_does_not_import_the_downloader():
    imported = _imported_after(
        'from chainer_core import dataset\ndataset.concat_examples')
    assert 'chainer_core.dataset.download' not in imported
    assert 'urllib.request' not in imported


def test_a_link_imports_only_what_it_uses():
    imported = _imported_after('import chainer_core as c\nc.links.Linear')
    assert 'chainer_core.links.connection.linear' in imported
    assert 'chainer_core.links.model.vision.resnet' not in imported
    assert 'chainer_core.training' not in imported


@pytest.mark.parametrize('code', [
    'import chainer_core as chainer\n'
    'from chainer_core.links.connection.linear import Linear\n'
    'assert chainer.links.Linear is Linear',
    'import chainer_core.functions as F\n'
    'from chainer_core.functions.activation.relu import relu\n'
    'assert F.relu is relu\n'
    'assert F.activation.relu.relu is relu',
    'import chainer_core\n'
    'assert chainer_core.functions.math.sum.sum is '
    'chainer_core.functions.sum',
    'from chainer_core import training\n'
    'from chainer_core.training import extensions\n'
    'assert training.extensions is extensions\n'
    'assert extensions.LogReport.__module__ == '
    '"chainer_core.training.extensions.log_report"\n'
    'assert training.Trainer.__name__ == "Trainer"',
    'import chainer_core as chainer\n'
    'assert chainer.training.triggers.IntervalTrigger is '
    'chainer.training.IntervalTrigger',
    'import chainer_core as chainer\n'
    'assert chainer.links.model.vision.resnet.ResNet50Layers is '
    'chainer.links.ResNet50Layers',
    'import chainer_core as chainer\n'
    'assert chainer.Link is chainer.link.Link\n'
    'assert chainer.optimizers.Adam is chainer.optimizers.adam.Adam\n'
    'assert chainer.cuda is chainer.backends.cuda',
    'from chainer_core.functions import *\n'
    'assert callable(relu) and callable(softmax_cross_entropy)\n'
    'assert activation.__name__ == "chainer_core.functions.activation"',
    'from chainer_core.links import *\n'
    'assert Linear.__name__ == "Linear"',
    'import chainer_core as chainer\n'
    'try:\n'
    '    chainer.links.NoSuchLink\n'
    'except AttributeError as e:\n'
    '    assert "NoSuchLink" in str(e)\n'
    'else:\n'
    '    raise AssertionError\n'
    'assert not hasattr(chainer.functions.activation, "no_such_op")',
])
def test_names_are_reached_lazily(code):
    _run(code)


@pytest.mark.parametrize('module,names', [
    ('chainer_core', ['links', 'training', 'Chain', 'Optimizer', 'cuda',
                      'datasets', 'print_runtime_info', 'Sequential']),
    ('chainer_core.functions', ['relu', 'linear', 'activation', 'math',
                                'add']),
    ('chainer_core.functions.activation', ['relu', 'lstm']),
    ('chainer_core.links', ['Linear', 'Classifier', 'connection']),
    ('chainer_core.training', ['Trainer', 'extensions', 'triggers']),
    ('chainer_core.training.extensions', ['LogReport', 'snapshot']),
])
def test_dir_lists_the_lazy_names(module, names):
    listed = json.loads(_run(
        'import importlib, json\n'
        'print(json.dumps(dir(importlib.import_module({!r}))))'.format(
            module)))
    assert set(names) <= set(listed)


def test_pickled_classes_and_links_load_lazily():
    out = _run(
        'import pickle, chainer_core as chainer\n'
        'print(pickle.dumps((chainer.links.Linear(2, 3), '
        'chainer.functions.relu, chainer.optimizers.SGD)).hex())')
    _run('import pickle\n'
         'link, relu, sgd = pickle.loads(bytes.fromhex({!r}))\n'
         'import chainer_core as chainer\n'
         'assert type(link) is chainer.links.Linear\n'
         'assert relu is chainer.functions.relu\n'
         'assert sgd is chainer.optimizers.SGD'.format(out.strip()))


def test_kernel_registry_declares_every_op_on_first_read():
    out = _run(
        'import sys, chainer_core\n'
        'from chainer_core._runtime import kernels\n'
        'assert "chainer_core.functions.activation.relu" not in '
        'sys.modules\n'
        'print(kernels.get_spec("relu").name,\n'
        '      kernels.get_spec("adam_update").name, len(kernels.specs()))')
    relu, adam, count = out.split()
    assert (relu, adam) == ('relu', 'adam_update')
    # As many as when every subpackage is imported.
    everything = _run(
        'import chainer_core\n'
        'from chainer_core._runtime import kernels\n'
        'for name in chainer_core.__all__:\n'
        '    package = getattr(chainer_core, name)\n'
        '    for name in getattr(package, "__all__", ()):\n'
        '        getattr(package, name)\n'
        'print(len(kernels.specs()))')
    assert int(count) == int(everything)


def test_graph_kernel_registry_declares_every_op_on_first_read():
    out = _run(
        'import json, chainer_core\n'
        'from chainer_core._runtime import graphs\n'
        'print(json.dumps([s.name for s in graphs.specs()]))')
    names = json.loads(out)
    assert {'add', 'softmax', 'convolution_nd', 'max_pooling_nd'} <= \
        set(names)


PLUGIN = '''
import numpy
from backend_api import DeviceBase, hookimpl

api_version = (2, 0)


class Array(numpy.ndarray):
    pass


class Backend:
    name = 'lazyplug'
    priority = -5

    def is_available(self):
        return True

    def device_count(self):
        return 1

    def get_device(self, index=0):
        return DEVICE

    def parse_device_spec(self, spec):
        return DEVICE if spec == '@lazyplug:0' else None

    def device_from_array(self, array):
        return DEVICE if type(array) is Array else None


class Device(DeviceBase):
    name = '@lazyplug:0'
    xp = numpy

    def __init__(self, backend):
        self.backend = backend

    def send_array(self, array):
        return numpy.asarray(array).view(Array)

    def is_array_supported(self, array):
        return type(array) is Array


DEVICE = Device(Backend())


@hookimpl
def chainer_core_register_backends(registry):
    registry.register_backend(DEVICE.backend)


@hookimpl
def chainer_core_register_kernels(registry):
    registry.register_graph_kernel('relu', 'lazyplug',
                                   lambda label, inputs: NotImplemented)
'''


def test_a_plugin_registers_a_graph_kernel_of_an_op_not_imported(tmp_path):
    # Its only registration is by the name of an op chainer_core has not
    # imported yet.
    (tmp_path / 'lazyplug.py').write_text(PLUGIN)
    info = tmp_path / 'lazyplug_dist-1.0.dist-info'
    info.mkdir()
    (info / 'METADATA').write_text(
        'Metadata-Version: 2.1\nName: lazyplug-dist\nVersion: 1.0\n')
    (info / 'entry_points.txt').write_text(
        '[chainer_core.backends]\nlazyplug = lazyplug\n')
    # The installed plugins stay out: they register kernels, which would
    # have the ops imported first.
    env = dict(os.environ, PYTHONPATH=str(tmp_path),
               CHAINER_BACKENDS='lazyplug')
    out = subprocess.run(
        [sys.executable, '-W', 'error', '-c',
         'import chainer_core\n'
         'from chainer_core._runtime import graphs\n'
         'chainer_core.get_device("@lazyplug:0")\n'
         'print([s.name for s in graphs.specs()\n'
         '       if "lazyplug" in s.implementations])'],
        capture_output=True, text=True, env=env, cwd=str(tmp_path))
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "['relu']"
