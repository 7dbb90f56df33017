"""PlotReport: plot logged values against epochs or iterations (PNG)."""
import json
import os
import warnings

from chainer_core import reporter
from chainer_core import serializer as serializer_module
from chainer_core.training import extension
from chainer_core.training import triggers as trigger_module
from chainer_core.training.extensions import _util


def _matplotlib():
    try:
        import matplotlib
    except ImportError:
        return None
    # A file backend: training often runs without a display.
    matplotlib.use('Agg', force=False)
    import matplotlib.pyplot as plt
    return plt


class PlotReport(extension.Extension):
    """Draw the means of ``y_keys`` over ``x_key`` into ``<out>/<filename>``.

    Values are averaged over each ``trigger`` interval, which adds one point
    per key and redraws the figure (written atomically). Needs matplotlib
    (the ``plot`` extra); :meth:`available` says whether it is installed,
    and without it the points are still collected but nothing is drawn.

    Args:
        y_keys (str or list of str): the reported keys to plot.
        x_key (str): ``'epoch'``, ``'iteration'`` or a reported key.
        trigger: when to add a point and redraw.
        postprocess: ``f(figure, axes, summary)`` before saving
            (``summary``: the DictSummary of the interval).
        filename (str): the image file (``plot.png``; the format follows
            the extension).
        marker (str): matplotlib marker.
        grid (bool): draw a grid.
    """

    def __init__(self, y_keys, x_key='iteration', trigger=(1, 'epoch'),
                 postprocess=None, filename=None, marker='x', grid=True,
                 **kwargs):
        file_name = kwargs.pop('file_name', 'plot.png')
        if kwargs:
            raise TypeError('PlotReport: unexpected arguments {}'.format(
                sorted(kwargs)))
        if isinstance(y_keys, str):
            y_keys = (y_keys,)
        self._x_key = x_key
        self._y_keys = list(y_keys)
        self._trigger = trigger_module.get_trigger(trigger)
        self._postprocess = postprocess
        self._file_name = filename or file_name
        self._marker = marker
        self._grid = grid
        self._data = {k: [] for k in self._y_keys}
        self._init_summary()

    @staticmethod
    def available():
        """Whether matplotlib can be imported (warns when it cannot)."""
        if _matplotlib() is None:
            warnings.warn('PlotReport needs matplotlib (pip install '
                          'matplotlib); nothing will be plotted')
            return False
        return True

    def _init_summary(self):
        self._summary = reporter.DictSummary()

    def __call__(self, trainer):
        observation = trainer.observation
        keys = set(self._y_keys)
        keys.add(self._x_key)
        self._summary.add({k: observation[k] for k in keys
                           if k in observation})
        if not self._trigger(trainer):
            return
        summary = self._summary
        stats = {k: float(v) for k, v in summary.compute_mean().items()}
        updater = trainer.updater
        stats['epoch'] = updater.epoch
        stats['iteration'] = updater.iteration
        self._init_summary()
        x = stats.get(self._x_key)
        if x is None:
            return
        for k in self._y_keys:
            if k in stats:
                self._data[k].append((x, stats[k]))
        plt = _matplotlib()
        if plt is None:
            return
        fig, ax = plt.subplots()
        try:
            ax.set_xlabel(self._x_key)
            if self._grid:
                ax.grid()
            for k in self._y_keys:
                points = self._data[k]
                if points:
                    xs, ys = zip(*points)
                    ax.plot(xs, ys, marker=self._marker, label=k)
            if ax.has_data():
                if self._postprocess is not None:
                    self._postprocess(fig, ax, summary)
                legend = ax.legend(bbox_to_anchor=(1.05, 1), loc='upper left',
                                   borderaxespad=0.)
                fmt = os.path.splitext(self._file_name)[1][1:] or 'png'
                _util.replace_atomic(
                    os.path.join(trainer.out, self._file_name),
                    lambda f: fig.savefig(f, format=fmt,
                                          bbox_extra_artists=(legend,),
                                          bbox_inches='tight'),
                    binary=True)
        finally:
            plt.close(fig)

    def serialize(self, serializer):
        if hasattr(self._trigger, 'serialize'):
            self._trigger.serialize(serializer['_trigger'])
        self._summary.serialize(serializer['_summary'])
        if isinstance(serializer, serializer_module.Deserializer):
            data = json.loads(str(serializer('_plot_data', '')) or '{}')
            for k in self._y_keys:
                self._data[k] = [tuple(p) for p in data.get(k, [])]
        else:
            serializer('_plot_data', json.dumps(self._data))
