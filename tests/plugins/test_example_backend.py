"""examples/third_party_backend, a backend written against the public
contract only, pip-installed into a fresh environment next to chainer-core,
passes the whole conformance kit that chainer-core ships."""
import pathlib
import re
import shutil
import xml.etree.ElementTree as ElementTree

import pytest

EXAMPLE = pathlib.Path(__file__).resolve().parents[2] / 'examples' / \
    'third_party_backend'

USE = '''
import numpy
import chainer_core as chainer
import chainer_core.functions as F
from chainer_example_backend import kernels
from chainer_example_backend.device import ExampleArray

device = chainer.get_device()
x = device.send(numpy.array([[-1.0, 2.0]], numpy.float32))
W = device.send(numpy.ones((3, 2), numpy.float32))
y = F.linear(F.relu(x), W)
assert type(y.array) is ExampleArray and y.array.tolist() == [[2.0] * 3]
# float16 is declined, so the core runs the reference, on the device.
half = x.astype(numpy.float16), W.astype(numpy.float16), None
assert kernels.linear(*half) is NotImplemented
y = F.linear(*half[:2])
assert type(y.array) is ExampleArray and y.dtype == numpy.float16
print(device.name)
'''


@pytest.mark.slow
def test_example_backend_passes_the_conformance_kit(tmp_path, core_copy,
                                                    fresh_venv):
    # pip builds in the folder it is given: a copy keeps the checkout clean.
    example = shutil.copytree(EXAMPLE, tmp_path / 'example', ignore=(
        shutil.ignore_patterns('build', '*.egg-info', '__pycache__')))
    fresh_venv.install(core_copy, example, 'pytest')
    run, python = fresh_venv.run, fresh_venv.python

    assert run(python, '-c', USE).stdout.split() == ['example:0']
    # One entry per kernel: its signature, then indented lines.
    entries = re.split(r'\n(?=\S)', run(
        python, '-m', 'chainer_core', 'kernels').stdout)
    ours = {e.split('(')[0] for e in entries
            if 'example (chainer-example-backend)' in e}
    assert ours == {'relu', 'relu_grad', 'linear'}, ours

    report = fresh_venv.root.parent / 'kit.xml'
    proc = run(python, '-m', 'pytest', '-q', '-p', 'no:cacheprovider',
               '--junitxml', str(report),
               '--pyargs', 'chainer_core.testing.conformance',
               check=False, timeout=600, CHAINER_TEST_DEVICES='example:0')
    assert proc.returncode == 0, proc.stdout[-5000:] + proc.stderr
    cases = ElementTree.parse(str(report)).getroot().iter('testcase')
    modules = {case.get('classname').rsplit('.', 1)[-1] for case in cases
               if 'example:0' in case.get('name')}
    # The installed kit ran, on example:0, in each of its test modules.
    assert modules == {'test_bad_input', 'test_links', 'test_mixed_devices',
                       'test_mixed_dtypes', 'test_ops', 'test_optimizers',
                       'test_special_values'}, modules
