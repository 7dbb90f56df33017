"""Test sessions: one per job of .ci/matrix.json (``nox -l`` lists them);
``nox`` alone runs ``core``, chainer-core alone on NumPy. Arguments after
``--`` go to every pytest run of the session."""
import json
import pathlib

import nox

MATRIX = pathlib.Path(__file__).parent / '.ci' / 'matrix.json'
JOBS = json.loads(MATRIX.read_text())['jobs']

nox.options.sessions = ['core']


def _session(name):
    def session(s):
        s.run('python', '.ci/matrix.py', 'install', name)
        s.run('python', '.ci/matrix.py', 'run', name, *s.posargs)
    session.__doc__ = JOBS[name]['description']
    return nox.session(session, name=name)


for _name in JOBS:
    globals()[_name] = _session(_name)
