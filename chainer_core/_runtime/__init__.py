"""The runtime between the plugin contract (``backend_api``) and the core:
plugin discovery (``plugins``, ``host``), the device table and specifier
parsing (``host``), and the kernel and graph registries (``kernels``,
``graphs``). Private: plugins use ``backend_api`` and the public API."""
