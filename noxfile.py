"""Test sessions: ``nox -s tests`` runs chainer-core alone on NumPy."""
import nox

nox.options.sessions = ['tests']


@nox.session
def tests(session):
    session.env['OMP_NUM_THREADS'] = '2'
    session.install('-e', '.[test,digits,plot,images,hdf5]')
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


@nox.session
def mn(session):
    """chainer-core with chainer-mn (mpi4py and the MPICH wheel): the
    plugin's tests, which launch mpiexec -n 2 and -n 3."""
    session.env['OMP_NUM_THREADS'] = '1'
    session.install('-e', '.[test,digits]')
    session.install('./plugins/chainer-mn[test]')
    session.run('python', '-m', 'chainer_core', 'info')
    session.run('python', '-m', 'pytest', '-q', 'plugins/chainer-mn/tests',
                *session.posargs)


@nox.session
def native(session):
    """chainer-core with the chainer-native backend: the plugin's tests and
    the conformance suite, which then runs on native:0 as well."""
    session.env['OMP_NUM_THREADS'] = '2'
    session.env['CHAINER_NATIVE_THREADS'] = '2'
    session.install('-e', '.[test]')
    session.install('./plugins/chainer-native')
    session.run('python', '-m', 'chainer_core', 'info')
    session.run('python', '-m', 'pytest', '-q',
                'plugins/chainer-native/tests', 'tests/conformance',
                *session.posargs)
