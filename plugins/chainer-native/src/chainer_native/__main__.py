"""``python -m chainer_native --cmake-dir``: where the C++ library is, for
build systems (``-DChainerNative_DIR=$(python -m chainer_native --cmake-dir)``).
"""
import argparse
import sys

import chainer_native


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog='python -m chainer_native',
        description='Print where the chainer-native C++ library is installed.')
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument('--cmake-dir', action='store_true',
                       help='the directory of ChainerNativeConfig.cmake '
                            '(CMake: -DChainerNative_DIR=...)')
    group.add_argument('--include-dir', action='store_true',
                       help='the directory holding chainer_native/*.h')
    group.add_argument('--library-dir', action='store_true',
                       help='the directory of libchainer_native.so')
    group.add_argument('--version', action='store_true',
                       help='the version of the library')
    args = parser.parse_args(argv)
    if args.cmake_dir:
        print(chainer_native.get_cmake_dir())
    elif args.include_dir:
        print(chainer_native.get_include())
    elif args.library_dir:
        print(chainer_native.get_library_dir())
    else:
        print(chainer_native.__version__)
    return 0


if __name__ == '__main__':
    sys.exit(main())
