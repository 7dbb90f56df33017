"""fix_random and generate_seed."""
import random
import unittest

import numpy
import pytest

from chainer_core import testing

from ._util import module_from


def _first_draws(seed):
    return numpy.random.RandomState(seed).rand(), random.Random(seed).random()


def test_method_runs_with_fixed_seeds_and_restores_state():
    class Case(unittest.TestCase):
        @testing.fix_random()
        def test_a(self):
            Case.drawn = numpy.random.rand(), random.random()

    numpy.random.seed(7)
    random.seed(7)
    before = numpy.random.get_state()[1].copy(), random.getstate()
    Case('test_a').run()
    assert Case.drawn == _first_draws(100)
    numpy.testing.assert_array_equal(numpy.random.get_state()[1], before[0])
    assert random.getstate() == before[1]


def test_seed_from_the_environment(monkeypatch):
    monkeypatch.setenv('CHAINER_TEST_RANDOM_SEED', '3')

    @testing.fix_random()
    def draw():
        return numpy.random.rand()

    assert draw() == _first_draws(3)[0]
    monkeypatch.setenv('CHAINER_TEST_RANDOM_NONDETERMINISTIC', '1')
    assert draw() != draw()


def test_class_fixes_from_set_up_to_tear_down():
    seen = []

    @testing.fix_random()
    class Case(unittest.TestCase):
        def setUp(self):
            seen.append(('setUp', numpy.random.rand()))

        def tearDown(self):
            seen.append(('tearDown', numpy.random.rand()))

        def test_a(self):
            seen.append(('test', numpy.random.rand()))

        def test_b(self):
            seen.append(('test', numpy.random.rand()))

    numpy.random.seed(1)
    state = numpy.random.get_state()[1].copy()
    result = unittest.TestResult()
    unittest.defaultTestLoader.loadTestsFromTestCase(Case).run(result)
    assert result.wasSuccessful()
    expected = numpy.random.RandomState(100).rand(3)
    assert seen == 2 * [('setUp', expected[0]), ('test', expected[1]),
                        ('tearDown', expected[2])]
    numpy.testing.assert_array_equal(numpy.random.get_state()[1], state)


def test_failing_set_up_restores_state():
    @testing.fix_random()
    class Case(unittest.TestCase):
        def setUp(self):
            raise RuntimeError('set-up fails')

        def test_a(self):
            pass

    numpy.random.seed(1)
    state = numpy.random.get_state()[1].copy()
    Case('test_a').run()
    numpy.testing.assert_array_equal(numpy.random.get_state()[1], state)


def test_pytest_style_class_and_method_names():
    seen = []

    @testing.fix_random()
    class Plain:
        def test_a(self):
            seen.append(numpy.random.rand())

    @testing.fix_random(setup_method='prepare', teardown_method='finish')
    class Named:
        def prepare(self):
            seen.append(numpy.random.rand())

        def finish(self):
            pass

    for _ in range(2):
        case = Plain()
        case.setup_method(case.test_a)
        case.test_a()
        case.teardown_method(case.test_a)
    case = Named()
    case.prepare()
    case.finish()
    first = _first_draws(100)[0]
    assert seen == [first, first, first]


def test_wraps_generated_classes():
    module = module_from('''
        import unittest
        import numpy
        from chainer_core import testing

        @testing.fix_random()
        @testing.parameterize({'n': 1}, {'n': 2})
        class TestDraw(unittest.TestCase):
            def setUp(self):
                self.x = numpy.random.rand(self.n)

            def test_it(self):
                pass
    ''')
    classes = [v for k, v in vars(module).items()
               if k.startswith('TestDraw_')]
    assert len(classes) == 2
    for cls in classes:
        case = cls('test_it')
        case.setUp()
        case.tearDown()
        numpy.testing.assert_array_equal(
            case.x, numpy.random.RandomState(100).rand(cls.n))


def test_generate_seed():
    with pytest.raises(RuntimeError, match='not fixed'):
        testing.generate_seed()

    @testing.fix_random()
    def seeds():
        return testing.generate_seed(), testing.generate_seed()

    first = seeds()
    assert first == seeds() and first[0] != first[1]
    assert all(0 <= s < 2 ** 32 for s in first)
