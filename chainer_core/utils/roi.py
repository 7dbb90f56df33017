"""What the region-of-interest poolings share, for add-ons building
poolings of their own on the same conventions (ChainerCV's
position-sensitive ones): argument checks, bins as masks, the maximum over
bins with its argmax, and the sum of per-region gradients into samples."""
from chainer_core.functions.pooling._roi import (  # NOQA
    batch_sum, bin_masks, check_align_types, check_batch_indices,
    check_outsize, check_sampling_ratio, check_spatial_scale, compute_dtype,
    max_over_bins)
