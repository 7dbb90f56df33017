"""Device parametrisation: BackendConfig and inject_backend_tests over the
discovered devices."""
import unittest

import numpy
import pytest

import chainer_core as chainer
from chainer_core import testing
from chainer_core.testing import backend

from ._util import module_from


def test_discovered_devices_include_numpy():
    specs = backend.discovered_devices()
    assert '@numpy' in specs
    assert len(specs) == len(set(specs))
    for spec in specs:
        assert chainer.get_device(spec).name == spec
    assert backend.all_devices_params() == [{'device': s} for s in specs]


@pytest.mark.parametrize('params,spec', [
    ({'device': '@numpy'}, '@numpy'),
    ({}, '@numpy'),
    ({'use_cuda': True}, '@cupy:0'),
    ({'use_cuda': True, 'cuda_device': 1}, '@cupy:1'),
    ({'use_ideep': 'always'}, '@intel64'),
    ({'use_chainerx': True, 'chainerx_device': 'native:0'}, 'native:0'),
])
def test_specs(params, spec):
    assert testing.BackendConfig(params).spec == spec


def test_numpy_config():
    config = testing.BackendConfig({'device': '@numpy', 'debug': True})
    assert config.is_available() and config.skip_reason() is None
    assert config.xp is numpy
    x = numpy.arange(3)
    assert isinstance(config.get_array(x), numpy.ndarray)
    assert isinstance(config.get_array((x, x)), tuple)
    # Chainer's keys apply their defaults too.
    assert config.config_values['debug'] is True
    assert config.config_values['use_ideep'] == 'never'
    assert not chainer.config.debug
    with config:
        assert chainer.config.debug
        assert chainer.get_device().name == '@numpy'
    assert not chainer.config.debug
    assert repr(config).startswith('<BackendConfig use_chainerx=False ')
    assert "device='@numpy'" in repr(config)
    with pytest.raises(TypeError, match='dict'):
        testing.BackendConfig('@numpy')


def test_unavailable_device():
    config = testing.BackendConfig({'device': '@nodevice:3'})
    assert not config.is_available()
    assert '@nodevice:3 is not available' in config.skip_reason()


def test_inject_backend_tests_over_discovered_devices():
    module = module_from('''
        import unittest
        from chainer_core import testing

        @testing.inject_backend_tests(['test_device'])
        class TestDevices(unittest.TestCase):
            seen = []

            def test_device(self):
                self.seen.append(self.backend_config.device.name)

            def test_other(self):
                pass
    ''')
    classes = [v for k, v in vars(module).items()
               if k.startswith('TestDevices_') and isinstance(v, type)]
    assert len(classes) == len(backend.discovered_devices())
    result = unittest.TestResult()
    for cls in classes:
        cls('test_device').run(result)
    assert result.wasSuccessful()
    assert sorted(classes[0].seen) == sorted(backend.discovered_devices())


def test_inject_backend_tests_skips_unavailable_devices():
    module = module_from('''
        import unittest
        from chainer_core import testing

        @testing.inject_backend_tests(None, [{'device': '@numpy'},
                                             {'device': '@nodevice:0'}])
        class TestTwo(unittest.TestCase):
            def test_it(self):
                assert self.backend_config.xp is not None
    ''')
    names = sorted(k for k in vars(module) if k.startswith('TestTwo_'))
    assert names == ['TestTwo_backend_0_numpy', 'TestTwo_backend_1_nodevice_0']
    result = unittest.TestResult()
    for name in names:
        getattr(module, name)('test_it').run(result)
    assert result.wasSuccessful() and result.testsRun == 2
    assert len(result.skipped) == 1
    assert 'not available' in result.skipped[0][1]


def test_get_array():
    a = backend.get_array([1, 2], '@numpy')
    assert isinstance(a, numpy.ndarray) and a.tolist() == [1, 2]


def test_chainer_attributes():
    config = testing.BackendConfig({'use_cuda': True, 'use_cudnn': 'always'})
    assert (config.use_cuda, config.cuda_device, config.use_cudnn,
            config.use_ideep, config.use_chainerx, config.chainerx_device,
            config.autotune) == (True, 0, 'always', 'never', False, None,
                                 False)
    assert [m.name for m in config.get_pytest_marks()] == ['gpu', 'cudnn']
    assert [m.name for m in testing.BackendConfig(
        {'use_ideep': 'always'}).get_pytest_marks()] == ['ideep']
    assert testing.BackendConfig({}).get_pytest_marks() == []
    with pytest.raises(ValueError, match='chainerx_device'):
        testing.BackendConfig({'use_chainerx': True})


def test_test_methods_receive_the_config():
    module = module_from('''
        import unittest
        import chainer_core as chainer
        from chainer_core import testing

        @testing.inject_backend_tests(
            ['test_arg'], [{}, {'use_ideep': 'always'},
                           {'use_chainerx': True,
                            'chainerx_device': 'native:0'}])
        class TestArg(unittest.TestCase):
            seen = []

            def test_arg(self, backend_config):
                assert self.backend_config is backend_config
                with backend_config:
                    self.seen.append((chainer.get_device().name,
                                      chainer.config.use_ideep))
    ''')
    names = sorted(n for n in vars(module) if n.startswith('TestArg_'))
    result = unittest.TestResult()
    for name in names:
        getattr(module, name)('test_arg').run(result)
    assert result.wasSuccessful() and result.testsRun == 3
    expected = [('@numpy', 'never')]
    for spec, use_ideep in (('@intel64', 'always'), ('native:0', 'never')):
        if testing.BackendConfig({'device': spec}).is_available():
            expected.append((spec, use_ideep))
    assert sorted(module.TestArg_backend_0_numpy.seen) == sorted(expected)
    # pytest must not look for a backend_config fixture.
    import inspect
    assert list(inspect.signature(
        module.TestArg_backend_0_numpy.test_arg).parameters) == ['self']
