"""Check whether a command runs successfully."""
import subprocess


def is_return_code_zero(args):
    """Run ``args`` (a list, as for ``subprocess``) with its output
    discarded; True if it exits with status 0, False if it fails or cannot
    be started."""
    try:
        completed = subprocess.run(args, stdout=subprocess.DEVNULL,
                                   stderr=subprocess.DEVNULL)
    except OSError:
        return False
    return completed.returncode == 0
