"""The devices the conformance suite runs on: every device of every backend
that plugin discovery finds, so installing a backend adds it to the suite."""
import chainer_core  # NOQA: registers the built-in NumPy backend
from chainer_core._runtime.host import host, unavailable_reason


def discover():
    """``(backend, devices, reason)`` per discovered backend, in priority
    order; ``devices`` is empty and ``reason`` says why when the backend is
    not usable here."""
    found = []
    for backend in host.ordered_backends():
        if not backend.is_available():
            found.append((backend, [], unavailable_reason(backend)))
            continue
        devices = [backend.get_device(i)
                   for i in range(backend.device_count())]
        reason = None if devices else 'the backend reports no device'
        found.append((backend, devices, reason))
    return found
