"""ParameterStatistics: report statistics of parameters and gradients."""
import numpy

from chainer_core import backend
from chainer_core import reporter
from chainer_core.training import extension


def _xp(x):
    return backend.get_array_module(x)


_SIGMA_PERCENTILES = (0.13, 2.28, 15.87, 50, 84.13, 97.72, 99.87)


class ParameterStatistics(extension.Extension):
    """Report statistics of the parameters (and gradients) of links.

    Each call computes, for every parameter of every link, each statistic
    of the flattened array; the means over each ``trigger`` interval are
    reported as ``<prefix>/<link name><param path>/<data|grad>/<statistic>``
    (a statistic returning several values, like ``percentile``, adds
    ``/0``, ``/1``... to the key). Uninitialized parameters and missing
    gradients are skipped.

    Args:
        links (Link or list of Link): the links.
        statistics (dict or 'default' or None): name to ``f(array)``;
            ``'default'`` gives mean, std, min, max, zeros (count) and
            percentile (the sigma levels 0.13 ... 99.87).
        report_params (bool): report statistics of the values.
        report_grads (bool): report statistics of the gradients.
        prefix (str): a prefix of the keys.
        trigger: the reporting interval (default every epoch).
        skip_nan_params (bool): report NaN for an array holding NaN instead
            of computing statistics of it.
    """

    default_name = 'parameter_statistics'
    priority = extension.PRIORITY_WRITER
    report_key_template = ('{prefix}{link_name}{param_name}/{attr_name}/'
                           '{function_name}')

    default_statistics = {
        'mean': lambda x: _xp(x).mean(x),
        'std': lambda x: _xp(x).std(x),
        'min': lambda x: _xp(x).min(x),
        'max': lambda x: _xp(x).max(x),
        'zeros': lambda x: _xp(x).count_nonzero(x == 0),
        'percentile': lambda x: _xp(x).percentile(x, _SIGMA_PERCENTILES),
    }

    def __init__(self, links, statistics='default', report_params=True,
                 report_grads=True, prefix=None, trigger=(1, 'epoch'),
                 skip_nan_params=False):
        from chainer_core.training.util import get_trigger
        if not isinstance(links, (list, tuple)):
            links = (links,)
        self._links = links
        if statistics is None:
            statistics = {}
        elif isinstance(statistics, str):
            if statistics != 'default':
                raise ValueError("ParameterStatistics: statistics must be a "
                                 "dict, None or 'default', got {!r}".format(
                                     statistics))
            statistics = self.default_statistics
        self._statistics = dict(statistics)
        kinds = (('data', report_params), ('grad', report_grads))
        self._attrs = [a for a, on in kinds if on]
        self._prefix = prefix
        self._trigger = get_trigger(trigger)
        self._skip_nan_params = skip_nan_params
        self._summary = reporter.DictSummary()

    def register_statistics(self, name, function):
        """Add the statistic ``function(array)`` under ``name``."""
        self._statistics[name] = function

    def __call__(self, trainer):
        statistics = {}
        prefix = self._prefix + '/' if self._prefix else ''
        for link in self._links:
            link_name = getattr(link, 'name', None) or 'None'
            for param_name, param in link.namedparams():
                for attr_name in self._attrs:
                    array = param.array if attr_name == 'data' else \
                        param.grad
                    if array is None:
                        continue
                    flat = array.ravel()
                    has_nan = self._skip_nan_params and \
                        bool(_xp(flat).isnan(flat).any())
                    for function_name, function in self._statistics.items():
                        key = self.report_key_template.format(
                            prefix=prefix, link_name=link_name,
                            param_name=param_name, attr_name=attr_name,
                            function_name=function_name)
                        value = numpy.nan if has_nan else function(flat)
                        size = getattr(value, 'size', 1)
                        if size > 1:
                            for i, v in enumerate(value):
                                statistics['{}/{}'.format(key, i)] = v
                        else:
                            statistics[key] = value
        self._summary.add(statistics)
        if self._trigger(trainer):
            reporter.report(self._summary.compute_mean())
            self._summary = reporter.DictSummary()

    def serialize(self, serializer):
        if hasattr(self._trigger, 'serialize'):
            self._trigger.serialize(serializer['_trigger'])
        self._summary.serialize(serializer['_summary'])
