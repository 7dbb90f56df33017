"""VariableStatisticsPlot: plot how the distribution of values (and
gradients) of variables evolves during training."""
import json
import os

import numpy

from chainer_core import backend
from chainer_core import serializer as serializer_module
from chainer_core.link import Link
from chainer_core.training import extension
from chainer_core.training.extensions import _util
from chainer_core.training.extensions.plot_report import _matplotlib
from chainer_core.variable import Variable


def _unpack_variables(targets):
    if not isinstance(targets, (list, tuple)):
        targets = (targets,)
    variables = []
    for target in targets:
        if isinstance(target, Link):
            variables.extend(target.params())
        elif isinstance(target, Variable):
            variables.append(target)
        else:
            raise TypeError('VariableStatisticsPlot: targets must be '
                            'Variables or Links, got {}'.format(
                                type(target).__name__))
    return variables


_DEFAULT_SIGMAS = (0, 0.13, 2.28, 15.87, 50, 84.13, 97.72, 99.87, 100)


class VariableStatisticsPlot(extension.Extension):
    """Plot statistics of the values and gradients of variables over
    iterations into ``<out>/<filename>`` (needs matplotlib).

    Each call (every iteration by default) computes, over all elements of
    all targets together, the mean, the standard deviation and the
    percentiles; at each ``trigger`` the figure is redrawn: one column per
    kind (``data``, ``grad``), a row with the mean and a band of one
    standard deviation, and a row with bands between symmetric
    percentiles. At most ``max_sample_size`` iterations are kept (evenly
    thinned when exceeded).

    Args:
        targets (Variable, Link or list of them): what to watch (a link
            means all its parameters).
        max_sample_size (int): iterations kept for the plot.
        report_data (bool): plot the values.
        report_grad (bool): plot the gradients.
        plot_mean (bool): plot the mean.
        plot_std (bool): plot the standard deviation band.
        percentile_sigmas (float or tuple): the percentiles (in %) drawn.
        trigger: when to redraw.
        filename (str): the image (``statistics.png``).
        figsize (tuple): matplotlib figure size.
        marker (str): matplotlib marker of the lines.
        grid (bool): draw grids.
    """

    def __init__(self, targets, max_sample_size=1000, report_data=True,
                 report_grad=True, plot_mean=True, plot_std=True,
                 percentile_sigmas=_DEFAULT_SIGMAS, trigger=(1, 'epoch'),
                 filename=None, figsize=None, marker=None, grid=True,
                 **kwargs):
        from chainer_core.training.util import get_trigger
        file_name = kwargs.pop('file_name', 'statistics.png')
        if kwargs:
            raise TypeError('VariableStatisticsPlot: unexpected arguments {}'
                            .format(sorted(kwargs)))
        self._vars = _unpack_variables(targets)
        if not self._vars:
            raise ValueError('VariableStatisticsPlot: no variable to watch')
        if numpy.isscalar(percentile_sigmas):
            percentile_sigmas = (percentile_sigmas,)
        percentile_sigmas = tuple(percentile_sigmas or ())
        if not (plot_mean or plot_std or percentile_sigmas):
            raise ValueError('VariableStatisticsPlot: nothing to plot '
                             '(plot_mean, plot_std and percentile_sigmas '
                             'are all off)')
        self._keys = [k for k, on in (('data', report_data),
                                      ('grad', report_grad)) if on]
        if not self._keys:
            raise ValueError('VariableStatisticsPlot: report_data and '
                             'report_grad are both off')
        if max_sample_size < 2:
            raise ValueError('VariableStatisticsPlot: max_sample_size must '
                             'be at least 2, got {}'.format(max_sample_size))
        self._max_sample_size = max_sample_size
        self._plot_mean = plot_mean
        self._plot_std = plot_std
        self._sigmas = percentile_sigmas
        self._trigger = get_trigger(trigger)
        self._filename = filename or file_name
        self._figsize = figsize
        self._marker = marker
        self._grid = grid
        # Samples: (iteration, {kind: [mean, std, percentiles...]}).
        self._samples = []
        self._stride = 1

    @staticmethod
    def available():
        """Whether matplotlib can be imported."""
        return _matplotlib() is not None

    def _statistics(self, kind):
        arrays = [getattr(v, 'array' if kind == 'data' else 'grad')
                  for v in self._vars]
        arrays = [a for a in arrays if a is not None]
        if not arrays:
            return None
        xp = backend.get_array_module(arrays[0])
        flat = xp.concatenate([a.ravel() for a in arrays]).astype(
            numpy.float64)
        stats = [float(flat.mean()), float(flat.std())]
        if self._sigmas:
            stats.extend(float(p) for p in xp.percentile(flat, self._sigmas))
        return stats

    def __call__(self, trainer):
        iteration = trainer.updater.iteration
        if iteration % self._stride == 0:
            self._samples.append(
                (iteration, {k: self._statistics(k) for k in self._keys}))
            if len(self._samples) > self._max_sample_size:
                self._stride *= 2
                self._samples = [s for s in self._samples
                                 if s[0] % self._stride == 0]
        if self._trigger(trainer):
            plt = _matplotlib()
            if plt is not None:
                self._draw(plt, os.path.join(trainer.out, self._filename))

    def _draw(self, plt, path):
        rows = []
        if self._plot_mean or self._plot_std:
            rows.append('moments')
        if self._sigmas:
            rows.append('percentiles')
        fig, axes = plt.subplots(len(rows), len(self._keys),
                                 figsize=self._figsize, sharex=True,
                                 squeeze=False)
        try:
            for col, kind in enumerate(self._keys):
                points = [(it, s[kind]) for it, s in self._samples
                          if s[kind] is not None]
                for row, what in enumerate(rows):
                    ax = axes[row, col]
                    ax.set_title('{} ({})'.format(kind, what))
                    if self._grid:
                        ax.grid()
                    if row == len(rows) - 1:
                        ax.set_xlabel('iteration')
                    if not points:
                        continue
                    x = numpy.array([p[0] for p in points])
                    values = numpy.array([p[1] for p in points])
                    if what == 'moments':
                        self._draw_moments(ax, x, values)
                    else:
                        self._draw_percentiles(ax, x, values[:, 2:])
            fmt = os.path.splitext(self._filename)[1][1:] or 'png'
            _util.replace_atomic(
                path, lambda f: fig.savefig(f, format=fmt), binary=True)
        finally:
            plt.close(fig)

    def _draw_moments(self, ax, x, values):
        mean, std = values[:, 0], values[:, 1]
        if self._plot_mean:
            ax.plot(x, mean, marker=self._marker, label='mean')
        if self._plot_std:
            ax.fill_between(x, mean - std, mean + std, alpha=0.3,
                            label='mean ± std')
        ax.legend(loc='best')

    def _draw_percentiles(self, ax, x, values):
        n = values.shape[1]
        # Bands between symmetric percentiles, darker inwards; the middle
        # one (odd count) as a line.
        for i in range(n // 2):
            ax.fill_between(x, values[:, i], values[:, n - 1 - i],
                            alpha=0.15 + 0.5 * i / max(n // 2, 1),
                            color='C0', linewidth=0)
        if n % 2:
            ax.plot(x, values[:, n // 2], color='C0', marker=self._marker,
                    label='{:g}%'.format(self._sigmas[n // 2]))
            ax.legend(loc='best')

    def serialize(self, serializer):
        if hasattr(self._trigger, 'serialize'):
            self._trigger.serialize(serializer['_trigger'])
        self._stride = int(serializer('_stride', self._stride))
        if isinstance(serializer, serializer_module.Deserializer):
            self._samples = [(it, s) for it, s in json.loads(
                str(serializer('_samples', '')) or '[]')]
        else:
            serializer('_samples', json.dumps(self._samples))
