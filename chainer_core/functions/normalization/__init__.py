from chainer_core.functions.normalization.batch_normalization import (  # NOQA
    batch_normalization, fixed_batch_normalization)
from chainer_core.functions.normalization.batch_renormalization import (  # NOQA
    batch_renormalization)
from chainer_core.functions.normalization.decorrelated_batch_normalization import (  # NOQA
    decorrelated_batch_normalization, fixed_decorrelated_batch_normalization)
from chainer_core.functions.normalization.group_normalization import (  # NOQA
    group_normalization)
from chainer_core.functions.normalization.l2_normalization import (  # NOQA
    normalize)
from chainer_core.functions.normalization.layer_normalization import (  # NOQA
    layer_normalization)
from chainer_core.functions.normalization.local_response_normalization import (  # NOQA
    local_response_normalization)

__all__ = [
    'batch_normalization', 'batch_renormalization',
    'decorrelated_batch_normalization', 'fixed_batch_normalization',
    'fixed_decorrelated_batch_normalization', 'group_normalization',
    'layer_normalization', 'local_response_normalization', 'normalize',
]
