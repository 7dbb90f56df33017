"""Print the oneDNN include and library directories of the installed
`onednn-devel-cpu-gomp` and `onednn-cpu-gomp` distributions.

These wheels install data files under the environment prefix
(``<prefix>/include``, ``<prefix>/lib``) rather than a Python package, so the
only reliable way to find them, also inside pip's isolated build
environment, is the distribution's file list.
"""
import importlib.metadata as metadata
import sys


def locate(dist_name, filename):
    try:
        dist = metadata.distribution(dist_name)
    except metadata.PackageNotFoundError:
        return None
    for f in dist.files or ():
        if f.name == filename:
            path = dist.locate_file(f).resolve()
            if path.exists():
                return path
    return None


def main():
    header = locate('onednn-devel-cpu-gomp', 'dnnl.hpp')
    library = locate('onednn-cpu-gomp', 'libdnnl.so.3')
    if header is None or library is None:
        sys.stderr.write('onednn-devel-cpu-gomp / onednn-cpu-gomp not found '
                         '(header: {}, library: {})\n'.format(header, library))
        return 1
    # dnnl.hpp sits both at include/ and include/oneapi/dnnl/.
    include = header.parent
    if include.name == 'dnnl' and include.parent.name == 'oneapi':
        include = include.parent.parent
    print('{};{}'.format(include, library))
    return 0


if __name__ == '__main__':
    sys.exit(main())
