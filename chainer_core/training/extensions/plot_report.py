"""PlotReport: plot logged values against epochs or iterations (PNG)."""
import json
import os

from chainer_core.training import extension
from chainer_core.training import triggers as trigger_module


def _matplotlib():
    try:
        import matplotlib
    except ImportError:
        return None
    matplotlib.use('Agg', force=False)
    import matplotlib.pyplot as plt
    return plt


class PlotReport(extension.Extension):
    """Draw the means of ``y_keys`` over ``x_key`` into ``<out>/<filename>``.

    Needs matplotlib (the ``plot`` extra); :meth:`available` says whether
    it is installed. Values are averaged over each ``trigger`` interval.

    Args:
        y_keys (str or list of str): the reported keys to plot.
        x_key (str): ``'epoch'`` or ``'iteration'``.
        trigger: when to add a point and redraw.
        postprocess: ``f(figure, axes, summary)`` before saving.
        filename (str): the image file (``plot.png``).
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
        if x_key not in ('epoch', 'iteration'):
            raise ValueError("PlotReport: x_key must be 'epoch' or "
                             "'iteration', got {!r}".format(x_key))
        if isinstance(y_keys, str):
            y_keys = (y_keys,)
        self._x_key = x_key
        self._y_keys = list(y_keys)
        self._trigger = trigger_module.get_trigger(trigger)
        self._postprocess = postprocess
        self._file_name = filename or file_name
        self._marker = marker
        self._grid = grid
        self._sums = {}
        self._counts = {}
        self._data = {k: [] for k in self._y_keys}

    @staticmethod
    def available():
        """Whether matplotlib can be imported."""
        return _matplotlib() is not None

    def __call__(self, trainer):
        observation = trainer.observation
        for k in self._y_keys:
            if k in observation:
                value = observation[k]
                value = float(getattr(value, 'array', value))
                self._sums[k] = self._sums.get(k, 0.0) + value
                self._counts[k] = self._counts.get(k, 0) + 1
        if not self._trigger(trainer):
            return
        updater = trainer.updater
        x = updater.epoch if self._x_key == 'epoch' else updater.iteration
        for k in self._y_keys:
            if self._counts.get(k):
                self._data[k].append((x, self._sums[k] / self._counts[k]))
        self._sums, self._counts = {}, {}
        plt = _matplotlib()
        if plt is None:
            return
        fig, ax = plt.subplots()
        for k in self._y_keys:
            points = self._data[k]
            if points:
                xs, ys = zip(*points)
                ax.plot(xs, ys, marker=self._marker, label=k)
        if ax.has_data():
            ax.legend(loc='best')
        ax.set_xlabel(self._x_key)
        if self._grid:
            ax.grid()
        if self._postprocess is not None:
            self._postprocess(fig, ax, self._data)
        path = os.path.join(trainer.out, self._file_name)
        tmp = os.path.join(trainer.out, '.tmp-' + self._file_name)
        fig.savefig(tmp, format=os.path.splitext(path)[1][1:] or 'png')
        plt.close(fig)
        os.replace(tmp, path)

    def serialize(self, serializer):
        from chainer_core.serializer import Deserializer
        if hasattr(self._trigger, 'serialize'):
            self._trigger.serialize(serializer['_trigger'])
        if isinstance(serializer, Deserializer):
            data = json.loads(str(serializer('_plot_data', '{}')) or '{}')
            for k in self._y_keys:
                self._data[k] = [tuple(p) for p in data.get(k, [])]
        else:
            serializer('_plot_data', json.dumps(self._data))
