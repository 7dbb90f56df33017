import pluggy

PROJECT_NAME = 'chainer_core'

hookspec = pluggy.HookspecMarker(PROJECT_NAME)
hookimpl = pluggy.HookimplMarker(PROJECT_NAME)

# (major, minor): a plugin built for (M, m) loads when M equals ours and m is
# not above ours. 2.0: the runtime left backend_api (no `backend_api.kernels`),
# kernels decline with NotImplemented, graph kernels are keyed by name.
API_VERSION = (2, 0)

ESCAPE_HATCH = 'set CHAINER_DEVICE=@numpy to skip this backend'
