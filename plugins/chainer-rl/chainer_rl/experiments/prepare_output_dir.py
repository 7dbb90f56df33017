"""Output folders that record how an experiment was run."""
import argparse
import datetime
import json
import os
import subprocess
import sys
import tempfile


def is_under_git_control():
    """Whether the current directory is inside a git work tree."""
    try:
        subprocess.run(['git', 'rev-parse'], stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, check=True)
    except (OSError, subprocess.CalledProcessError):
        return False
    return True


def _save_git_output(path, command):
    try:
        out = subprocess.run(command, stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return
    with open(path, 'wb') as f:
        f.write(out)


def prepare_output_dir(args, user_specified_dir=None, argv=None,
                       time_format='%Y%m%dT%H%M%S.%f'):
    """Create a new output folder named after the current time and record
    the run in it.

    Written files: ``args.txt`` (``args`` as JSON), ``command.txt`` (the
    command line), ``environ.txt`` (the environment variables as JSON) and,
    inside a git work tree, ``git-head.txt``, ``git-status.txt``,
    ``git-log.txt`` and ``git-diff.txt``.

    Args:
        args (dict or argparse.Namespace): the run's arguments (values JSON
            cannot hold are written as strings).
        user_specified_dir (str or None): the folder is created inside it
            (default: a new temporary folder).
        argv (list or None): the command line (default: ``sys.argv``).
        time_format (str): ``strftime`` format of the folder's name.

    Returns:
        str: path of the new folder.
    """
    if isinstance(args, argparse.Namespace):
        args = vars(args)
    if not isinstance(args, dict):
        raise TypeError('prepare_output_dir: args must be a dict or an '
                        'argparse.Namespace, got {}'.format(
                            type(args).__name__))
    time_str = datetime.datetime.now().strftime(time_format)
    if user_specified_dir is not None:
        if os.path.exists(user_specified_dir) and \
                not os.path.isdir(user_specified_dir):
            raise RuntimeError('prepare_output_dir: {} is not a directory'
                               .format(user_specified_dir))
        outdir = os.path.join(user_specified_dir, time_str)
        if os.path.exists(outdir):
            raise RuntimeError('prepare_output_dir: {} exists'.format(
                outdir))
        os.makedirs(outdir)
    else:
        outdir = tempfile.mkdtemp(prefix=time_str)

    with open(os.path.join(outdir, 'args.txt'), 'w') as f:
        f.write(json.dumps(args, default=str))
    with open(os.path.join(outdir, 'environ.txt'), 'w') as f:
        f.write(json.dumps(dict(os.environ)))
    with open(os.path.join(outdir, 'command.txt'), 'w') as f:
        f.write(' '.join(sys.argv if argv is None else argv))

    if is_under_git_control():
        for name, command in (('git-head.txt', ['git', 'rev-parse', 'HEAD']),
                              ('git-status.txt', ['git', 'status']),
                              ('git-log.txt', ['git', 'log']),
                              ('git-diff.txt', ['git', 'diff', 'HEAD'])):
            _save_git_output(os.path.join(outdir, name), command)
    return outdir
