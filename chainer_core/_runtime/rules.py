"""The derivative rules of the ops with graph kernels, and the kernels the
rules call (format: :mod:`backend_api.rules`).

An op declares its rule with its graph kernel (``graphs.declare(...,
derivative=...)``). The kernels a rule calls are declared here by the core
with their Python implementation, a differentiable function of Variables;
a backend's graph implements the same names natively. The core's graph
executes a rule through :func:`evaluator`, so an op with a rule has no
``backward`` of its own.
"""
import inspect

from backend_api import rules as _format

from chainer_core._runtime import kernels as _kernels_registry


class RuleKernelSpec:
    __slots__ = ('name', 'arrays', 'params', 'n_outputs', 'doc', 'python')

    def __init__(self, name, arrays, params, n_outputs, doc, python):
        self.name = name
        self.arrays = arrays
        self.params = params
        self.n_outputs = n_outputs
        self.doc = doc
        self.python = python

    @property
    def signature(self):
        return '({})'.format(', '.join(
            list(self.arrays) + ['{}='.format(p) for p in self.params]))


_kernels = {}


def kernel(name, arrays, params=(), n_outputs=1):
    """Declare rule kernel ``name`` taking the arrays ``arrays`` (names, in
    order) and the keyword parameters ``params``, returning ``n_outputs``
    arrays; decorates its Python implementation, whose docstring says what
    it computes (every backend's implementation must agree)."""
    def deco(fn):
        if name in _kernels:
            raise ValueError('rule kernel {!r} is declared twice'.format(name))
        _kernels[name] = RuleKernelSpec(
            name, tuple(arrays), tuple(params), n_outputs,
            inspect.cleandoc(fn.__doc__ or ''), fn)
        return fn
    return deco


def specs():
    """``{name: RuleKernelSpec}`` of every rule kernel the core declares."""
    _kernels_registry.declare_all()
    return dict(_kernels)


def signatures():
    """``{name: (n_arrays, param_names, n_outputs)}``, for
    :func:`backend_api.rules.parse`."""
    return {k: (len(s.arrays), s.params, s.n_outputs)
            for k, s in specs().items()}


@kernel('identity', ('a',))
def _identity(a):
    """a, unchanged."""
    return a


def check(rule, where):
    """Raise RuleError naming ``where`` unless every call of ``rule`` matches
    a declared rule kernel."""
    if rule.fused:
        return
    try:
        _format.parse(rule.text, rule.params, signatures())
    except _format.RuleError as e:
        raise _format.RuleError('{}: {}'.format(where, e)) from None


class _Evaluator:
    """A rule compiled for the core's graph: ``(node, indexes,
    grad_outputs) -> gradients of the inputs in indexes``; the caller
    gives zeros for outputs no gradient reached."""

    def __init__(self, rule, params):
        self.rule = rule
        self.params = params
        n_slots, self.instructions, self.grads = rule.program(params)
        self.n_slots = n_slots
        self._plans = {}

    def _plan(self, indexes):
        """The instructions the gradients of ``indexes`` need, in order."""
        needed = {self.grads[i] for i in indexes
                  if i < len(self.grads) and self.grads[i] >= 0}
        keep = []
        for ins in reversed(self.instructions):
            name, args, _, values, outs = ins
            if needed.intersection(outs):
                keep.append((_kernels[name].python, args, ins[2], values,
                             outs))
                needed.update(v for k, v in args + values
                              if k == _format.SLOT)
        keep.reverse()
        return tuple(keep)

    def __call__(self, node, indexes, grad_outputs):
        indexes = tuple(indexes)
        plan = self._plans.get(indexes)
        if plan is None:
            # An op's module imports the modules declaring its rule's
            # kernels; declaring every op is the fallback.
            if any(i[0] not in _kernels for i in self.instructions):
                _kernels_registry.declare_all()
            plan = self._plans[indexes] = self._plan(indexes)
        rule = self.rule
        xs = dict(zip(rule.retain_inputs, node.get_retained_inputs())) \
            if rule.retain_inputs else None
        ys = dict(zip(rule.retain_outputs, node.get_retained_outputs())) \
            if rule.retain_outputs else None
        params = None
        slots = [None] * self.n_slots

        def value(kind, v):
            nonlocal params
            if kind == _format.SLOT:
                return slots[v]
            if kind == _format.GY:
                return grad_outputs[v]
            if kind == _format.X:
                return xs[v]
            if kind == _format.Y:
                return ys[v]
            if kind == _format.PARAM:
                if params is None:
                    params = node.graph_kernel_params(node.inputs)
                return params[self.params[v]]
            if kind == _format.X_SHAPE:
                return node.inputs[v].shape
            if kind == _format.X_DTYPE:
                return node.inputs[v].dtype
            return v

        for fn, args, names, values, outs in plan:
            kw = {n: value(k, v) for n, (k, v) in zip(names, values)}
            out = fn(*[value(k, v) for k, v in args], **kw)
            if len(outs) == 1:
                slots[outs[0]] = out
            else:
                for s, o in zip(outs, out):
                    slots[s] = o
        grads = self.grads
        return tuple([slots[grads[i]] if i < len(grads) and grads[i] >= 0
                      else None for i in indexes])


def evaluator(rule, params):
    """The core graph's executor of ``rule`` for an op whose graph kernel
    has the parameters ``params``."""
    return _Evaluator(rule, params)
