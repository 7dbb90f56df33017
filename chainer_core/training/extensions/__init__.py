"""Trainer extensions (Chainer's ``chainer.training.extensions``)."""
from chainer_core.training.extensions._snapshot import (  # NOQA
    SimpleWriter, snapshot, snapshot_object)
from chainer_core.training.extensions.evaluator import Evaluator  # NOQA
from chainer_core.training.extensions.log_report import LogReport  # NOQA
from chainer_core.training.extensions.plot_report import PlotReport  # NOQA
from chainer_core.training.extensions.print_report import PrintReport  # NOQA
from chainer_core.training.extensions.progress_bar import ProgressBar  # NOQA
