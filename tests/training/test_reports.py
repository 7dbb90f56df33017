"""LogReport (file content), PrintReport and ProgressBar (output, on a
terminal through a pty and on plain streams), PlotReport and
VariableStatisticsPlot (PNG files)."""
import io
import json
import os
import pty
import select
import subprocess
import sys
import textwrap

import numpy
import pytest

from chainer_core.serializers import npz
from chainer_core.testing import get_trainer_with_mock_updater
from chainer_core.training import extensions

from ._util import make_trainer

REPO = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
PNG = b'\x89PNG\r\n\x1a\n'


def _reporting_trainer(tmp_path, values, stop, iter_per_epoch=2):
    """A mock trainer whose observation at iteration i holds
    ``values(i)``."""
    trainer = get_trainer_with_mock_updater(stop, iter_per_epoch,
                                            out=str(tmp_path))

    def report(t):
        t.observation.update(values(t.updater.iteration))

    trainer.extend(report, name='report', priority=300)
    return trainer


def test_log_report_file(tmp_path):
    trainer = _reporting_trainer(
        tmp_path, lambda i: {'loss': float(i), 'acc': numpy.float32(i * 2),
                             'vector': numpy.ones(3)}, (3, 'epoch'))
    trainer.extend(extensions.LogReport())
    trainer.run()
    with open(tmp_path / 'log') as f:
        log = json.load(f)
    assert [sorted(e) for e in log] == [
        ['acc', 'elapsed_time', 'epoch', 'iteration', 'loss']] * 3
    assert [(e['epoch'], e['iteration'], e['loss'], e['acc'])
            for e in log] == [(1, 2, 1.5, 3.), (2, 4, 3.5, 7.),
                              (3, 6, 5.5, 11.)]
    times = [e['elapsed_time'] for e in log]
    assert times == sorted(times) and times[0] >= 0
    assert trainer.get_extension('LogReport').log == log
    umask = os.umask(0)
    os.umask(umask)
    assert os.stat(tmp_path / 'log').st_mode & 0o777 == 0o666 & ~umask
    assert [n for n in os.listdir(tmp_path) if n.startswith('.')] == []


def test_log_report_options(tmp_path):
    def postprocess(entry):
        entry['double'] = entry['loss'] * 2

    trainer = _reporting_trainer(
        tmp_path, lambda i: {'loss': float(i), 'other': 1.}, (4, 'iteration'))
    trainer.extend(extensions.LogReport(
        keys=['loss'], trigger=(2, 'iteration'), postprocess=postprocess,
        filename='log_{iteration}.json'))
    trainer.extend(extensions.LogReport(log_name=None), name='nofile')
    trainer.run()
    with open(tmp_path / 'log_4.json') as f:
        log = json.load(f)
    assert [(e['loss'], e['double']) for e in log] == [(1.5, 3.), (3.5, 7.)]
    assert 'other' not in log[0]
    assert sorted(os.listdir(tmp_path)) == ['log_2.json', 'log_4.json']
    with pytest.raises(TypeError, match='unexpected'):
        extensions.LogReport(log_file='x')


def test_log_report_resumes_its_interval(tmp_path):
    def values(i):
        return {'loss': float(i)}

    first = _reporting_trainer(tmp_path, values, (3, 'iteration'),
                               iter_per_epoch=4)
    first.extend(extensions.LogReport())
    first.run()
    npz.save_npz(str(tmp_path / 's.npz'), first)
    second = _reporting_trainer(tmp_path, values, (8, 'iteration'),
                                iter_per_epoch=4)
    second.extend(extensions.LogReport())
    npz.load_npz(str(tmp_path / 's.npz'), second)
    second.run()
    log = second.get_extension('LogReport').log
    # The first epoch's mean includes the iterations before the snapshot.
    assert [e['loss'] for e in log] == [2.5, 6.5]


def test_print_report(tmp_path):
    out = io.StringIO()
    trainer = _reporting_trainer(
        tmp_path, lambda i: {'main/loss': 1. / i, 'skipped': 'text'},
        (2, 'epoch'))
    trainer.extend(extensions.LogReport(
        postprocess=lambda entry: entry.update(name='x')))
    trainer.extend(extensions.PrintReport(
        ['epoch', 'main/loss', 'missing', 'name'], out=out))
    trainer.run()
    lines = out.getvalue().splitlines()
    assert lines[0].split() == ['epoch', 'main/loss', 'missing', 'name']
    assert lines[1].split() == ['1', '{:g}'.format(0.75), 'x']
    assert lines[2].split() == ['2', '{:g}'.format((1 / 3 + 1 / 4) / 2),
                                'x']
    assert len(lines) == 3
    assert lines[1].index('0.75') == lines[0].index('main/loss')
    assert '\033' not in out.getvalue()


def test_print_report_with_a_log_report_object(tmp_path):
    out = io.StringIO()
    log_report = extensions.LogReport(trigger=(1, 'iteration'))
    trainer = _reporting_trainer(tmp_path, lambda i: {'v': float(i)},
                                 (2, 'iteration'))
    trainer.extend(extensions.PrintReport(['iteration', 'v'], log_report,
                                          out=out))
    trainer.run()
    assert [line.split() for line in out.getvalue().splitlines()] == [
        ['iteration', 'v'], ['1', '1'], ['2', '2']]
    with pytest.raises(TypeError, match='LogReport'):
        extensions.PrintReport(['v'], log_report=3)


def test_print_report_after_resume_prints_only_new_rows(tmp_path):
    def make(stop, out):
        trainer = _reporting_trainer(tmp_path, lambda i: {'v': 1.}, stop)
        trainer.extend(extensions.LogReport())
        trainer.extend(extensions.PrintReport(['epoch'], out=out))
        return trainer

    first = make((2, 'epoch'), io.StringIO())
    first.run()
    npz.save_npz(str(tmp_path / 's.npz'), first)
    out = io.StringIO()
    second = make((3, 'epoch'), out)
    npz.load_npz(str(tmp_path / 's.npz'), second)
    second.run()
    assert out.getvalue().split() == ['epoch', '3']


def test_progress_bar_on_a_plain_stream(tmp_path):
    out = io.StringIO()
    trainer = get_trainer_with_mock_updater((2, 'epoch'), iter_per_epoch=10,
                                            out=str(tmp_path))
    trainer.extend(extensions.ProgressBar(update_interval=5, out=out))
    trainer.run()
    lines = out.getvalue().splitlines()
    assert '\033' not in out.getvalue() and '\r' not in out.getvalue()
    assert len(lines) == 4
    assert lines[0].startswith('5 iter, 0 epoch / 2 epochs, 25.00% done')
    assert lines[3].startswith('20 iter, 2 epoch / 2 epochs, 100.00% done')
    assert 'iters/sec' in lines[3] and 'estimated time to finish' in lines[3]


def test_progress_bar_needs_a_length(tmp_path):
    trainer = get_trainer_with_mock_updater(out=str(tmp_path))
    trainer.stop_trigger = lambda t: t.updater.iteration >= 3
    trainer.extend(extensions.ProgressBar(out=io.StringIO()))
    with pytest.raises(TypeError, match='training_length'):
        trainer.run()
    trainer = get_trainer_with_mock_updater(out=str(tmp_path))
    trainer.stop_trigger = lambda t: t.updater.iteration >= 3
    out = io.StringIO()
    trainer.extend(extensions.ProgressBar((3, 'iteration'), 1, out=out))
    trainer.run()
    assert out.getvalue().splitlines()[-1].startswith(
        '3 iter, 0 epoch / 3 iterations, 100.00% done')
    with pytest.raises(ValueError, match='update_interval'):
        extensions.ProgressBar(update_interval=0)


_TTY_RUN = textwrap.dedent('''
    import sys
    sys.path.insert(0, {repo!r})
    from chainer_core.testing import get_trainer_with_mock_updater
    from chainer_core.training import extensions

    assert sys.stdout.isatty()
    trainer = get_trainer_with_mock_updater((2, 'epoch'), iter_per_epoch=4,
                                            out=sys.argv[1])
    trainer.extend(extensions.LogReport())
    trainer.extend(extensions.PrintReport(['epoch', 'iteration']))
    trainer.extend(extensions.ProgressBar(update_interval=2))
    trainer.run()
    print('done')
''')


def test_progress_bar_redraws_in_place_on_a_terminal(tmp_path):
    script = tmp_path / 'run.py'
    script.write_text(_TTY_RUN.format(repo=REPO))
    controller, terminal = pty.openpty()
    proc = subprocess.Popen([sys.executable, str(script), str(tmp_path)],
                            stdin=terminal, stdout=terminal,
                            stderr=subprocess.PIPE)
    os.close(terminal)
    chunks = []
    while True:
        ready, _, _ = select.select([controller], [], [], 60)
        if not ready:
            break
        try:
            data = os.read(controller, 4096)
        except OSError:
            break
        if not data:
            break
        chunks.append(data)
    os.close(controller)
    assert proc.wait(timeout=60) == 0, proc.stderr.read().decode()
    proc.stderr.close()
    text = b''.join(chunks).decode()
    # Each draw: clear below the cursor, four lines, back up four lines.
    draws = text.count('\033[J     total [')
    assert draws == 4
    assert text.count('\033[4A') == 4
    assert 'this epoch [' in text and '50.00%' in text
    # PrintReport rows clear the bar first; the end clears the last bar.
    assert '\033[J1           4' in text
    assert text.rstrip().endswith('\033[Jdone')


def test_plot_report_writes_a_png(tmp_path):
    trainer = _reporting_trainer(
        tmp_path, lambda i: {'main/loss': 1. / i, 'validation/main/loss':
                             2. / i}, (3, 'epoch'))
    trainer.extend(extensions.PlotReport(
        ['main/loss', 'validation/main/loss'], 'epoch', filename='loss.png'))
    trainer.extend(extensions.PlotReport('main/loss', file_name='it.png',
                                         trigger=(1, 'iteration')))
    trainer.run()
    assert extensions.PlotReport.available()
    assert (tmp_path / 'loss.png').read_bytes()[:8] == PNG
    assert (tmp_path / 'it.png').read_bytes()[:8] == PNG
    data = trainer.get_extension('PlotReport')._data
    assert data['main/loss'] == [(1, 0.75), (2, (1 / 3 + 1 / 4) / 2),
                                 (3, (1 / 5 + 1 / 6) / 2)]
    assert [n for n in os.listdir(tmp_path) if n.startswith('.')] == []


def test_plot_report_other_formats_and_postprocess(tmp_path):
    calls = []

    def postprocess(figure, axes, summary):
        calls.append(sorted(summary.compute_mean()))

    trainer = _reporting_trainer(tmp_path, lambda i: {'a': float(i)},
                                 (2, 'epoch'))
    trainer.extend(extensions.PlotReport(['a'], 'epoch', filename='a.svg',
                                         postprocess=postprocess))
    trainer.run()
    assert b'<svg' in (tmp_path / 'a.svg').read_bytes()[:500]
    assert calls == [['a'], ['a']]


def test_plot_report_resumes_its_points(tmp_path):
    def make(stop):
        trainer = _reporting_trainer(tmp_path, lambda i: {'a': float(i)},
                                     stop)
        trainer.extend(extensions.PlotReport(['a'], 'epoch'))
        return trainer

    first = make((2, 'epoch'))
    first.run()
    npz.save_npz(str(tmp_path / 's.npz'), first)
    second = make((3, 'epoch'))
    npz.load_npz(str(tmp_path / 's.npz'), second)
    second.run()
    assert second.get_extension('PlotReport')._data['a'] == [
        (1, 1.5), (2, 3.5), (3, 5.5)]


def test_variable_statistics_plot(tmp_path):
    trainer = make_trainer(tmp_path, stop=(3, 'epoch'))
    model = trainer.updater.get_optimizer('main').target
    trainer.extend(extensions.VariableStatisticsPlot(model, max_sample_size=4))
    trainer.extend(extensions.VariableStatisticsPlot(
        model.fc.W, report_grad=False, plot_std=False,
        percentile_sigmas=50, filename='w.png'))
    trainer.run()
    assert (tmp_path / 'statistics.png').read_bytes()[:8] == PNG
    assert (tmp_path / 'w.png').read_bytes()[:8] == PNG
    plot = trainer.get_extension('VariableStatisticsPlot')
    # 12 iterations thinned to at most 4 evenly spaced samples.
    assert [it for it, _ in plot._samples] == [4, 8, 12]
    W, b = model.fc.W.array, model.fc.b.array
    values = numpy.concatenate([W.ravel(), b.ravel()]) \
        if model.fc.W is next(iter(model.params())) else \
        numpy.concatenate([b.ravel(), W.ravel()])
    stats = plot._samples[-1][1]['data']
    assert stats[0] == pytest.approx(values.mean())
    assert stats[1] == pytest.approx(values.std())
    assert stats[2] == pytest.approx(values.min())
    assert stats[-1] == pytest.approx(values.max())
    with pytest.raises(ValueError, match='nothing to plot'):
        extensions.VariableStatisticsPlot(model, plot_mean=False,
                                          plot_std=False,
                                          percentile_sigmas=())
    with pytest.raises(TypeError, match='Variables or Links'):
        extensions.VariableStatisticsPlot([1])
