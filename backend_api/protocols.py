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


BACKEND_METHODS = ('is_available', 'device_count', 'get_device',
                   'parse_device_spec', 'device_from_array')
