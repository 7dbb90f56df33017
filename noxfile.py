"""Test sessions: ``nox -s tests`` runs chainer-core alone on NumPy."""
import nox

nox.options.sessions = ['tests']


@nox.session
def tests(session):
    session.env['OMP_NUM_THREADS'] = '2'
    session.install('-e', '.[test,digits,plot]')
    session.run('python', '-m', 'chainer_core', 'info')
    session.run('python', '-m', 'pytest', '-q', 'tests', *session.posargs)


@nox.session
def mkldnn(session):
    """chainer-core with chainer-mkldnn: the plugin's tests, then the
    conformance suite on @intel64 with use_ideep 'never' (the default) and
    'auto'."""
    session.env['OMP_NUM_THREADS'] = '2'
    session.install('-e', '.[test]')
    session.install('./plugins/chainer-mkldnn')
    session.run('python', '-m', 'chainer_core', 'info')
    session.run('python', '-m', 'pytest', '-q', 'plugins/chainer-mkldnn/tests',
                *session.posargs)
    session.run('python', '-m', 'pytest', '-q', 'tests/conformance')
    session.run('python', '-m', 'pytest', '-q', 'tests/conformance',
                env={'CHAINER_USE_IDEEP': 'auto'})
