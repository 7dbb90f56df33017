"""loss links."""
