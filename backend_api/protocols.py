"""The Backend and Device protocols plugins implement (DESIGN.md section 3)."""
from types import ModuleType
from typing import Any, Optional, Protocol, runtime_checkable


@runtime_checkable
class Backend(Protocol):
    """A family of devices (NumPy, a GPU runtime, an accelerator library).

    ``priority`` orders auto-selection, higher first: numpy 0, mkldnn 150,
    native 200, cuda 500.
    """

    name: str
    priority: int

    def is_available(self) -> bool:
        """Whether devices can be used here; never raises for missing hardware."""

    def device_count(self) -> int:
        """How many devices of this backend exist here."""

    def get_device(self, index: int = 0) -> 'Device':
        """The device with this index."""

    def parse_device_spec(self, spec: str) -> Optional['Device']:
        """The device a specifier string names, or None if not ours."""

    def device_from_array(self, array: Any) -> Optional['Device']:
        """The device an array lives on, or None if the array is not ours."""


@runtime_checkable
class Device(Protocol):
    """One place arrays live and kernels run."""

    backend: Backend
    name: str
    xp: ModuleType

    def send(self, array: Any) -> Any:
        """Transfer an array, or nested tuples/lists/dicts of arrays, here."""

    def is_array_supported(self, array: Any) -> bool:
        """Whether the array can be used on this device as it is."""

    def use(self) -> None:
        """Make this device current."""

    def synchronize(self) -> None:
        """Wait until queued work on this device is done."""


@runtime_checkable
class Graph(Protocol):
    """What the optional ``Backend.get_graph()`` returns: the backend
    records autograd itself.

    Arrays of the backend then carry their graph in it. A *graph array* is
    an array that requires grad; views made by ``leaf`` and ``detach``
    share the buffer. The backward a graph kernel records executes the op's
    derivative rule as the core declares it (:mod:`backend_api.rules`).
    """

    def leaf(self, array: Any) -> Any:
        """A new view of ``array`` that requires grad, with no creator."""

    def detach(self, array: Any) -> Any:
        """A new view of ``array`` outside the graph."""

    def requires_grad(self, array: Any) -> bool:
        """Whether ``array`` is a graph array."""

    def get_grad(self, array: Any, keep_graph: bool) -> Any:
        """The gradient stored for a graph array, or None; outside the graph
        unless ``keep_graph``."""

    def set_grad(self, array: Any, grad: Any) -> None:
        """Store (None: clear) the gradient of a graph array."""

    def backward(self, array: Any, retain_grad: bool,
                 enable_double_backprop: bool, retain_graph: bool) -> None:
        """Backprop from ``array``, starting from its stored gradient
        (ones for a one-element array); leaves accumulate gradients."""

    def grad(self, outputs, inputs, grad_outputs, retain_grad: bool,
             enable_double_backprop: bool, retain_graph: bool) -> list:
        """Gradients of ``outputs`` w.r.t. ``inputs`` (None where no path);
        no leaf gradient is touched."""

    def record(self, label: str, inputs, outputs, backward) -> tuple:
        """Record an op computed outside the graph.

        Returns ``(handle, graph_outputs)``: new views of ``outputs`` whose
        creator is the op. In backward the graph calls
        ``backward(target_indexes, grad_outputs)`` (None for outputs no
        gradient reached) and takes one array or None per target index.
        """

    def retained_output(self, handle: Any, index: int, data: Any) -> Any:
        """A view of ``data`` connected to output ``index`` of ``handle``'s
        op (recreating the output's node if it was freed)."""


# Optional Graph methods (a graph without them still works; its variables
# then show no creator, and unchaining takes a variable out of the graph
# instead of cutting the graph behind it):
#
# ``node(array)``: the node of a graph array, a ``chainer_core.variable
# .VariableNode`` whose ``creator_node`` is a ``FunctionNode`` with
# ``inputs``, ``outputs`` (weak references), ``label``, ``rank`` and
# ``unchain()``; made on request, one object per node while held.
# ``unchain(array)``: make the array's node a leaf.
# ``unchain_backward(array)``: release every op the array depends on; their
# outputs become leaves (truncated backprop).
# ``split(array)``: ``(array, detach(array))`` for a graph array, ``(None,
# array)`` for any other, in one call; the core makes a Variable of every
# op output with it (with requires_grad and detach otherwise).
GRAPH_OPTIONAL_METHODS = ('node', 'unchain', 'unchain_backward', 'split')

GRAPH_METHODS = ('leaf', 'detach', 'requires_grad', 'get_grad', 'set_grad',
                 'backward', 'grad', 'record', 'retained_output')

BACKEND_METHODS = ('is_available', 'device_count', 'get_device',
                   'parse_device_spec', 'device_from_array')
