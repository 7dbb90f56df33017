"""normalization links."""
