"""activation links."""
