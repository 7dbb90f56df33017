"""FunctionTestCase and LinkTestCase: forward, backward and double
backward checks of a function or a link against a NumPy reference.

Subclass, implement the hooks (``generate_inputs``, ``forward``,
``forward_expected``; for links also ``generate_params`` and
``create_link``) and the inherited tests ``test_forward``,
``test_backward`` (and ``test_double_backward`` for functions) run on
``backend_config`` (``@numpy`` when not injected with
:func:`~chainer_core.testing.inject_backend_tests`). Injected with
``params=None``, they run on the devices the conformance kit and the
``chainer_device`` fixture use: one per available backend, or those of
``CHAINER_TEST_DEVICES`` (:mod:`chainer_core.testing.backend`).
"""
import unittest

import numpy

from chainer_core import gradient_check
from chainer_core.testing.array import _to_numpy, assert_allclose
from chainer_core.testing.backend import BackendConfig
from chainer_core.variable import Variable


class FunctionTestError(AssertionError):
    """A check of :class:`FunctionTestCase` failed."""


class LinkTestError(AssertionError):
    """A check of :class:`LinkTestCase` failed."""


_DODGE_TRIES = 10


def _is_float(a):
    return numpy.dtype(a.dtype).kind == 'f'


def _noncontiguous(array, xp):
    """A copy of ``array`` whose memory is not contiguous (every other
    element of a twice-as-long last axis)."""
    if array.ndim == 0 or array.size == 0:
        return array
    shape = array.shape[:-1] + (array.shape[-1] * 2,)
    base = xp.empty(shape, dtype=array.dtype)
    out = base[..., ::2]
    out[...] = array
    return out


class _CheckMixin:
    backend_config = None
    contiguous = None
    check_forward_options = None
    check_backward_options = None
    skip_forward_test = False
    skip_backward_test = False
    dodge_nondifferentiable = False
    numerical_grad_dtype = numpy.float64
    _error = AssertionError

    def before_test(self, test_name):
        """Called first in each test (e.g. to skip some parameters)."""

    def _config(self, config=None):
        if config is None:
            config = self.backend_config
        if config is None:
            config = BackendConfig({'device': '@numpy'})
        elif isinstance(config, dict):
            config = BackendConfig(config)
        reason = config.skip_reason()
        if reason is not None:
            raise unittest.SkipTest(reason)
        return config

    def _fail(self, message):
        raise self._error('{}: {}'.format(type(self).__name__, message))

    def _check_numpy_tuple(self, value, what):
        """``value`` as a tuple of NumPy arrays (NumPy scalars, which
        NumPy gives for 0-dim results, become 0-dim arrays)."""
        if not isinstance(value, tuple):
            self._fail('{} must return a tuple of NumPy arrays, got {}'
                       .format(what, type(value).__name__))
        out = []
        for i, a in enumerate(value):
            if isinstance(a, numpy.generic):
                a = numpy.asarray(a)
            if not isinstance(a, numpy.ndarray):
                self._fail('{} must return a tuple of NumPy arrays; item {} '
                           'is a {}'.format(what, i, type(a).__name__))
            out.append(a)
        return tuple(out)

    def _generate_inputs(self):
        return self._check_numpy_tuple(self.generate_inputs(),
                                       'generate_inputs')

    def _to_device(self, arrays, config):
        out = []
        for a in arrays:
            a = config.device.send(a)
            if self.contiguous is None:
                a = _noncontiguous(a, config.xp)
            elif self.contiguous != 'C':
                raise ValueError("contiguous must be None or 'C', got {!r}"
                                 .format(self.contiguous))
            out.append(a)
        return tuple(out)

    def _check_outputs(self, outputs, config):
        if not isinstance(outputs, tuple):
            self._fail('forward must return a tuple of Variables, got {}'
                       .format(type(outputs).__name__))
        for i, y in enumerate(outputs):
            if not isinstance(y, Variable):
                self._fail('forward must return Variables; output {} is a {}'
                           .format(i, type(y).__name__))
            if not config.device.is_array_supported(y.array):
                self._fail('output {} is a {}, not an array of device {}'
                           .format(i, type(y.array).__name__,
                                   config.device.name))

    def check_forward_outputs(self, outputs, expected_outputs):
        """Compare the forward outputs (a tuple of arrays of the tested
        device) with the expected ones (NumPy arrays): number, shapes,
        dtypes, then values within ``check_forward_options``. Override to
        check more (calling this one); a failure raises the test's error
        class."""
        if len(expected_outputs) != len(outputs):
            self._fail('forward gave {} outputs but forward_expected {}'
                       .format(len(outputs), len(expected_outputs)))
        options = self.check_forward_options or {}
        for i, (e, y) in enumerate(zip(expected_outputs, outputs)):
            if e.shape != y.shape:
                self._fail('output {}: shape {} expected, got {}'.format(
                    i, e.shape, y.shape))
            if e.dtype != y.dtype:
                self._fail('output {}: dtype {} expected, got {}'.format(
                    i, e.dtype, y.dtype))
            try:
                assert_allclose(e, y, **options)
            except AssertionError as err:
                self._fail('output {} differs from the expected value:\n{}'
                           .format(i, err))

    def _begin(self, test_name, skip, backend_config):
        """What every test does first: record its name, call
        ``before_test``, honour its skip flag; returns the config."""
        self.test_name = test_name
        self.before_test(test_name)
        if skip:
            raise unittest.SkipTest('skip_{}_test is set'.format(
                test_name[len('test_'):]))
        return self._config(backend_config)

    def _check_unchanged(self, before, after, where):
        for i, (b, a) in enumerate(zip(before, after)):
            a = _to_numpy(a)
            if not numpy.array_equal(b, a, equal_nan=_is_float(b)):
                self._fail('{} modified input {}'.format(where, i))

    def _grad_outputs(self, outputs):
        templates = tuple(numpy.empty(y.shape, y.dtype) for y in outputs)
        grads = self.generate_grad_outputs(templates)
        if not isinstance(grads, tuple):
            self._fail('generate_grad_outputs must return a tuple, got {}'
                       .format(type(grads).__name__))
        return grads

    def generate_grad_outputs(self, outputs_template):
        """Output gradients like the outputs: uniform in [-1, 1] (None for
        a non-float output)."""
        return tuple(
            numpy.random.uniform(-1, 1, t.shape).astype(t.dtype)
            if _is_float(t) else None for t in outputs_template)

    def _check_backward_dodging(self, check, make_arguments, what):
        """Run ``check(detect, *make_arguments())``; with
        ``dodge_nondifferentiable``, new inputs are drawn while the point
        is near a non-differentiable one."""
        if not self.dodge_nondifferentiable:
            check(False, *make_arguments())
            return
        for _ in range(_DODGE_TRIES):
            try:
                check(True, *make_arguments())
                return
            except gradient_check.NondifferentiableError:
                continue
        self._fail('{}: every one of {} input draws was near a '
                   'non-differentiable point'.format(what, _DODGE_TRIES))


class FunctionTestCase(_CheckMixin, unittest.TestCase):
    """Tests of a function: its forward against :meth:`forward_expected`
    (NumPy), its gradients against numerical ones, and its second-order
    gradients.

    Hooks to implement:
        ``generate_inputs()``: a tuple of NumPy arrays.
        ``forward(inputs, device)``: the function applied to the tuple of
            input Variables (on the tested device); a tuple of Variables.
        ``forward_expected(inputs)``: the expected outputs from the NumPy
            inputs; a tuple of NumPy arrays.

    Optional hooks: ``generate_grad_outputs(outputs_template)``,
    ``generate_grad_grad_inputs(inputs_template)``,
    ``before_test(test_name)``.

    Attributes:
        check_forward_options (dict): of
            :func:`~chainer_core.testing.assert_allclose`.
        check_backward_options (dict): of
            :func:`~chainer_core.gradient_check.check_backward`.
        check_double_backward_options (dict): of
            :func:`~chainer_core.gradient_check.check_double_backward`.
        skip_forward_test, skip_backward_test, skip_double_backward_test
            (bool): skip a test.
        dodge_nondifferentiable (bool): draw new inputs when they are near
            a non-differentiable point.
        numerical_grad_dtype: the dtype of the numerical gradients.
        contiguous: None (inputs made non-contiguous) or ``'C'``.

    A failed check raises :class:`FunctionTestError`.
    """

    check_double_backward_options = None
    skip_double_backward_test = False
    _error = FunctionTestError

    def generate_inputs(self):
        raise NotImplementedError('generate_inputs is not implemented')

    def forward(self, inputs, device):
        raise NotImplementedError('forward is not implemented')

    def forward_expected(self, inputs):
        raise NotImplementedError('forward_expected is not implemented')

    def generate_grad_grad_inputs(self, inputs_template):
        """Second-order gradients like the inputs: uniform in [-1, 1]."""
        return tuple(
            numpy.random.uniform(-1, 1, t.shape).astype(t.dtype)
            if _is_float(t) else None for t in inputs_template)

    def _skip_base(self):
        if type(self) is FunctionTestCase:
            raise unittest.SkipTest('FunctionTestCase itself has no test')

    def test_forward(self, backend_config=None):
        """The outputs equal ``forward_expected``'s; inputs are not
        modified; outputs are Variables on the tested device."""
        self.run_test_forward(backend_config)

    def run_test_forward(self, backend_config):
        """The body of ``test_forward`` on ``backend_config`` (None: the
        test's own, or ``@numpy``)."""
        self._skip_base()
        config = self._begin('test_forward', self.skip_forward_test,
                             backend_config)
        with config:
            inputs = self._generate_inputs()
            before = [a.copy() for a in inputs]
            expected = self.forward_expected(
                tuple(a.copy() for a in inputs))
            expected = self._check_numpy_tuple(expected, 'forward_expected')
            device_inputs = self._to_device(inputs, config)
            outputs = self.forward(
                tuple(Variable(a) for a in device_inputs), config.device)
            self._check_outputs(outputs, config)
            self._check_unchanged(before, device_inputs, 'forward')
            self.check_forward_outputs(
                tuple(y.array for y in outputs), expected)

    def test_backward(self, backend_config=None):
        """Gradients by backprop match numerical ones."""
        self.run_test_backward(backend_config)

    def run_test_backward(self, backend_config):
        """The body of ``test_backward`` on ``backend_config`` (None: the
        test's own, or ``@numpy``)."""
        self._skip_base()
        config = self._begin('test_backward', self.skip_backward_test,
                             backend_config)
        device = config.device

        def f(*args):
            return self.forward(args, device)

        def make_arguments():
            inputs = self._to_device(self._generate_inputs(), config)
            outputs = f(*[Variable(a) for a in inputs])
            self._check_outputs(outputs, config)
            grads = self._grad_outputs(outputs)
            return inputs, tuple(None if g is None else device.send(g)
                                 for g in grads)

        def check(detect, inputs, grad_outputs):
            try:
                gradient_check.check_backward(
                    f, inputs, grad_outputs, dtype=self.numerical_grad_dtype,
                    detect_nondifferentiable=detect,
                    **(self.check_backward_options or {}))
            except gradient_check.NondifferentiableError:
                raise
            except AssertionError as e:
                self._fail('backward check failed:\n{}'.format(e))

        with config:
            self._check_backward_dodging(check, make_arguments, 'backward')

    def test_double_backward(self, backend_config=None):
        """Second-order gradients by backprop match numerical ones."""
        self.run_test_double_backward(backend_config)

    def run_test_double_backward(self, backend_config):
        """The body of ``test_double_backward`` on ``backend_config``
        (None: the test's own, or ``@numpy``)."""
        self._skip_base()
        config = self._begin('test_double_backward',
                             self.skip_double_backward_test,
                             backend_config)
        device = config.device

        def f(*args):
            return self.forward(args, device)

        def make_arguments():
            host_inputs = self._generate_inputs()
            inputs = self._to_device(host_inputs, config)
            outputs = f(*[Variable(a) for a in inputs])
            self._check_outputs(outputs, config)
            grads = self._grad_outputs(outputs)
            grad_grads = self.generate_grad_grad_inputs(
                tuple(numpy.empty(a.shape, a.dtype) for a in host_inputs))
            if not isinstance(grad_grads, tuple):
                self._fail('generate_grad_grad_inputs must return a tuple, '
                           'got {}'.format(type(grad_grads).__name__))
            grad_grads = tuple(device.send(g) for g, a in zip(
                grad_grads, host_inputs) if _is_float(a))
            return (inputs, tuple(None if g is None else device.send(g)
                                  for g in grads), grad_grads)

        def check(detect, inputs, grad_outputs, grad_grads):
            try:
                gradient_check.check_double_backward(
                    f, inputs, grad_outputs, grad_grads,
                    dtype=self.numerical_grad_dtype,
                    detect_nondifferentiable=detect,
                    **(self.check_double_backward_options or {}))
            except gradient_check.NondifferentiableError:
                raise
            except AssertionError as e:
                self._fail('double backward check failed:\n{}'.format(e))

        with config:
            self._check_backward_dodging(check, make_arguments,
                                         'double backward')


def _get_param(link, name):
    obj = link
    for part in name.strip('/').split('/'):
        obj = getattr(obj, part)
    return obj


class _LinkMixin(_CheckMixin):
    """The hooks of both link test cases, and the link they create."""

    param_names = ()
    _error = LinkTestError

    def generate_params(self):
        raise NotImplementedError('generate_params is not implemented')

    def create_link(self, initializers):
        raise NotImplementedError('create_link is not implemented')

    def generate_inputs(self):
        raise NotImplementedError('generate_inputs is not implemented')

    def forward(self, link, inputs, device):
        outputs = link(*inputs)
        if not isinstance(outputs, tuple):
            outputs = (outputs,)
        return outputs

    def _skip_base(self):
        if type(self) in (LinkTestCase, LinkInitializersTestCase):
            raise unittest.SkipTest('{} itself has no test'.format(
                type(self).__name__))

    def _generate_params(self):
        params = self.generate_params()
        if not isinstance(params, tuple):
            self._fail('generate_params must return a tuple, got {}'.format(
                type(params).__name__))
        return params

    def _create_link(self, inputs, config, initializers=None):
        """The link (from ``initializers``, default ``generate_params()``)
        on the tested device and a CPU copy of it, both with every
        parameter initialized (lazily shaped ones by a forward pass on the
        CPU)."""
        if initializers is None:
            initializers = self._generate_params()
        link = self.create_link(initializers)
        if any(p.array is None for p in link.params()):
            self.forward(link, tuple(Variable(a.copy()) for a in inputs),
                         BackendConfig({'device': '@numpy'}).device)
            link.cleargrads()
        cpu_link = link.copy(mode='copy')
        link.to_device(config.device)
        return link, cpu_link


class LinkTestCase(_LinkMixin, unittest.TestCase):
    """Tests of a link: its forward against :meth:`forward_expected` and
    its gradients (with respect to the inputs and the parameters named in
    ``param_names``) against numerical ones.

    Hooks to implement:
        ``generate_params()``: a tuple of initializer-likes (initializers,
            arrays or scalars) handed to ``create_link``.
        ``create_link(initializers)``: the link.
        ``generate_inputs()``: a tuple of NumPy arrays.
        ``forward_expected(link, inputs)``: the expected outputs, from a
            copy of the link on the CPU (its parameters initialized as
            those of the tested link) and the NumPy inputs; a tuple of
            NumPy arrays.

    Optional hooks: ``forward(link, inputs, device)`` (default
    ``link(*inputs)``), ``generate_grad_outputs(outputs_template)``,
    ``check_forward_outputs(outputs, expected_outputs)``,
    ``before_test(test_name)``.

    Attributes:
        param_names (tuple of str): parameters whose gradients
            ``test_backward`` checks (paths like ``'W'`` or ``'l1/W'``).
        check_forward_options, check_backward_options (dict),
        skip_forward_test, skip_backward_test, dodge_nondifferentiable,
        numerical_grad_dtype, contiguous: as in :class:`FunctionTestCase`.
        test_name, backend_config: set while a test runs.

    A failed check raises :class:`LinkTestError`.
    """

    def forward_expected(self, link, inputs):
        raise NotImplementedError('forward_expected is not implemented')

    def test_forward(self, backend_config=None):
        """The outputs equal ``forward_expected``'s; inputs are not
        modified; outputs are Variables on the tested device."""
        self.run_test_forward(backend_config)

    def run_test_forward(self, backend_config):
        """The body of ``test_forward`` on ``backend_config`` (None: the
        test's own, or ``@numpy``)."""
        self._skip_base()
        config = self._begin('test_forward', self.skip_forward_test,
                             backend_config)
        with config:
            inputs = self._generate_inputs()
            before = [a.copy() for a in inputs]
            link, cpu_link = self._create_link(inputs, config)
            expected = self.forward_expected(
                cpu_link, tuple(a.copy() for a in inputs))
            expected = self._check_numpy_tuple(expected, 'forward_expected')
            device_inputs = self._to_device(inputs, config)
            outputs = self.forward(
                link, tuple(Variable(a) for a in device_inputs),
                config.device)
            self._check_outputs(outputs, config)
            self._check_unchanged(before, device_inputs, 'forward')
            self.check_forward_outputs(
                tuple(y.array for y in outputs), expected)

    def test_backward(self, backend_config=None):
        """Gradients with respect to the inputs and the parameters of
        ``param_names`` match numerical ones."""
        self.run_test_backward(backend_config)

    def run_test_backward(self, backend_config):
        """The body of ``test_backward`` on ``backend_config`` (None: the
        test's own, or ``@numpy``)."""
        self._skip_base()
        config = self._begin('test_backward', self.skip_backward_test,
                             backend_config)
        device = config.device

        def make_arguments():
            host_inputs = self._generate_inputs()
            link, _ = self._create_link(host_inputs, config)
            inputs = self._to_device(host_inputs, config)

            def f(*args):
                return self.forward(link, args, device)

            outputs = f(*[Variable(a) for a in inputs])
            self._check_outputs(outputs, config)
            link.cleargrads()
            grads = self._grad_outputs(outputs)
            params = tuple(_get_param(link, n) for n in self.param_names)
            return f, inputs, tuple(None if g is None else device.send(g)
                                    for g in grads), params

        def check(detect, f, inputs, grad_outputs, params):
            try:
                gradient_check.check_backward(
                    f, inputs, grad_outputs, params=params,
                    dtype=self.numerical_grad_dtype,
                    detect_nondifferentiable=detect,
                    **(self.check_backward_options or {}))
            except gradient_check.NondifferentiableError:
                raise
            except AssertionError as e:
                self._fail('backward check failed:\n{}'.format(e))

        with config:
            self._check_backward_dodging(check, make_arguments, 'backward')


class InitializerArgument:
    """An entry of :meth:`LinkInitializersTestCase.get_initializers` whose
    constructor argument differs from the initializer the link ends up
    using, e.g. ``InitializerArgument(None, 0)`` for a bias that ``None``
    makes zero.

    Args:
        argument_value: what ``create_link`` receives.
        expected_initializer: the initializer-like the parameter is
            expected to be filled with.
    """

    def __init__(self, argument_value, expected_initializer):
        self.argument_value = argument_value
        self.expected_initializer = expected_initializer

    def __repr__(self):
        return 'InitializerArgument({!r}, {!r})'.format(
            self.argument_value, self.expected_initializer)


def _expected_parameter(initializer, shape, dtype):
    """The array the initializer-like ``initializer`` fills a parameter of
    ``shape`` and ``dtype`` with."""
    if callable(initializer):
        out = numpy.empty(shape, dtype=dtype)
        initializer(out)
        return out
    return numpy.broadcast_to(numpy.asarray(initializer, dtype=dtype),
                              shape).copy()


class LinkInitializersTestCase(_LinkMixin, unittest.TestCase):
    """Tests of how a link initializes its parameters: ``test_initializers``
    creates the link once per initializer-like listed by
    :meth:`get_initializers` and checks that the parameter it initializes
    holds what that initializer gives.

    Hooks to implement: ``generate_params()``, ``create_link(initializers)``
    and ``generate_inputs()`` as in :class:`LinkTestCase`, and
    ``get_initializers()``: a tuple with one entry per initializer-like
    argument of ``create_link`` (in ``generate_params``'s order, the
    parameter of ``param_names`` at the same position), each a list of
    initializer-likes to try. One is tried at a time, the other arguments
    taken from ``generate_params()``. An
    :class:`InitializerArgument` separates the value handed to
    ``create_link`` from the initializer-like expected. The
    initializer-likes must be deterministic: each is called again for the
    expected value.

    Optional hooks: ``forward(link, inputs, device)`` (to initialize
    lazily shaped parameters), ``before_test(test_name)``.

    Attributes:
        param_names (list of str): the parameters, one per entry of
            ``get_initializers()``.
        check_initializers_options (dict): of
            :func:`~chainer_core.testing.assert_allclose`.
        skip_initializers_test (bool): skip the test.
        contiguous: as in :class:`FunctionTestCase` (unused here).
        test_name, backend_config: set while the test runs.

    A failed check raises :class:`LinkTestError`.
    """

    check_initializers_options = None
    skip_initializers_test = False

    def get_initializers(self):
        raise NotImplementedError('get_initializers is not implemented')

    def test_initializers(self, backend_config=None):
        """Each parameter holds what its initializer-like gives."""
        self.run_test_initializers(backend_config)

    def run_test_initializers(self, backend_config):
        """The body of ``test_initializers`` on ``backend_config`` (None:
        the test's own, or ``@numpy``)."""
        self._skip_base()
        config = self._begin('test_initializers',
                             self.skip_initializers_test, backend_config)
        initializer_lists = self.get_initializers()
        if not isinstance(initializer_lists, tuple):
            self._fail('get_initializers must return a tuple, got {}'
                       .format(type(initializer_lists).__name__))
        if len(initializer_lists) != len(self.param_names):
            self._fail('get_initializers gave {} lists for {} param_names'
                       .format(len(initializer_lists),
                               len(self.param_names)))
        with config:
            for i, candidates in enumerate(initializer_lists):
                for candidate in candidates:
                    self._check_initializer(i, candidate, config)

    def _check_initializer(self, i, candidate, config):
        if isinstance(candidate, InitializerArgument):
            argument = candidate.argument_value
            expected_initializer = candidate.expected_initializer
        else:
            argument = expected_initializer = candidate
        initializers = list(self._generate_params())
        if len(initializers) != len(self.param_names):
            self._fail('generate_params gave {} initializers for {} '
                       'param_names'.format(len(initializers),
                                            len(self.param_names)))
        initializers[i] = argument
        link, _ = self._create_link(self._generate_inputs(), config,
                                    tuple(initializers))
        name = self.param_names[i]
        param = _get_param(link, name)
        if not config.device.is_array_supported(param.array):
            self._fail('parameter {} is a {}, not an array of device {}'
                       .format(name, type(param.array).__name__,
                               config.device.name))
        actual = _to_numpy(param.array)
        expected = _expected_parameter(expected_initializer, actual.shape,
                                       actual.dtype)
        try:
            assert_allclose(expected, actual,
                            **(self.check_initializers_options or {}))
        except AssertionError as err:
            self._fail('parameter {} initialized with {!r} differs from the '
                       'expected value:\n{}'.format(name, candidate, err))
