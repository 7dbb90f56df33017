"""The pytest plugin chainer-core registers through its pytest11 entry
point: the chainer_device fixture, and the conformance kit run from the
installed package; FunctionTestCase on the same devices."""
import os
import subprocess
import sys
import unittest

from chainer_core.testing.backend import discovered_devices

from ._util import module_from


def test_chainer_device_runs_on_each_device_of_the_table(request,
                                                         chainer_device):
    assert chainer_device.name in discovered_devices()
    assert request.node.name.endswith('[{}]'.format(chainer_device.name))


def test_kit_runs_by_module_name_on_the_chosen_device(tmp_path):
    proc = subprocess.run(
        [sys.executable, '-m', 'pytest', '-v', '-p', 'no:cacheprovider',
         '--pyargs', 'chainer_core.testing.conformance',
         '-k', 'test_ops and test_forward and relu'],
        cwd=str(tmp_path), capture_output=True, text=True, timeout=300,
        env=dict(os.environ, CHAINER_TEST_DEVICES='@numpy'))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    ran = [line for line in proc.stdout.splitlines() if ' PASSED' in line]
    assert ran and all('test_ops.py::test_forward[@numpy-' in line
                       for line in ran), ran


def test_function_test_case_draws_devices_from_the_table(monkeypatch):
    monkeypatch.setenv('CHAINER_TEST_DEVICES', '@numpy')
    module = module_from('''
        import numpy
        from chainer_core import testing
        import chainer_core.functions as F

        @testing.inject_backend_tests(None)
        class TestExp(testing.FunctionTestCase):
            def generate_inputs(self):
                return numpy.linspace(-1, 1, 6, dtype=numpy.float64),

            def forward(self, inputs, device):
                return F.exp(*inputs),

            def forward_expected(self, inputs):
                return numpy.exp(*inputs),
    ''')
    classes = [v for k, v in vars(module).items()
               if k.startswith('TestExp_') and isinstance(v, type)]
    assert [c.backend_config.spec for c in classes] == ['@numpy']
    result = unittest.TestResult()
    for name in ('test_forward', 'test_backward', 'test_double_backward'):
        classes[0](name).run(result)
    assert result.wasSuccessful() and result.testsRun == 3, result.failures
