"""PrintHook: print every function node's inputs and gradients."""
import sys
import warnings

from chainer_core import function_hook
from chainer_core.variable import Variable


class PrintHook(function_hook.FunctionHook):
    """Print the name, the inputs and (in backward) the output gradients of
    every function node before it computes.

    Args:
        sep: deprecated and unused.
        end (str): the string written after each item.
        file: where to write.
        flush (bool): flush ``file`` after each node.
    """

    name = 'PrintHook'

    def __init__(self, sep=None, end='\n', file=sys.stdout, flush=True):
        if sep is not None:
            warnings.warn('the sep argument of PrintHook is deprecated',
                          DeprecationWarning)
        self.sep = sep
        self.end = end
        self.file = file
        self.flush = flush

    def _print(self, text):
        self.file.write(text + self.end)

    def _process(self, function, in_data, out_grad=None):
        self._print('function\t{}'.format(function.label))
        self._print('input data')
        for x in in_data:
            if x is None:
                # An input whose array was released (retain_grad).
                self._print('(removed)')
            else:
                self._print(Variable(x).debug_print())
        if out_grad is not None:
            self._print('output gradient')
            for gy in out_grad:
                if gy is None:
                    self._print('None')
                else:
                    self._print(Variable(gy).debug_print())
        if self.flush and hasattr(self.file, 'flush'):
            self.file.flush()

    def forward_preprocess(self, function, in_data):
        self._process(function, in_data)

    def backward_preprocess(self, function, in_data, out_grad):
        self._process(function, in_data, out_grad)
