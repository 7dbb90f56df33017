import pluggy

PROJECT_NAME = 'chainer_core'

hookspec = pluggy.HookspecMarker(PROJECT_NAME)
hookimpl = pluggy.HookimplMarker(PROJECT_NAME)

# (major, minor): a plugin built for (M, m) loads when M equals ours and m is
# not above ours.
API_VERSION = (1, 1)

ESCAPE_HATCH = 'set CHAINER_DEVICE=@numpy to skip this backend'
