"""parameterize, product and product_dict: one test class per parameter
set."""
import functools
import inspect
import itertools
import sys
import unittest


def _short(value, limit=30):
    text = getattr(value, '__name__', None) or repr(value)
    text = ''.join(c if c.isalnum() else '_' for c in text)
    return text[:limit]


def _case_name(base, index, param):
    parts = ['{}_{}'.format(k, _short(v)) for k, v in sorted(param.items())]
    return '{}_param_{}_{}'.format(base.__name__, index,
                                   '_'.join(parts)[:80])


class _Bundle:
    """What a parameterizing decorator leaves under the decorated name:
    the generated classes, for an outer decorator to expand further. Not a
    class, so test runners do not collect it."""

    def __init__(self, module, classes):
        self.module = module
        self.classes = classes


def expand(target, make_classes):
    """Replace ``target`` (a class, or the bundle of an inner decorator)
    by the classes ``make_classes(base)`` generates from each of its
    classes, registered in the module; returns their bundle."""
    if isinstance(target, _Bundle):
        module, bases = target.module, target.classes
        for cls in bases:
            if getattr(module, cls.__name__, None) is cls:
                delattr(module, cls.__name__)
    else:
        module, bases = sys.modules[target.__module__], [target]
    generated = []
    for base in bases:
        for cls in make_classes(base):
            cls.__module__ = module.__name__
            cls.__qualname__ = cls.__name__
            setattr(module, cls.__name__, cls)
            generated.append(cls)
    return _Bundle(module, generated)


def _wrap_test_method(base, method, param):
    @functools.wraps(method)
    def wrapper(*args, **kwargs):
        try:
            return method(*args, **kwargs)
        except unittest.SkipTest:
            raise
        except AssertionError as e:
            lines = ['Parameterized test failed.', '',
                     'Base test method: {}.{}'.format(base.__name__,
                                                      method.__name__),
                     'Test parameters:']
            lines += ['  {}: {}'.format(k, v) for k, v in sorted(
                param.items())]
            raise AssertionError('\n'.join(lines) + '\n\n' + str(e)) from e
    return wrapper


def _make_case(base, index, param):
    members = {}
    for k, v in param.items():
        # A plain function as a parameter stays a plain callable, not a
        # method of the generated class.
        members[k] = staticmethod(v) if inspect.isfunction(v) else v

    def __str__(self):
        return '{}  parameter: {}'.format(base.__str__(self), param)

    if issubclass(base, unittest.TestCase):
        members['__str__'] = __str__
    cls = type(_case_name(base, index, param), (base,), members)
    for name, method in inspect.getmembers(cls, inspect.isfunction):
        if name.startswith('test'):
            setattr(cls, name, _wrap_test_method(base, method, param))
    return cls


def parameterize(*params):
    """Class decorator: one subclass per parameter dict, with the
    parameters as class attributes, added to the class's module (where
    pytest and unittest collect them); the decorated name is bound to an
    object that is not a class, so the unparameterized class is not
    collected.

    A failing test method reports the parameters of its class. Works for
    ``unittest.TestCase`` classes and plain pytest classes alike, and can
    be stacked (each layer multiplies the classes).

    Args:
        params (dicts): the parameter sets (often from :func:`product`).
    """
    if len(params) == 1 and isinstance(params[0], (list, tuple)) and \
            all(isinstance(p, dict) for p in params[0]):
        params = tuple(params[0])
    for p in params:
        if not isinstance(p, dict):
            raise TypeError('parameterize: each parameter set must be a '
                            'dict, got {}'.format(type(p).__name__))

    def decorator(target):
        return expand(target, lambda base: [
            _make_case(base, i, param) for i, param in enumerate(params)])

    return decorator


def _values_to_dicts(names, values):
    if isinstance(names, str):
        names = names.split(',')
    names = [n.strip() for n in names]
    if not isinstance(values, (list, tuple)):
        raise TypeError('product: the values of {!r} must be a list or '
                        'tuple'.format(','.join(names)))
    if len(names) == 1:
        return [{names[0]: v} for v in values]
    dicts = []
    for v in values:
        if not isinstance(v, (list, tuple)) or len(v) != len(names):
            raise ValueError('product: each value of {!r} must be a tuple of '
                             '{} items, got {!r}'.format(','.join(names),
                                                         len(names), v))
        dicts.append(dict(zip(names, v)))
    return dicts


def product_dict(*parameters):
    """All merges of one dict from each list: ``product_dict([{'a': 1},
    {'a': 2}], [{'b': 3}])`` is ``[{'a': 1, 'b': 3}, {'a': 2, 'b': 3}]``."""
    return [{k: v for d in dicts for k, v in d.items()}
            for dicts in itertools.product(*parameters)]


def product(parameter):
    """The Cartesian product of parameter values.

    Args:
        parameter: a dict of name to list of values (a name may be
            ``'a,b'`` with tuples of values, varied together), or a list of
            lists of dicts (merged as by :func:`product_dict`).

    Returns:
        list of dicts.
    """
    if isinstance(parameter, dict):
        return product_dict(*[_values_to_dicts(names, values)
                              for names, values in sorted(parameter.items())])
    if isinstance(parameter, list):
        if not all(isinstance(p, list) and
                   all(isinstance(d, dict) for d in p) for p in parameter):
            raise TypeError('product: a list parameter must be a list of '
                            'lists of dicts')
        return product_dict(*parameter)
    raise TypeError('product: parameter must be a dict or a list, got {}'
                    .format(type(parameter).__name__))


def from_pytest_parameterize(names, values):
    """Parameter sets from the arguments of ``pytest.mark.parametrize``:
    ``from_pytest_parameterize('a,b', [(1, 2), (3, 4)])`` is
    ``[{'a': 1, 'b': 2}, {'a': 3, 'b': 4}]``.

    Args:
        names: comma-separated names (or a list of names).
        values (list): one value per set for a single name, otherwise one
            tuple of values per set.
    """
    return _values_to_dicts(names, values)


def parameterize_pytest(names, values):
    """:func:`parameterize` spelled as ``pytest.mark.parametrize``; unlike
    that mark it works on ``unittest.TestCase`` classes and stacks with
    the other class decorators of this module."""
    return parameterize(*from_pytest_parameterize(names, values))
