"""parameterize, product and product_dict."""
import unittest

import pytest

from chainer_core import testing

from ._util import module_from, run_pytest


def test_product_of_a_dict():
    assert testing.product({'a': [1, 2], 'b': ['x']}) == [
        {'a': 1, 'b': 'x'}, {'a': 2, 'b': 'x'}]
    assert testing.product({'a,b': [(1, 2), (3, 4)], 'c': [0]}) == [
        {'a': 1, 'b': 2, 'c': 0}, {'a': 3, 'b': 4, 'c': 0}]
    assert testing.product({}) == [{}]
    with pytest.raises(ValueError, match='a,b'):
        testing.product({'a,b': [(1, 2, 3)]})
    with pytest.raises(TypeError):
        testing.product({'a': 1})


def test_product_of_lists_and_product_dict():
    left = [{'a': 1}, {'a': 2}]
    right = [{'b': 3}, {'b': 4, 'c': 5}]
    expected = [{'a': 1, 'b': 3}, {'a': 1, 'b': 4, 'c': 5},
                {'a': 2, 'b': 3}, {'a': 2, 'b': 4, 'c': 5}]
    assert testing.product([left, right]) == expected
    assert testing.product_dict(left, right) == expected
    with pytest.raises(TypeError, match='list of lists of dicts'):
        testing.product([left, 3])
    with pytest.raises(TypeError, match='dict or a list'):
        testing.product(3)


def test_parameterize_makes_one_class_per_set():
    module = module_from('''
        import unittest
        from chainer_core import testing

        def helper(x):
            return x * 10

        @testing.parameterize({'a': 1, 'f': helper}, {'a': 2, 'f': abs})
        class TestThing(unittest.TestCase):
            def test_value(self):
                assert self.f(self.a) in (10, 2)
    ''')
    assert not isinstance(module.TestThing, type)
    classes = sorted(n for n in vars(module) if n.startswith('TestThing_'))
    assert len(classes) == 2 and classes[0].startswith('TestThing_param_0')
    cls = getattr(module, classes[0])
    assert cls.a == 1 and cls.f(3) == 30  # a function stays a function
    result = unittest.TestResult()
    for name in classes:
        getattr(module, name)('test_value').run(result)
    assert result.wasSuccessful() and result.testsRun == 2


def test_failures_name_the_parameters():
    module = module_from('''
        from chainer_core import testing

        @testing.parameterize({'a': 1}, {'a': 2})
        class TestPlain:
            def test_one(self):
                assert self.a == 1, 'a is not one'
    ''')
    cls0 = next(v for k, v in vars(module).items()
                if k.startswith('TestPlain_param_0'))
    cls1 = next(v for k, v in vars(module).items()
                if k.startswith('TestPlain_param_1'))
    cls0().test_one()
    with pytest.raises(AssertionError) as info:
        cls1().test_one()
    message = str(info.value)
    assert 'Parameterized test failed' in message
    assert 'TestPlain.test_one' in message and 'a: 2' in message
    assert 'a is not one' in message


def test_stacked_decorators_multiply():
    module = module_from('''
        from chainer_core import testing

        @testing.parameterize({'a': 1}, {'a': 2})
        @testing.parameterize({'b': 'x'}, {'b': 'y'}, {'b': 'z'})
        class TestStacked:
            def test_it(self):
                pass
    ''')
    classes = [v for k, v in vars(module).items()
               if k.startswith('TestStacked') and isinstance(v, type)]
    assert sorted((c.a, c.b) for c in classes) == [
        (a, b) for a in (1, 2) for b in 'xyz']


def test_bad_parameters():
    with pytest.raises(TypeError, match='dict'):
        testing.parameterize(1)


def test_pytest_collects_the_generated_classes(tmp_path):
    code, out = run_pytest(tmp_path, '''
        import unittest
        from chainer_core import testing

        @testing.parameterize(*testing.product({'n': [1, 2, 3]}))
        class TestUnit(unittest.TestCase):
            def test_small(self):
                self.assertLess(self.n, 3)

        @testing.parameterize({'n': 5})
        class TestPytestStyle:
            def test_five(self):
                assert self.n == 5
    ''')
    assert code == 1
    assert '1 failed, 3 passed' in out
    assert 'n: 3' in out
    assert 'TestUnit_param_2_n_3::test_small' in out


def test_from_pytest_parameterize_and_parameterize_pytest():
    assert testing.from_pytest_parameterize('a', [1, 2]) == [{'a': 1},
                                                             {'a': 2}]
    assert testing.from_pytest_parameterize('a, b', [(1, 2), (3, 4)]) == \
        testing.from_pytest_parameterize(['a', 'b'], [(1, 2), (3, 4)]) == \
        [{'a': 1, 'b': 2}, {'a': 3, 'b': 4}]
    module = module_from('''
        import unittest
        from chainer_core import testing

        @testing.parameterize_pytest('x,y', [(1, 2), (3, 4)])
        class TestSum(unittest.TestCase):
            def test_it(self):
                assert self.x + 1 == self.y
    ''')
    names = sorted(n for n in vars(module) if n.startswith('TestSum_'))
    assert len(names) == 2
    result = unittest.TestResult()
    for name in names:
        getattr(module, name)('test_it').run(result)
    assert result.wasSuccessful() and result.testsRun == 2
