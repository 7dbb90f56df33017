"""chainer_core.utils.type_check: expressions, expect, messages."""
import operator
import pickle

import numpy
import pytest

from chainer_core.utils import type_check as T


def _vars():
    return T.Variable(1, 'a'), T.Variable(2, 'b'), T.Variable(3, 'c')


class TestExpressions:

    @pytest.mark.parametrize('build,text,value', [
        (lambda a, b, c: a + b, 'a + b', 3),
        (lambda a, b, c: (a + b) * c, '(a + b) * c', 9),
        (lambda a, b, c: a * b + c, 'a * b + c', 5),
        (lambda a, b, c: a - (b - c), 'a - (b - c)', 2),
        (lambda a, b, c: (a - b) - c, 'a - b - c', -4),
        (lambda a, b, c: a / (b * c), 'a / (b * c)', 1 / 6),
        (lambda a, b, c: a ** (b ** c), 'a ** b ** c', 1),
        (lambda a, b, c: (b ** c) ** a, '(b ** c) ** a', 8),
        (lambda a, b, c: -(a + b), '-(a + b)', -3),
        (lambda a, b, c: -a * b, '-a * b', -2),
        (lambda a, b, c: 2 * a, '2 * a', 2),
        (lambda a, b, c: 10 - c, '10 - c', 7),
        (lambda a, b, c: c // b, 'c // b', 1),
        (lambda a, b, c: c % b, 'c % b', 1),
    ])
    def test_str_and_eval(self, build, text, value):
        expr = build(*_vars())
        assert str(expr) == text
        assert expr.eval() == pytest.approx(value)

    def test_attribute_item_and_call(self):
        x = T.Variable(numpy.zeros((2, 3, 4)), 'x')
        assert str(x.shape) == 'x.shape'
        assert str(x.shape[0]) == 'x.shape[0]'
        assert x.shape[0].eval() == 2
        assert str(x.shape[1:]) == 'x.shape[1:]'
        assert x.shape[1:].eval() == (3, 4)
        assert str(x.shape[::2]) == 'x.shape[::2]'
        assert str(x.sum(1)) == 'x.sum(1)'
        assert x.sum(1).eval().shape == (2, 4)

    def test_constant(self):
        c = T.Constant(numpy.dtype(numpy.float32))
        assert str(c) == 'float32'
        assert c.eval() == numpy.float32

    def test_comparison_is_an_expression(self):
        a, b, _ = _vars()
        cmp = a < b
        assert isinstance(cmp, T.Expr)
        assert str(cmp) == 'a < b'
        assert cmp.eval() is True

    def test_expression_is_not_a_bool(self):
        a, b, _ = _vars()
        with pytest.raises(RuntimeError, match='expect'):
            bool(a == b)
        with pytest.raises(RuntimeError):
            (a == b) and (b == a)


class TestExpect:

    @pytest.mark.parametrize('build', [
        lambda a, b: a == 1,
        lambda a, b: a != b,
        lambda a, b: a < b,
        lambda a, b: a <= 1,
        lambda a, b: b > a,
        lambda a, b: b >= 2,
    ])
    def test_passes(self, build):
        a, b, _ = _vars()
        T.expect(build(a, b))

    @pytest.mark.parametrize('build,expect,actual', [
        (lambda a, b: a == b, 'a == b', '1 != 2'),
        (lambda a, b: a != 1, 'a != 1', '1 == 1'),
        (lambda a, b: b < a, 'b < a', '2 >= 1'),
        (lambda a, b: b <= a, 'b <= a', '2 > 1'),
        (lambda a, b: a > b, 'a > b', '1 <= 2'),
        (lambda a, b: a >= b + 1, 'a >= b + 1', '1 < 3'),
    ])
    def test_fails_with_expect_and_actual(self, build, expect, actual):
        a, b, _ = _vars()
        with pytest.raises(T.InvalidType) as e:
            T.expect(build(a, b))
        assert e.value.expect == expect
        assert e.value.actual == actual
        assert str(e.value) == 'Expect: {}\nActual: {}'.format(
            expect, actual)

    def test_first_failure_is_reported(self):
        a, b, _ = _vars()
        with pytest.raises(T.InvalidType) as e:
            T.expect(a == 1, a == b, b == 3)
        assert e.value.expect == 'a == b'

    def test_plain_bools(self):
        T.expect(True, numpy.bool_(True))
        with pytest.raises(T.InvalidType):
            T.expect(False)

    def test_non_comparison_is_a_type_error(self):
        a, _, _ = _vars()
        with pytest.raises(TypeError):
            T.expect(a + 1)

    def test_dtype_names_in_messages(self):
        x = T.Variable(T.TypeInfo((2,), numpy.dtype(numpy.float32)), 'x')
        with pytest.raises(T.InvalidType) as e:
            T.expect(x.dtype == numpy.dtype(numpy.float64))
        assert e.value.expect == 'x.dtype == float64'
        assert e.value.actual == 'float32 != float64'

    def test_expect_dtype(self):
        x = T.Variable(T.TypeInfo((2,), numpy.dtype(numpy.int32)), 'x')
        with pytest.raises(T.InvalidType, match="x.dtype.kind == 'f'"):
            T.expect_dtype(x)
        T.expect_dtype(x, 'i')

    def test_invalid_type_is_a_type_error_and_pickles(self):
        e = T.InvalidType('a == b', '1 != 2')
        assert isinstance(e, TypeError)
        e2 = pickle.loads(pickle.dumps(e))
        assert str(e2) == str(e)
        assert e2.expect == 'a == b' and e2.actual == '1 != 2'

    def test_custom_message(self):
        e = T.InvalidType('x', 'y', msg='custom')
        assert str(e) == 'custom'


class TestGetTypesAndArgname:

    def test_types_describe_the_arrays(self):
        types = T.get_types((numpy.zeros((2, 3), numpy.float32),
                             numpy.zeros(4, numpy.int64)), 'in_types', False)
        assert str(types[0]) == 'in_types[0]'
        assert types[0].shape.eval() == (2, 3)
        assert types[0].ndim.eval() == 2
        assert types[0].size.eval() == 6
        assert types[1].dtype.eval() == numpy.int64
        assert str(types.size()) == 'in_types.size'
        assert types.size().eval() == 2

    def test_none_input(self):
        with pytest.raises(T.InvalidType):
            T.get_types((None,), 'in_types', False)
        types = T.get_types((None,), 'in_types', True)
        assert types[0] is None

    def test_argname(self):
        types = T.get_types((numpy.zeros(2), numpy.zeros(3)), 'in_types',
                            False)
        T.argname(types, ('x', 'W'))
        assert str(types[0].shape) == 'x.shape'
        with pytest.raises(T.InvalidType) as e:
            T.expect(types[0].shape == types[1].shape)
        assert e.value.expect == 'x.shape == W.shape'
        assert e.value.actual == '(2,) != (3,)'

    def test_argname_with_fewer_names(self):
        types = T.get_types((numpy.zeros(2), numpy.zeros(3)), 'in_types',
                            False)
        T.argname(types, ('x',))
        assert str(types[0]) == 'x'
        assert str(types[1]) == 'in_types[1]'

    def test_light_types_are_values(self):
        a = numpy.zeros((2, 3), numpy.float32)
        with T.light_mode:
            types = T.get_types((a,), 'in_types', False, light=True)
            T.argname(types, ('x',))
            assert types.size() == 1
            assert types[0].shape == (2, 3)
            assert types[0].dtype == numpy.float32
            assert T.eval(types[0].ndim) == 2
            assert T.make_variable(5, 'n') == 5
            T.expect(types[0].ndim == 2)


class TestHelpers:

    def test_eval(self):
        a, b, _ = _vars()
        assert T.eval(a + b) == 3
        assert T.eval(7) == 7
        assert T.eval((1, 2)) == (1, 2)

    def test_make_variable(self):
        v = T.make_variable(4, 'n')
        assert str(v) == 'n' and v.eval() == 4

    def test_same_types(self):
        assert T.same_types(numpy.zeros(1), numpy.ones(2))
        assert T.same_types()
        assert not T.same_types(numpy.zeros(1), [0.0])

    @pytest.mark.parametrize('shapes', [
        ((2, 3), (3,)),
        ((2, 1), (1, 4)),
        ((), (5,)),
        ((4, 1, 3), (2, 1), (3,)),
    ])
    def test_broadcastable_shapes_pass(self, shapes):
        T.expect_broadcast_shapes(*shapes)

    def test_unbroadcastable_shapes(self):
        x = T.Variable(numpy.zeros((2, 3)), 'x')
        y = T.Variable(numpy.zeros(4), 'y')
        with pytest.raises(T.InvalidType) as e:
            T.expect_broadcast_shapes(x.shape, y.shape)
        lines = str(e.value).splitlines()
        assert lines[0] == 'cannot broadcast inputs of the following shapes:'
        assert lines[1:] == ['x.shape = (2, 3)', 'y.shape = (4,)']

    def test_allow_none(self):
        T.expect_broadcast_shapes((2, 3), None, (3,), allow_none=True)
        with pytest.raises(T.InvalidType) as e:
            T.expect_broadcast_shapes((2, 3), None, (4,), allow_none=True)
        assert '(2, 3)' in str(e.value) and '(4,)' in str(e.value)

    def test_unknown_keyword(self):
        with pytest.raises(TypeError):
            T.expect_broadcast_shapes((1,), strict=True)


class TestChainerNames:
    """Names and printing checked against Chainer 7.8.1."""

    @pytest.mark.parametrize('build,text', [
        (lambda a, b, c: -a ** 2, '-a ** 2'),
        (lambda a, b, c: (-a) ** 2, '(-a) ** 2'),
        (lambda a, b, c: a & b | c, 'a & b | c'),
        (lambda a, b, c: a & (b | c), 'a & (b | c)'),
        (lambda a, b, c: ~a, '~a'),
        (lambda a, b, c: +a, '+a'),
        (lambda a, b, c: a << b, 'a << b'),
        (lambda a, b, c: a == b + 1, 'a == b + 1'),
        (lambda a, b, c: a[1, 2], 'a[1, 2]'),
        (lambda a, b, c: a[1:2, 3], 'a[1:2, 3]'),
        (lambda a, b, c: a.sum(b, 2), 'a.sum(b, 2)'),
    ])
    def test_printing(self, build, text):
        assert str(build(*_vars())) == text

    @pytest.mark.parametrize('build,priority,cls', [
        (lambda a: a + 1, 4, T.BinaryOperator),
        (lambda a: a * 1, 5, T.BinaryOperator),
        (lambda a: a ** 1, 7, T.BinaryOperator),
        (lambda a: a | 1, 0, T.BinaryOperator),
        (lambda a: -a, 6, T.UnaryOperator),
        (lambda a: a == 1, -1, T.BoolBinaryOperator),
        (lambda a: a.x, 8, T.GetAttr),
        (lambda a: a(1), 8, T.Call),
        (lambda a: a, 8, T.Variable),
    ])
    def test_priorities_and_classes(self, build, priority, cls):
        e = build(T.Variable(1, 'a'))
        assert isinstance(e, cls)
        assert e.priority == priority

    def test_class_hierarchy(self):
        for cls in (T.Variable, T.Constant, T.GetAttr, T.GetItem, T.Call):
            assert issubclass(cls, T.Atom)
        assert issubclass(T.BoolBinaryOperator, T.BinaryOperator)
        assert issubclass(T.BoolBinaryOperator, T.Testable)

    def test_constructors_take_chainer_arguments(self):
        x = T.Variable(3, 'x')
        b = T.BinaryOperator(4, x, 2, '+', operator.add)
        assert str(b) == 'x + 2' and b.eval() == 5
        u = T.UnaryOperator(6, x, '-', operator.neg)
        assert str(u) == '-x' and u.eval() == -3
        c = T.Call(T.Constant(max), (x, 7))
        assert c.eval() == 7
        cmp = T.BoolBinaryOperator(x, 2, '==', '!=', operator.eq)
        assert str(cmp) == 'x == 2' and cmp.eval() is False
        with pytest.raises(T.InvalidType) as e:
            cmp.expect()
        assert str(e.value) == 'Expect: x == 2\nActual: 3 != 2'

    def test_prod(self):
        x = T.Variable(3, 'x')
        p = T.prod([x, 2])
        assert str(p) == 'prod([x, 2])'
        assert p.eval() == 6
        assert T.eval(T.prod([])) == 1
        with T.light_mode:
            assert T.prod([3, 2]) == 6

    def test_light_mode(self):
        assert not T.in_light_mode()
        with T.light_mode:
            assert T.in_light_mode()
            with T.light_mode:
                assert T.in_light_mode()
            assert T.in_light_mode()
        assert not T.in_light_mode()
        assert isinstance(T.light_mode, T.LightMode)

    def test_get_light_types(self):
        a = numpy.zeros((2, 3), numpy.float32)
        types = T.get_light_types((a,))
        assert isinstance(types, T.LightTypeInfoTuple)
        assert types.size() == 1
        assert types[0] is a
        types = T.get_light_types((a,), shapes=((5, 6),))
        assert types[0].shape == (5, 6)
        assert types[0].dtype == numpy.float32

    def test_get_types_with_shapes(self):
        a = numpy.zeros((2, 3), numpy.float32)
        types = T.get_types((a,), 'in_types', False, shapes=((5, 6),))
        assert types[0].shape.eval() == (5, 6)
        with pytest.raises(ValueError, match='shapes'):
            T.get_types((a,), 'in_types', False, shapes=())

    def test_function_check_context_names_the_function(self):
        class Op:
            label = 'MyOp'

        with T.get_function_check_context(Op()):
            with pytest.raises(RuntimeError, match='MyOp'):
                bool(T.Variable(1, 'a') == 1)
        with pytest.raises(RuntimeError) as e:
            bool(T.Variable(1, 'a') == 1)
        assert 'MyOp' not in str(e.value)
