"""Utility functions that build on other functions (``forget``)."""
