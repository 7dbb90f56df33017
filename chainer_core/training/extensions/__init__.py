"""Trainer extensions (Chainer's ``chainer.training.extensions``)."""
from chainer_core.training.extensions import snapshot_writers  # NOQA
from chainer_core.training.extensions._snapshot import (  # NOQA
    snapshot, snapshot_object)
from chainer_core.training.extensions.computational_graph import (  # NOQA
    DumpGraph, dump_graph)
from chainer_core.training.extensions.evaluator import Evaluator  # NOQA
from chainer_core.training.extensions.exponential_shift import (  # NOQA
    ExponentialShift)
from chainer_core.training.extensions.fail_on_nonnumber import (  # NOQA
    FailOnNonNumber)
from chainer_core.training.extensions.inverse_shift import (  # NOQA
    InverseShift)
from chainer_core.training.extensions.linear_shift import LinearShift  # NOQA
from chainer_core.training.extensions.log_report import LogReport  # NOQA
from chainer_core.training.extensions.micro_average import (  # NOQA
    MicroAverage)
from chainer_core.training.extensions.multistep_shift import (  # NOQA
    MultistepShift)
from chainer_core.training.extensions.parameter_statistics import (  # NOQA
    ParameterStatistics)
from chainer_core.training.extensions.plot_report import PlotReport  # NOQA
from chainer_core.training.extensions.polynomial_shift import (  # NOQA
    PolynomialShift)
from chainer_core.training.extensions.print_report import PrintReport  # NOQA
from chainer_core.training.extensions.progress_bar import ProgressBar  # NOQA
from chainer_core.training.extensions.snapshot_writers import (  # NOQA
    ProcessWriter, SimpleWriter, ThreadWriter)
from chainer_core.training.extensions.step_shift import StepShift  # NOQA
from chainer_core.training.extensions.value_observation import (  # NOQA
    observe_lr, observe_value)
from chainer_core.training.extensions.variable_statistics_plot import (  # NOQA
    VariableStatisticsPlot)
from chainer_core.training.extensions.variable_unchain import (  # NOQA
    unchain_variables)
from chainer_core.training.extensions.warmup_shift import WarmupShift  # NOQA
from chainer_core.training.extensions import util  # NOQA
