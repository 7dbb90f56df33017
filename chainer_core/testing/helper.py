"""Skipping on installed distributions, warning assertions and mock
patching for tests."""
import contextlib
import importlib
import importlib.metadata
import unittest
import unittest.mock
import warnings

from packaging.requirements import InvalidRequirement, Requirement


def _satisfied(requirement):
    """Whether the distribution named by ``requirement`` (a PEP 508 string
    such as ``'numpy>=1.10'``) is installed in a matching version."""
    try:
        req = Requirement(requirement)
    except InvalidRequirement as e:
        raise ValueError('invalid requirement {!r}: {}'.format(
            requirement, e)) from None
    try:
        version = importlib.metadata.version(req.name)
    except importlib.metadata.PackageNotFoundError:
        return False
    return req.specifier.contains(version, prereleases=True)


def requirements_satisfied(*requirements):
    """Whether every one of ``requirements`` is satisfied here."""
    return all(_satisfied(r) for r in requirements)


def with_requires(*requirements):
    """Decorator of a test method or class: run it only where every
    requirement (``'numpy>=1.10'``, ``'scipy'``...) is satisfied, and skip
    it otherwise."""
    return unittest.skipUnless(requirements_satisfied(*requirements),
                               'requires: {}'.format(', '.join(requirements)))


def without_requires(*requirements):
    """Decorator of a test method or class: run it only where some
    requirement is not satisfied, and skip it otherwise."""
    return unittest.skipIf(
        requirements_satisfied(*requirements),
        'requires the absence of: {}'.format(', '.join(requirements)))


@contextlib.contextmanager
def assert_warns(expected):
    """Context manager asserting that its body issues a warning of the
    category ``expected`` (or a subclass), whatever the warning filters
    say outside it."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always')
        yield caught
    if not any(issubclass(w.category, expected) for w in caught):
        raise AssertionError('{} not triggered (issued: {})'.format(
            expected.__name__,
            ', '.join(w.category.__name__ for w in caught) or 'nothing'))


def _import_object(fullname):
    """The object at the dotted path ``fullname``: the longest importable
    module prefix, then attributes."""
    parts = fullname.split('.')
    for i in range(len(parts) - 1, 0, -1):
        try:
            obj = importlib.import_module('.'.join(parts[:i]))
        except ImportError:
            continue
        for attr in parts[i:]:
            obj = getattr(obj, attr)
        return obj
    raise ImportError('cannot import {!r}'.format(fullname))


def patch(target, *args, **kwargs):
    """:func:`unittest.mock.patch` whose mock wraps the patched object by
    default, so calls still reach it and are recorded.

    Args:
        target (str): the dotted name of the object to patch.
        wraps: what the mock wraps (default: the object at ``target``;
            unbound methods are not supported).
        *args, **kwargs: passed to :func:`unittest.mock.patch`.
    """
    if 'wraps' not in kwargs:
        kwargs['wraps'] = _import_object(target)
    return unittest.mock.patch(target, *args, **kwargs)
