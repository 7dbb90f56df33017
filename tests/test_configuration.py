"""chainer_core.config: defaults, scoping, threads, show()."""
import io
import os
import subprocess
import sys
import threading

import numpy
import pytest

import chainer_core as chainer
from chainer_core import configuration


class TestDefaults:

    @pytest.mark.parametrize('key,value', [
        ('train', True),
        ('enable_backprop', True),
        ('debug', False),
        ('type_check', True),
        ('keep_graph_on_report', False),
        ('use_cudnn', 'auto'),
        ('use_ideep', 'never'),
        ('cudnn_deterministic', False),
        ('lazy_grad_sum', False),
    ])
    def test_default(self, key, value):
        assert getattr(chainer.config, key) == value
        assert getattr(chainer.global_config, key) == value

    def test_dtype(self):
        assert chainer.config.dtype == numpy.dtype(numpy.float32)
        assert isinstance(chainer.config.dtype, numpy.dtype)

    def test_config_reads_through_to_global(self):
        assert chainer.config._global is chainer.global_config


class TestEnvironmentDefaults:

    @staticmethod
    def _read(env, expr):
        full_env = dict(os.environ)
        for key in ('CHAINER_DEBUG', 'CHAINER_TYPE_CHECK', 'CHAINER_DTYPE',
                    'CHAINER_KEEP_GRAPH_ON_REPORT', 'CHAINER_USE_CUDNN',
                    'CHAINER_USE_IDEEP', 'CHAINER_LAZY_GRAD_SUM'):
            full_env.pop(key, None)
        full_env.update(env)
        proc = subprocess.run(
            [sys.executable, '-c',
             'import chainer_core as c; print(repr({}))'.format(expr)],
            env=full_env, capture_output=True, text=True, timeout=120)
        return proc

    @pytest.mark.parametrize('env,expr,expected', [
        ({'CHAINER_DEBUG': '1'}, 'c.config.debug', 'True'),
        ({'CHAINER_TYPE_CHECK': '0'}, 'c.config.type_check', 'False'),
        ({'CHAINER_DTYPE': 'float16'}, 'c.config.dtype.name', "'float16'"),
        ({'CHAINER_KEEP_GRAPH_ON_REPORT': '1'},
         'c.config.keep_graph_on_report', 'True'),
        ({'CHAINER_USE_CUDNN': 'never'}, 'c.config.use_cudnn', "'never'"),
        ({'CHAINER_USE_IDEEP': 'auto'}, 'c.config.use_ideep', "'auto'"),
        ({}, 'c.config.debug', 'False'),
    ])
    def test_environment_variable(self, env, expr, expected):
        proc = self._read(env, expr)
        assert proc.returncode == 0, proc.stderr
        assert proc.stdout.strip() == expected

    def test_bad_flag_is_reported(self):
        proc = self._read({'CHAINER_DEBUG': 'yes'}, 'c.config.debug')
        assert proc.returncode != 0
        assert 'CHAINER_DEBUG' in proc.stderr


class TestUsingConfig:

    def test_sets_and_restores(self):
        with chainer.using_config('train', False):
            assert chainer.config.train is False
        assert chainer.config.train is True

    def test_does_not_touch_the_global_value(self):
        with chainer.using_config('train', False):
            assert chainer.global_config.train is True

    def test_nesting(self):
        with chainer.using_config('train', False):
            with chainer.using_config('train', 'inner'):
                assert chainer.config.train == 'inner'
            assert chainer.config.train is False
        assert chainer.config.train is True

    def test_restored_on_exception(self):
        with pytest.raises(KeyError):
            with chainer.using_config('debug', True):
                raise KeyError('boom')
        assert chainer.config.debug is False

    def test_nested_restored_on_exception(self):
        with chainer.using_config('dtype', numpy.dtype(numpy.float64)):
            with pytest.raises(ValueError):
                with chainer.using_config('dtype',
                                          numpy.dtype(numpy.float16)):
                    raise ValueError
            assert chainer.config.dtype == numpy.float64
        assert chainer.config.dtype == numpy.float32

    def test_new_key_is_removed_afterwards(self):
        with chainer.using_config('my_flag', 3):
            assert chainer.config.my_flag == 3
        with pytest.raises(AttributeError):
            chainer.config.my_flag

    def test_direct_assignment_is_local(self):
        chainer.config.train = False
        try:
            assert chainer.config.train is False
            assert chainer.global_config.train is True
        finally:
            del chainer.config.train
        assert chainer.config.train is True


class TestThreadLocality:

    def test_other_threads_see_the_global_value(self):
        seen = {}
        ready = threading.Event()
        release = threading.Event()

        def worker():
            seen['before'] = chainer.config.train
            ready.set()
            release.wait(10)
            seen['after'] = chainer.config.train

        with chainer.using_config('train', False):
            t = threading.Thread(target=worker)
            t.start()
            ready.wait(10)
            release.set()
            t.join(10)
            assert chainer.config.train is False
        assert seen == {'before': True, 'after': True}

    def test_a_thread_setting_does_not_leak(self):
        def worker():
            with chainer.using_config('enable_backprop', False):
                done.wait(10)

        done = threading.Event()
        t = threading.Thread(target=worker)
        t.start()
        try:
            assert chainer.config.enable_backprop is True
        finally:
            done.set()
            t.join(10)

    def test_global_change_is_seen_by_threads(self):
        seen = []
        chainer.global_config.keep_graph_on_report = True
        try:
            t = threading.Thread(
                target=lambda: seen.append(
                    chainer.config.keep_graph_on_report))
            t.start()
            t.join(10)
        finally:
            chainer.global_config.keep_graph_on_report = False
        assert seen == [True]


class TestUnknownKey:

    def test_attribute_error(self):
        with pytest.raises(AttributeError, match='no_such_key'):
            chainer.config.no_such_key

    def test_global_attribute_error(self):
        with pytest.raises(AttributeError):
            chainer.global_config.no_such_key

    def test_hasattr(self):
        assert not hasattr(chainer.config, 'no_such_key')
        assert hasattr(chainer.config, 'train')


class TestAddKey:

    def test_add_key_keeps_an_existing_value(self):
        chainer.global_config.add_key('train', 'ignored')
        assert chainer.config.train is True

    @pytest.mark.parametrize('name', ['_private', 'with space', '1abc'])
    def test_bad_names(self, name):
        with pytest.raises(ValueError):
            configuration.GlobalConfig().add_key(name, 1)


class TestShow:

    def test_show_writes_every_key(self):
        out = io.StringIO()
        chainer.config.show(out)
        lines = out.getvalue().splitlines()
        keys = [line.split()[0] for line in lines]
        assert keys == sorted(keys)
        for key in ('train', 'enable_backprop', 'debug', 'type_check',
                    'dtype', 'use_cudnn'):
            assert key in keys
        assert not any(k.startswith('_') for k in keys)

    def test_show_values_are_aligned(self):
        out = io.StringIO()
        chainer.config.show(out)
        lines = out.getvalue().splitlines()
        columns = {len(line) - len(line.split(None, 1)[1]) for line in lines}
        assert len(columns) == 1
        dtype_line = [line for line in lines if line.split()[0] == 'dtype']
        assert dtype_line[0].split()[1] == 'float32'

    def test_show_reflects_local_values(self):
        out = io.StringIO()
        with chainer.using_config('train', False):
            with chainer.using_config('extra_key', 7):
                chainer.config.show(out)
        text = out.getvalue()
        train_line = [line for line in text.splitlines()
                      if line.split()[0] == 'train']
        assert train_line[0].split()[1] == 'False'
        assert 'extra_key' in text

    def test_show_defaults_to_stdout(self, capsys):
        chainer.config.show()
        assert 'enable_backprop' in capsys.readouterr().out

    def test_global_show(self, capsys):
        chainer.global_config.show()
        assert 'type_check' in capsys.readouterr().out


class TestGetDtype:

    def test_default_is_config_dtype(self):
        assert chainer.get_dtype() == numpy.float32
        with chainer.using_config('dtype', numpy.float64):
            assert chainer.get_dtype() == numpy.float64

    def test_explicit_dtype_wins(self):
        assert chainer.get_dtype(numpy.float16) == numpy.float16
        assert chainer.get_dtype('float64') == numpy.float64

    def test_mixed16_maps_to_float16_unless_told(self):
        with chainer.using_config('dtype', chainer.mixed16):
            assert chainer.get_dtype() == numpy.float16
            assert chainer.get_dtype(map_mixed16=numpy.float32) == \
                numpy.float32
        assert chainer.get_dtype(chainer.mixed16) == numpy.float16
        assert repr(chainer.mixed16) == "dtype('mixed16')"

    def test_parameter_without_dtype_follows_config(self):
        with chainer.using_config('dtype', chainer.mixed16):
            p = chainer.Parameter(chainer.initializers.Normal(), (2, 3))
        assert p.dtype == numpy.float16

    @pytest.mark.parametrize('name,expected', [
        ('float16', "dtype('float16')"), ('float64', "dtype('float64')"),
        ('mixed16', "dtype('mixed16')")])
    def test_environment(self, name, expected):
        out = subprocess.run(
            [sys.executable, '-c',
             'import chainer_core; print(repr(chainer_core.config.dtype))'],
            env=dict(os.environ, CHAINER_DTYPE=name), capture_output=True,
            text=True, check=True).stdout.strip()
        assert out == expected

    def test_environment_refuses_non_float(self):
        proc = subprocess.run(
            [sys.executable, '-c', 'import chainer_core'],
            env=dict(os.environ, CHAINER_DTYPE='int32'), capture_output=True,
            text=True)
        assert proc.returncode != 0
        assert 'CHAINER_DTYPE' in proc.stderr and 'int32' in proc.stderr
