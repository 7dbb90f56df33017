"""export(): a model's forward run as an ONNX model."""
import collections
import functools

import numpy
import onnx
from onnx import helper
from onnx import numpy_helper

from chainer_core import backend
from chainer_core import configuration
from chainer_core import variable as _variable
from chainer_core.onnx import _capture
from chainer_core.onnx import converters as _converters

#: The opsets the converters are written for.
MIN_OPSET, MAX_OPSET = 13, 21

_PRODUCER = 'chainer-core'


@functools.lru_cache(maxsize=None)
def _onnxruntime_max_opset():
    """The newest opset in our range that the installed onnxruntime runs,
    or None without onnxruntime."""
    try:
        import onnxruntime
    except ImportError:
        return None
    for version in range(MAX_OPSET, MIN_OPSET - 1, -1):
        x = helper.make_tensor_value_info('x', onnx.TensorProto.FLOAT, [1])
        y = helper.make_tensor_value_info('y', onnx.TensorProto.FLOAT, [1])
        graph = helper.make_graph(
            [helper.make_node('Identity', ['x'], ['y'])], 'probe', [x], [y])
        model = _make_model(graph, version, {})
        try:
            onnxruntime.InferenceSession(model.SerializeToString(),
                                         providers=['CPUExecutionProvider'])
        except Exception:  # NOQA: any refusal means "not this opset"
            continue
        return version
    return None


def default_opset_version():
    """The opset :func:`export` uses by default: the newest that both the
    installed ``onnx`` and ``onnxruntime`` (when installed) support, at
    most 21.

    Returns:
        int: the opset version.
    """
    newest = min(MAX_OPSET, onnx.defs.onnx_opset_version())
    runtime = _onnxruntime_max_opset()
    return newest if runtime is None else min(newest, runtime)


def _resolve_opset(opset_version):
    if opset_version is None:
        return default_opset_version()
    newest = min(MAX_OPSET, onnx.defs.onnx_opset_version())
    if isinstance(opset_version, bool) or \
            not isinstance(opset_version, (int, numpy.integer)) or \
            not MIN_OPSET <= opset_version <= newest:
        raise ValueError(
            'ONNX export: opset_version must be an int from {} to {} (the '
            'opsets supported here, with onnx {}), got {!r}'.format(
                MIN_OPSET, newest, onnx.__version__, opset_version))
    return int(opset_version)


def _make_model(graph, opset_version, external_opset_imports):
    imports = [helper.make_opsetid('', opset_version)] + [
        helper.make_opsetid(domain, version)
        for domain, version in external_opset_imports.items()]
    model = helper.make_model(graph, opset_imports=imports,
                              producer_name=_PRODUCER)
    # onnx stamps its own newest IR version, which an older onnxruntime
    # refuses: the oldest one that has these opsets is read everywhere.
    model.ir_version = helper.find_min_ir_version_for(
        imports, ignore_unknown=True)
    return model


def _host(array):
    return numpy.asarray(backend.CpuDevice().send(array))


class _Namer:
    """Unique names: a name asked for twice gets a suffix the second
    time."""

    def __init__(self):
        self._used = set()

    def reserve(self, name):
        if name in self._used:
            raise ValueError('ONNX export: the name {!r} is used twice'
                             .format(name))
        self._used.add(name)
        return name

    def new(self, hint):
        name, k = hint, 0
        while name in self._used:
            k += 1
            name = '{}_{}'.format(hint, k)
        self._used.add(name)
        return name


class ConverterContext:
    """What a converter reads besides its function: names, constants, and
    the shapes and dtypes of the values it is given.

    Attributes:
        opset_version (int): the opset exported to.
        prefix (str): the name of the call being converted
            (``LinearFunction_0``), under which its new names go.
    """

    def __init__(self, opset_version, namer, graph):
        self.opset_version = opset_version
        self._namer = namer
        self._graph = graph
        self.prefix = ''

    def new_name(self, hint):
        """A new value name, under the current function's name."""
        return self._namer.new('{}/{}'.format(self.prefix, hint))

    def const(self, array):
        """The name of a new constant (an initializer) holding ``array``
        (a NumPy array)."""
        return self._graph.add_initializer(self.new_name('Constant'),
                                           numpy.asarray(array))

    def shape(self, name):
        """The shape of the value ``name`` of the traced graph."""
        return self._graph.values[name][0]

    def dtype(self, name):
        """The NumPy dtype of the value ``name`` of the traced graph."""
        return self._graph.values[name][1]

    def constant(self, name):
        """The array of ``name`` when it is a constant or a parameter (an
        initializer), else None."""
        return self._graph.values[name][2]


class _Graph:
    """The values, initializers and nodes of the ONNX graph being built."""

    def __init__(self):
        self.values = {}        # name -> (shape, dtype, array or None)
        self.initializers = []
        self.nodes = []

    def add_value(self, name, array):
        self.values[name] = (tuple(array.shape), numpy.dtype(array.dtype),
                             None)
        return name

    def add_initializer(self, name, array):
        array = _host(array)
        self.values[name] = (array.shape, array.dtype, array)
        self.initializers.append(numpy_helper.from_array(array, name))
        return name


def _persistent_paths(model):
    """``{id(array): '/link/name'}`` of the model's persistent arrays
    (batch normalization's running statistics, ...)."""
    paths = {}
    namedlinks = getattr(model, 'namedlinks', None)
    if namedlinks is None:
        return paths
    for path, link in namedlinks():
        for name in getattr(link, '_persistent', ()):
            value = getattr(link, name, None)
            if value is not None and not isinstance(value, (int, float)):
                paths[id(value)] = path.rstrip('/') + '/' + name
    return paths


def _as_inputs(model, args, input_names):
    """``[(name, Variable)]`` of the model's inputs and how to call it."""
    if isinstance(args, dict):
        keys = list(args)
        values = list(args.values())
    else:
        if not isinstance(args, (list, tuple)):
            args = [args]
        keys = None
        values = list(args)
    device = getattr(model, 'device', None)
    variables = []
    for i, x in enumerate(values):
        if not isinstance(x, _variable.Variable):
            if isinstance(x, (bool, int, float, complex)) or x is None or \
                    not hasattr(x, 'dtype'):
                raise TypeError(
                    'ONNX export: args must hold Variables or arrays, but '
                    'argument {} is {!r} of type {}'.format(
                        keys[i] if keys else i, x, type(x).__name__))
            if device is not None and type(x) is numpy.ndarray:
                x = device.send(x)
            x = _variable.Variable(x)
        variables.append(x)
    if input_names is None:
        names = keys or ['Input_{}'.format(i) for i in range(len(values))]
    else:
        if not isinstance(input_names, (list, tuple)) or \
                len(input_names) != len(values) or \
                not all(isinstance(n, str) for n in input_names):
            raise ValueError(
                'ONNX export: input_names must be a list of {} names, one '
                'per input, got {!r}'.format(len(values), input_names))
        names = list(input_names)

    def call():
        if keys is None:
            return model(*variables)
        return model(**dict(zip(keys, variables)))
    return list(zip(names, variables)), call


def _output_names(items, output_names):
    if output_names is None:
        return [key if isinstance(key, str) else 'Output_{}'.format(i)
                for i, (key, _) in enumerate(items)]
    if not isinstance(output_names, (list, tuple)) or \
            len(output_names) != len(items) or \
            not all(isinstance(n, str) for n in output_names):
        raise ValueError(
            'ONNX export: output_names must be a list of {} names, one per '
            'output, got {!r}'.format(len(items), output_names))
    return list(output_names)


def _convert(call, converter, opset_version, input_names, output_names,
             context):
    nodes = converter(call.function, opset_version, input_names,
                      output_names, context)
    nodes = list(nodes)
    for node in nodes:
        if not isinstance(node, onnx.NodeProto):
            raise TypeError(
                'ONNX export: the converter of {} must return onnx '
                'NodeProtos, got {}'.format(type(call.function).__name__,
                                            type(node).__name__))
    return nodes


def export(model, args, filename=None, opset_version=None, input_names=None,
           output_names=None, train=False, return_named_inout=False,
           external_converters=None, external_opset_imports=None):
    """Export a model to ONNX.

    The model is run once on ``args``, on whatever device it lives, and
    the ops that run computes its outputs with become the ONNX graph. Its
    parameters become initializers named by their path (``/l1/W``),
    persistent arrays such as running statistics too (``/bn/avg_mean``),
    and other arrays the ops read constants.

    Args:
        model (callable): a Link (or any callable) taking ``args``.
        args: the inputs: a Variable or an array, a list or tuple of them
            (``model(*args)``) or a dict (``model(**args)``, the keys
            naming the inputs). Arrays go to the model's device.
        filename (str or file): where to write the model; None: nowhere.
        opset_version (int): the ONNX opset, from 13 to 21; None: the
            newest that the installed onnx and onnxruntime support.
        input_names (list of str): the names of the inputs
            (``Input_0``, ...; a dict's keys).
        output_names (list of str): the names of the outputs
            (``Output_0``, ...; the keys of a dict the model returns).
        train (bool): run the model with ``chainer.config.train`` set
            to this: False (default) drops dropout and makes batch
            normalization use its running statistics.
        return_named_inout (bool): also return the inputs and outputs.
        external_converters (dict): converters by FunctionNode class name,
            added to (or replacing) the built-in ones (see
            :func:`chainer_core.onnx.converters.register` for their
            signature).
        external_opset_imports (dict): ``{domain: version}`` of the
            operator sets external converters use.

    Returns:
        onnx.ModelProto, or ``(model, inputs, outputs)`` with
        ``return_named_inout``: ordered dicts from names to the Variables
        of the run.

    Raises:
        NotImplementedError: for a function with no converter, naming it.
        TypeError: when the model returns something other than Variables.
        ValueError: for an unknown opset or bad names.

    Example:
        >>> model = L.Classifier(MLP(100, 10)).predictor
        >>> x = numpy.zeros((1, 784), numpy.float32)
        >>> onnx_model = chainer_core.onnx.export(model, x, 'mlp.onnx')
    """
    opset_version = _resolve_opset(opset_version)
    table = dict(_converters.registry)
    table.update(external_converters or {})
    external_opset_imports = dict(external_opset_imports or {})

    inputs, call_model = _as_inputs(model, args, input_names)
    tracer = _capture.Tracer()
    with configuration.using_config('train', train), tracer:
        result = call_model()
    items = _capture.as_output_variables(result)
    out_names = _output_names(items, output_names)
    outputs = [(name, y) for name, (_, y) in zip(out_names, items)]

    namer = _Namer()
    graph = _Graph()
    context = ConverterContext(opset_version, namer, graph)
    names = {}
    for name, x in inputs:
        names[id(x)] = graph.add_value(namer.reserve(name), x.array)
    for name, _ in outputs:
        namer.reserve(name)
    params = {}
    namedparams = getattr(model, 'namedparams', None)
    if namedparams is not None:
        for path, p in namedparams():
            params[id(p)] = path
            namer.reserve(path)
    persistents = _persistent_paths(model)
    pending_outputs = {}
    for name, y in outputs:
        pending_outputs.setdefault(id(y), []).append(name)

    def name_of(v):
        """The value name of an input Variable of a call."""
        name = names.get(id(v))
        if name is None:
            path = params.get(id(v))
            if path is not None:
                name = path
            else:
                path = persistents.get(id(v.array))
                name = namer.new(path or 'Constant')
            names[id(v)] = graph.add_initializer(name, v.array)
        return name

    counts = collections.Counter()
    calls = _capture.needed_calls(tracer.calls, [y for _, y in outputs])
    for call in calls:
        func = call.function
        kind = type(func).__name__
        prefix = '{}_{}'.format(kind, counts[kind])
        counts[kind] += 1
        converter = table.get(kind)
        if converter is None:
            raise _converters.unsupported(
                func, opset_version,
                'no converter is registered for it (label {!r})'.format(
                    func.label))
        in_names = [name_of(x) for x in call.inputs]
        out_names_ = []
        for i, y in enumerate(call.outputs):
            wanted = pending_outputs.get(id(y))
            if wanted:
                name = wanted.pop(0)
            else:
                name = namer.new(prefix if len(call.outputs) == 1
                                 else '{}/{}'.format(prefix, i))
            names[id(y)] = graph.add_value(name, y.array)
            out_names_.append(name)
        context.prefix = prefix
        nodes = _convert(call, converter, opset_version, in_names,
                         out_names_, context)
        for node in nodes:
            if not node.name:
                node.name = namer.new('{}/{}'.format(prefix, node.op_type))
        graph.nodes.extend(nodes)

    # Outputs no op made here (an input, a parameter, a constant, or one
    # Variable returned twice) are copies of their value.
    context.prefix = 'Output'
    for name, y in outputs:
        if name in pending_outputs.get(id(y), ()):
            pending_outputs[id(y)].remove(name)
            source = name_of(y)
            graph.values[name] = graph.values[source]
            graph.nodes.append(helper.make_node(
                'Identity', [source], [name], name=namer.new(name + '/Copy')))

    def value_info(name):
        shape, dtype, _ = graph.values[name]
        return helper.make_tensor_value_info(
            name, helper.np_dtype_to_tensor_dtype(dtype), list(shape))

    # Converters that read a constant input at export time (indices,
    # permutations) leave its initializer unused.
    used = {name for node in graph.nodes for name in node.input}
    onnx_graph = helper.make_graph(
        graph.nodes, type(model).__name__,
        [value_info(name) for name, _ in inputs],
        [value_info(name) for name, _ in outputs],
        initializer=[t for t in graph.initializers if t.name in used])
    onnx_model = _make_model(onnx_graph, opset_version,
                             external_opset_imports)
    onnx.checker.check_model(onnx_model)
    if filename is not None:
        onnx.save(onnx_model, filename)
    if return_named_inout:
        return (onnx_model, collections.OrderedDict(inputs),
                collections.OrderedDict(outputs))
    return onnx_model
