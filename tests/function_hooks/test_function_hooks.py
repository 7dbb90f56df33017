"""Function hooks: the base class, thread-wide and per-node installation,
TimerHook, PrintHook, CallableHook and CupyMemoryProfileHook."""
import io
import threading

import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F
from chainer_core import function_hooks


class Recorder(chainer.FunctionHook):
    name = 'Recorder'

    def __init__(self):
        self.events = []

    def added(self, function):
        self.events.append(('added', function))

    def deleted(self, function):
        self.events.append(('deleted', function))

    def forward_preprocess(self, function, in_data):
        self.events.append(('fpre', function.label, len(in_data)))

    def forward_postprocess(self, function, in_data):
        self.events.append(('fpost', function.label))

    def backward_preprocess(self, function, in_data, out_grad):
        self.events.append(('bpre', function.label, len(out_grad)))

    def backward_postprocess(self, function, in_data, out_grad):
        self.events.append(('bpost', function.label))


def _x():
    return chainer.Variable(numpy.array([1.0, -2.0, 3.0], numpy.float32))


def test_with_installs_the_hook_for_the_thread():
    hook = Recorder()
    x = _x()
    with hook as h:
        assert h is hook
        assert chainer.get_function_hooks()['Recorder'] is hook
        y = F.sum(F.relu(x))
        forward_events = list(hook.events)
        y.backward()
    F.relu(x)
    assert 'Recorder' not in chainer.get_function_hooks()
    assert forward_events == [('added', None), ('fpre', 'ReLU', 1),
                              ('fpost', 'ReLU'), ('fpre', 'Sum', 1),
                              ('fpost', 'Sum')]
    # Backward runs Sum's then ReLU's backward (the ops those apply are
    # hooked too).
    backward = [e for e in hook.events[len(forward_events):]
                if e[0] in ('bpre', 'bpost')]
    assert backward == [('bpre', 'Sum', 1), ('bpost', 'Sum'),
                        ('bpre', 'ReLU', 1), ('bpost', 'ReLU')]
    assert hook.events[-1] == ('deleted', None)


def test_two_hooks_of_one_name_cannot_be_installed():
    with Recorder():
        with pytest.raises(KeyError):
            with Recorder():
                pass
    assert 'Recorder' not in chainer.get_function_hooks()


def test_hooks_are_per_thread():
    seen = []

    def other():
        seen.append(dict(chainer.get_function_hooks()))

    with Recorder():
        t = threading.Thread(target=other)
        t.start()
        t.join()
    assert seen == [{}]


def test_base_hook_does_nothing():
    with chainer.FunctionHook():
        y = F.sum(_x() * 2)
        y.backward()


def test_node_local_hook():
    x = _x()
    y = F.relu(x)
    node = y.creator_node
    hook = Recorder()
    node.add_hook(hook)
    assert hook.events == [('added', node)]
    F.sum(y).backward()
    assert ('bpre', 'ReLU', 1) in hook.events
    node.delete_hook('Recorder')
    assert hook.events[-1] == ('deleted', node)


def test_timer_hook_records_calls_and_totals():
    hook = function_hooks.TimerHook()
    x = _x()
    with hook:
        y = F.exp(x)
    with hook:
        z = F.sum(y)
    names = [name for name, _ in hook.call_history]
    assert names == ['Exp', 'Sum']
    assert all(t >= 0 for _, t in hook.call_history)
    assert hook.total_time() == pytest.approx(
        sum(t for _, t in hook.call_history))
    with hook:
        z.backward()
    summary = hook.summary()
    assert list(summary)[:2] == ['Exp', 'Sum']
    assert summary['Exp']['occurrence'] >= 2
    assert summary['Exp']['elapsed_time'] > 0
    assert hook.total_time() <= sum(t for _, t in hook.call_history)


def test_timer_hook_report():
    hook = function_hooks.TimerHook()
    with hook:
        F.relu(_x())
        F.relu(_x())
    out = io.StringIO()
    hook.print_report(file=out)
    lines = out.getvalue().splitlines()
    assert lines[0].split() == ['FunctionName', 'ElapsedTime', 'Occurrence']
    name, elapsed, occurrence = lines[1].split()
    assert name == 'ReLU' and occurrence == '2'
    assert elapsed.endswith(('sec', 'ms', 'us', 'ns'))
    assert len(set(len(line) for line in lines)) == 1
    out = io.StringIO()
    hook.print_report(unit='ns', file=out)
    assert out.getvalue().splitlines()[1].split()[1].endswith('ns')
    with pytest.raises(ValueError):
        hook.print_report(unit='hours', file=io.StringIO())


def test_time_units():
    from chainer_core.function_hooks import _report
    times = [2.5, 0.0031, 4e-7]
    assert _report.format_times(times, 'auto') == \
        ['2.50sec', '0.00sec', '0.00sec']
    assert _report.format_times(times, 'auto_foreach') == \
        ['2.50sec', '3.10ms', '400.00ns']
    assert _report.format_times(times, 'ms') == \
        ['2500.00ms', '3.10ms', '0.00ms']
    assert _report.format_times([], 'auto') == []


def test_timer_hook_nested_calls_count_once_in_total():
    hook = function_hooks.TimerHook()
    hook.forward_preprocess(None, ())
    hook.forward_preprocess(None, ())
    hook.forward_postprocess(type('Inner', (), {})(), ())
    hook.forward_postprocess(type('Outer', (), {})(), ())
    (inner, t_inner), (outer, t_outer) = hook.call_history
    assert (inner, outer) == ('Inner', 'Outer')
    assert hook.total_time() == t_outer


def test_print_hook_prints_inputs_and_gradients():
    out = io.StringIO()
    x = _x()
    with function_hooks.PrintHook(file=out):
        y = F.sum(F.relu(x))
        y.backward()
    text = out.getvalue()
    assert 'function\tReLU' in text and 'function\tSum' in text
    assert 'input data' in text and 'output gradient' in text
    assert '- shape: (3,)' in text
    with pytest.warns(DeprecationWarning):
        function_hooks.PrintHook(sep=' ')


def test_print_hook_is_debug_print_module():
    from chainer_core.function_hooks import debug_print
    assert debug_print.PrintHook is function_hooks.PrintHook
    assert not hasattr(function_hooks, 'DebugPrint')


def test_callable_hook():
    events = []
    hook = function_hooks.CallableHook(
        added=lambda f: events.append('added'),
        forward_preprocess=lambda f, xs: events.append(('fpre', f.label)),
        backward_postprocess=lambda f, xs, gys: events.append(
            ('bpost', f.label)),
        deleted=lambda f: events.append('deleted'))
    with hook:
        F.sum(_x()).backward()
    assert events[:2] == ['added', ('fpre', 'Sum')]
    assert ('bpost', 'Sum') in events
    assert events[-1] == 'deleted'
    with function_hooks.CallableHook():
        F.sum(_x()).backward()


def test_cupy_memory_profile_summary_and_report():
    # The bookkeeping and the report, without a memory pool to measure.
    hook = object.__new__(function_hooks.CupyMemoryProfileHook)
    hook.call_history = [('LinearFunction', 3 * 1024 ** 3, 2048, 0),
                         ('ReLU', 512, 0, 0), ('LinearFunction', 1024, 0, 1)]
    summary = hook.summary()
    assert summary['LinearFunction'] == {
        'used_bytes': 3 * 1024 ** 3 + 1024, 'acquired_bytes': 2048,
        'occurrence': 2}
    out = io.StringIO()
    hook.print_report(file=out)
    lines = out.getvalue().splitlines()
    assert lines[0].split() == ['FunctionName', 'UsedBytes',
                                'AcquiredBytes', 'Occurrence']
    assert lines[1].split() == ['LinearFunction', '3.00GB', '0.00GB', '2']
    out = io.StringIO()
    hook.print_report(unit='auto_foreach', file=out)
    assert out.getvalue().splitlines()[2].split() == \
        ['ReLU', '512.00B', '0.00B', '1']
    out = io.StringIO()
    hook.print_report(unit='KB', file=out)
    assert out.getvalue().splitlines()[2].split()[1] == '0.50KB'


def test_cupy_memory_profile_hook_needs_cupy():
    try:
        import cupy  # NOQA
    except ImportError:
        with pytest.raises(RuntimeError, match='CuPy'):
            function_hooks.CupyMemoryProfileHook()
    else:
        pytest.skip('CuPy is installed; the profile itself needs a GPU run')


def test_top_level_names():
    from chainer_core import function_hook
    assert chainer.FunctionHook is function_hook.FunctionHook
    assert chainer.get_function_hooks is function_hook.get_function_hooks
