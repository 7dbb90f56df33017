"""Test sessions: ``nox -s tests`` runs chainer-core alone on NumPy."""
import nox

nox.options.sessions = ['tests']


@nox.session
def tests(session):
    session.env['OMP_NUM_THREADS'] = '2'
    session.install('-e', '.[test,digits,plot]')
    session.run('python', '-m', 'chainer_core', 'info')
    session.run('python', '-m', 'pytest', '-q', 'tests', *session.posargs)
