"""fix_random: run tests with a fixed NumPy random seed."""
import functools
import inspect

import numpy


def _fixed(f, seed):
    @functools.wraps(f)
    def wrapper(*args, **kwargs):
        state = numpy.random.get_state()
        numpy.random.seed(seed)
        try:
            return f(*args, **kwargs)
        finally:
            numpy.random.set_state(state)
    return wrapper


def fix_random(seed=0):
    """Decorator of a test function, or of a class (its ``setUp``,
    ``setup_method`` and ``test*`` methods): each runs with NumPy's global
    generator seeded with ``seed``, and the generator's state is restored
    afterwards."""
    def decorator(target):
        if inspect.isclass(target):
            for name, member in list(vars(target).items()):
                if inspect.isfunction(member) and (
                        name.startswith('test') or
                        name in ('setUp', 'setup_method')):
                    setattr(target, name, _fixed(member, seed))
            return target
        return _fixed(target, seed)
    return decorator
