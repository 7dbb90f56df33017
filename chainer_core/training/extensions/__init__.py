"""Trainer extensions (Chainer's ``chainer.training.extensions``)."""
from chainer_core import _lazy

__getattr__, __dir__ = _lazy(__name__, {
    '._snapshot': ('snapshot', 'snapshot_object'),
    '.computational_graph': ('dump_graph', 'DumpGraph'),
    '.evaluator': ('Evaluator',),
    '.exponential_shift': ('ExponentialShift',),
    '.fail_on_nonnumber': ('FailOnNonNumber',),
    '.inverse_shift': ('InverseShift',),
    '.linear_shift': ('LinearShift',),
    '.log_report': ('LogReport',),
    '.micro_average': ('MicroAverage',),
    '.multistep_shift': ('MultistepShift',),
    '.parameter_statistics': ('ParameterStatistics',),
    '.plot_report': ('PlotReport',),
    '.polynomial_shift': ('PolynomialShift',),
    '.print_report': ('PrintReport',),
    '.progress_bar': ('ProgressBar',),
    '.snapshot_writers': ('ProcessWriter', 'SimpleWriter', 'ThreadWriter'),
    '.step_shift': ('StepShift',),
    '.value_observation': ('observe_lr', 'observe_value'),
    '.variable_statistics_plot': ('VariableStatisticsPlot',),
    '.variable_unchain': ('unchain_variables',),
    '.warmup_shift': ('WarmupShift',),
}, submodules=True)
