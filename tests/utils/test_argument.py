"""chainer_core.utils.argument, checked against Chainer 7.8.1."""
import pytest

from chainer_core.utils import argument


def _caller(**kwargs):
    return argument.parse_kwargs(kwargs, ('a', 0), ('b', 2))


def _strict(**kwargs):
    argument.assert_kwargs_empty(kwargs)


class TestParseKwargs:

    def test_values_and_defaults(self):
        kwargs = {'a': 1}
        assert argument.parse_kwargs(kwargs, ('a', 0), ('b', 2)) == (1, 2)
        assert kwargs == {}

    def test_no_names(self):
        assert argument.parse_kwargs({}) == ()

    def test_unknown_keyword_names_the_caller(self):
        with pytest.raises(TypeError) as e:
            _caller(x=1)
        assert str(e.value) == "_caller() got unexpected keyword " \
            "argument(s) 'x'"

    def test_removed_keyword_gives_its_message(self):
        with pytest.raises(ValueError, match='train is gone'):
            argument.parse_kwargs({'train': 1}, ('a', 0),
                                  train='train is gone')


class TestChecks:

    def test_check_unexpected_kwargs(self):
        with pytest.raises(ValueError, match='^train is gone$'):
            argument.check_unexpected_kwargs({'train': 1},
                                             train='train is gone')
        argument.check_unexpected_kwargs({'foo': 1}, train='train is gone')

    def test_assert_kwargs_empty(self):
        argument.assert_kwargs_empty({})
        with pytest.raises(TypeError) as e:
            _strict(x=1, y=2)
        assert "'x', 'y'" in str(e.value)
        assert str(e.value).startswith('_strict()')
