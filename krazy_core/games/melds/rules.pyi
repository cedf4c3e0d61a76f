# C-level only (cimport the .pxd): no Python names.
