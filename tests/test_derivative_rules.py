"""Derivative rules: their format (backend_api.rules), the core's
declarations, and the core's graph executing them."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F
from backend_api import rules as fmt
from chainer_core import backend, function_node, gradient_check
from chainer_core._runtime import graphs, rules

SIGNATURES = {'mul': (2, (), 1), 'sum_to': (1, ('shape',), 1),
              'neg': (1, (), 1), 'split': (1, (), 2),
              'sum': (1, ('axis', 'keepdims'), 1)}


class TestParse:

    def test_statements_and_retained_arrays(self):
        rule = fmt.parse('''
            t = mul(gy0, x1)
            gx0 = sum_to(t, shape=x0.shape); gx1 = neg(y0)''', (),
                         SIGNATURES)
        assert [targets for targets, _ in rule.statements] == [
            ('t',), ('gx0',), ('gx1',)]
        assert rule.retain_inputs == (1,)
        assert rule.retain_outputs == (0,)
        assert rule.kernels == ('mul', 'sum_to', 'neg')
        assert not rule.fused

    def test_call_spanning_lines(self):
        rule = fmt.parse('gx0 = sum(mul(gy0, x0),\n axis=axis,\n '
                         'keepdims=True)', ('axis',), SIGNATURES)
        (_, call), = rule.statements
        assert call.kernel == 'sum'
        assert call.params['axis'] == fmt.Ref(fmt.PARAM, 'axis')
        assert call.params['keepdims'] == fmt.Ref(fmt.CONST, True)

    def test_fused(self):
        rule = fmt.parse('fused', ('a',))
        assert rule.fused and rule.statements == () and rule.params == ('a',)

    @pytest.mark.parametrize('text,message', [
        ('gx0 = mul(gy0, x1', 'unbalanced'),
        ('x0 = neg(gy0)', 'cannot be assigned'),
        ('gx0 = neg(z)', "'z' is neither"),
        ('gx0 = nope(gy0)', "unknown kernel 'nope'"),
        ('gx0 = mul(gy0)', 'takes 2 arrays, got 1'),
        ('gx0 = sum_to(gy0)', 'takes the parameters (shape)'),
        ('gx0 = sum_to(gy0, shape=x0.shape, extra=1)', 'takes the param'),
        ('gx0 = sum_to(shape=x0.shape, gy0)', 'arrays come before'),
        ('gx0, gx1 = neg(gy0)', 'returns 1 arrays, assigned to 2'),
        ('gx0 = neg(split(gy0))', 'returns several arrays'),
        ('gx0 = neg(x0.shape)', 'takes arrays positionally'),
        ('gx0 = sum_to(gy0, shape=neg(gy0))', 'must be a value'),
        ('gx0 = neg(gy0)\ngx1 = sum_to(gy0, shape=y0.shape)',
         'only inputs have'),
        ('gx0 neg(gy0)', 'expected "targets = expression"'),
        ('gx0 = neg(gy0) $', 'cannot read'),
        ('', 'has no statement'),
    ])
    def test_errors_name_the_statement(self, text, message):
        with pytest.raises(fmt.RuleError) as e:
            fmt.parse(text, (), SIGNATURES)
        assert message in str(e.value)

    def test_program_is_flat_and_in_order(self):
        rule = fmt.parse('gx0 = sum_to(mul(gy0, x1), shape=x0.shape)\n'
                         'gx2 = neg(gy0)', (), SIGNATURES)
        n_slots, instructions, grads = rule.program()
        assert [i[0] for i in instructions] == ['mul', 'sum_to', 'neg']
        mul, sum_to, neg = instructions
        assert mul[1] == ((fmt.GY, 0), (fmt.X, 1))
        assert sum_to[1] == ((fmt.SLOT, mul[4][0]),)
        assert sum_to[2:4] == (('shape',), ((fmt.X_SHAPE, 0),))
        # No rule for input 1: it gets no gradient.
        assert grads == (sum_to[4][0], -1, neg[4][0])
        assert n_slots == 3

    def test_program_param_indexes(self):
        rule = fmt.parse('gx0 = sum(gy0, axis=axis, keepdims=k)',
                         ('k', 'axis'), SIGNATURES)
        (_, _, names, values, _), = rule.program()[1]
        assert dict(zip(names, values)) == {
            'axis': (fmt.PARAM, 1), 'keepdims': (fmt.PARAM, 0)}


class TestDeclarations:

    def test_every_graph_kernel_has_a_rule_on_declared_kernels(self):
        declared = backend.derivative_rules()
        assert set(declared) == {s.name for s in graphs.specs()}
        for name, rule in declared.items():
            rules.check(rule, name)

    def test_rule_kernels_are_documented(self):
        for name, (arrays, params, n_out, doc) in \
                backend.rule_kernels().items():
            assert doc, name
            assert n_out >= 1

    def test_a_class_with_a_rule_has_no_backward_of_its_own(self):
        declared = backend.derivative_rules()
        ops = [c for c in _subclasses(function_node.FunctionNode)
               if c.__dict__.get('graph_kernel') is not None]
        assert {c.graph_kernel for c in ops} == set(declared)
        for cls in ops:
            rule = graphs.get_spec(cls.graph_kernel).derivative
            if not rule.fused:
                assert cls.backward.__doc__.startswith(
                    'The derivative rule'), cls

    def test_defining_backward_as_well_is_refused(self):
        with pytest.raises(TypeError, match='must not define backward'):
            class Twice(function_node.FunctionNode):
                graph_kernel = 'relu'

                def backward(self, indexes, grad_outputs):
                    return grad_outputs

    def test_a_bad_rule_is_refused_at_declaration(self):
        with pytest.raises(fmt.RuleError, match="graph kernel 'bad_rule'"):
            graphs.declare('bad_rule', (), derivative='gx0 = neg(')
        assert 'bad_rule' not in graphs._specs


def _subclasses(cls):
    for sub in cls.__subclasses__():
        yield sub
        yield from _subclasses(sub)


class TestCoreGraphExecutesRules:

    def test_retained_arrays_come_from_the_rule(self):
        x = chainer.Variable(numpy.arange(1, 7, dtype='f').reshape(2, 3))
        y = F.relu(x)
        assert y.creator._output_indexes_to_retain == (0,)
        assert y.creator._input_indexes_to_retain is None
        z = x * x
        assert z.creator._input_indexes_to_retain == (0, 1)

    def test_only_the_needed_statements_run(self):
        spec = graphs.get_spec('mul')
        ev = rules.evaluator(spec.derivative, spec.params)
        assert [i[0] for i in ev._plan((1,))] == [
            rules._kernels['mul'].python, rules._kernels['sum_to'].python]
        assert len(ev._plan((0, 1))) == 4

    def test_gradient_of_one_input_only(self):
        x = chainer.Variable(numpy.full((2, 3), 2, 'f'))
        c = chainer.Variable(numpy.full((3,), 5, 'f'), requires_grad=False)
        y = F.sum(x * c)
        y.backward()
        numpy.testing.assert_array_equal(x.grad, numpy.full((2, 3), 5, 'f'))
        assert c.grad is None

    @pytest.mark.parametrize('f', [
        lambda a: F.softmax(a, axis=0),
        lambda a: F.log_softmax(a),
        lambda a: F.sum(a, axis=(0, 2), keepdims=False),
        lambda a: F.transpose(a, (2, 0, 1)),
        lambda a: F.matmul(a, a, transa=True),
        lambda a: 3.0 / (a * a + 1) - a / (a + 4),
    ])
    def test_first_and_second_order(self, f):
        rng = numpy.random.RandomState(0)
        x = rng.uniform(0.5, 1.5, (3, 3, 3))
        y = f(x)
        gradient_check.check_backward(f, x, rng.randn(*y.shape),
                                      dtype=numpy.float64)
        gradient_check.check_double_backward(
            f, x, rng.randn(*y.shape), rng.randn(*x.shape),
            dtype=numpy.float64)


def _rule_modules():
    backend.derivative_rules()  # declares every op
    ops = [c for c in _subclasses(function_node.FunctionNode)
           if c.__dict__.get('graph_kernel') is not None and
           not graphs.get_spec(c.graph_kernel).derivative.fused]
    return sorted({c.__module__ for c in ops})


@pytest.mark.parametrize('module', _rule_modules())
def test_an_op_module_declares_the_kernels_of_its_rules(module):
    # A first backward must not have to import every op to find them.
    import subprocess
    import sys
    code = (
        'import importlib\n'
        'from chainer_core._runtime import graphs, rules\n'
        'from chainer_core import function_node\n'
        'm = importlib.import_module({!r})\n'
        'missing = set()\n'
        'for c in vars(m).values():\n'
        '    name = getattr(c, "graph_kernel", None)\n'
        '    if isinstance(c, type) and name and name in graphs._specs:\n'
        '        rule = graphs._specs[name].derivative\n'
        '        missing |= set(rule.kernels) - set(rules._kernels)\n'
        'print(sorted(missing))\n').format(module)
    out = subprocess.run([sys.executable, '-c', code], capture_output=True,
                         text=True, check=True).stdout
    assert out.strip() == '[]', (module, out)


class _TwoOutputs(function_node.FunctionNode):
    """(2 x, 3 x): an op of two outputs whose rule reads both gradients."""

    graph_kernel = graphs.declare(
        'test_two_outputs', (), '(2 x, 3 x).',
        derivative='gx0 = add(mul_constant(gy0, value=2.0), '
                   'mul_constant(gy1, value=3.0))')

    def forward(self, inputs):
        x, = inputs
        return x * x.dtype.type(2), x * x.dtype.type(3)


def test_an_output_no_gradient_reached_counts_as_zeros():
    x = chainer.Variable(numpy.arange(3, dtype='f'))
    y0, y1 = _TwoOutputs().apply((x,))
    F.sum(y0).backward()
    numpy.testing.assert_array_equal(x.grad, numpy.full(3, 2, 'f'))
    x.cleargrad()
    y0, y1 = _TwoOutputs().apply((x,))
    F.sum(y1).backward()
    numpy.testing.assert_array_equal(x.grad, numpy.full(3, 3, 'f'))
