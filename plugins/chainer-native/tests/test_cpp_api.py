"""The C++ API without Python: the programs of examples/cpp built with CMake
against the installed package (find_package(ChainerNative)), weights saved
by chainer_core.serializers.save_npz loaded into them, the library's own
.npz reader and writer, and the derivative rules built into the library."""
import os
import re
import shutil
import subprocess
import sys
import zipfile

import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F
import chainer_core.links as L
import chainer_native

HERE = os.path.dirname(os.path.abspath(__file__))
PLUGIN = os.path.dirname(HERE)
EXAMPLES = os.path.join(PLUGIN, 'examples', 'cpp')


def _core():
    return chainer_native._load()


def _cxx_compiler():
    for name in (os.environ.get('CXX'), 'c++', 'g++', 'clang++'):
        if name and shutil.which(name):
            return shutil.which(name)
    return None


def _run(cmd, **kwargs):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          universal_newlines=True, **kwargs)


def _cannot_build(reason):
    # CI sets CHAINER_NATIVE_CPP_TESTS=require, so that these tests never
    # pass there by skipping.
    if os.environ.get('CHAINER_NATIVE_CPP_TESTS') == 'require':
        pytest.fail(reason + ' (CHAINER_NATIVE_CPP_TESTS=require)')
    pytest.skip(reason)


@pytest.fixture(scope='module')
def programs(tmp_path_factory):
    """The example programs, built once per test run against the installed
    library (which is linked, not rebuilt)."""
    cmake = shutil.which('cmake')
    if cmake is None:
        _cannot_build('cmake is not installed (pip install cmake): the C++ '
                      'examples cannot be built')
    cxx = _cxx_compiler()
    if cxx is None:
        _cannot_build('no C++ compiler (c++, g++ or clang++) found: the C++ '
                      'examples cannot be built')
    build = str(tmp_path_factory.mktemp('cpp_examples'))
    configure = _run([cmake, '-S', EXAMPLES, '-B', build,
                      '-DCMAKE_BUILD_TYPE=Release',
                      '-DCMAKE_CXX_COMPILER=' + cxx,
                      '-DChainerNative_DIR=' + chainer_native.get_cmake_dir()])
    assert configure.returncode == 0, configure.stdout + configure.stderr
    built = _run([cmake, '--build', build, '-j', '2'])
    assert built.returncode == 0, built.stdout + built.stderr
    paths = {name: os.path.join(build, name)
             for name in ('train_mlp', 'infer_npz')}
    for path in paths.values():
        assert os.path.exists(path)
    return paths


# -- the installed package ---------------------------------------------------

def test_python_m_chainer_native_cmake_dir():
    out = _run([sys.executable, '-m', 'chainer_native', '--cmake-dir'])
    assert out.returncode == 0, out.stderr
    cmake_dir = out.stdout.strip()
    assert cmake_dir == chainer_native.get_cmake_dir()
    assert os.path.isfile(os.path.join(cmake_dir, 'ChainerNativeConfig.cmake'))
    assert os.path.isfile(os.path.join(
        cmake_dir, 'ChainerNativeConfigVersion.cmake'))
    include = chainer_native.get_include()
    for header in ('chainer_native.h', 'array.h', 'graph.h', 'npz.h',
                   'optimizer.h', 'version.h'):
        assert os.path.isfile(os.path.join(include, 'chainer_native', header))
    assert os.path.isfile(os.path.join(chainer_native.get_library_dir(),
                                       'libchainer_native.so'))


def test_installed_headers_are_free_of_python():
    folder = os.path.join(chainer_native.get_include(), 'chainer_native')
    for name in os.listdir(folder):
        with open(os.path.join(folder, name)) as f:
            text = f.read()
        assert 'Python.h' not in text and 'pybind11' not in text, name


def _dynamic_section(path):
    readelf = shutil.which('readelf')
    if readelf is None:
        pytest.skip('readelf (binutils) is not installed')
    out = _run([readelf, '-W', '-d', '--dyn-syms', path])
    assert out.returncode == 0, out.stderr
    return out.stdout


def test_library_has_no_python_and_the_extension_links_it():
    lib = os.path.join(chainer_native.get_library_dir(), 'libchainer_native.so')
    text = _dynamic_section(lib)
    assert 'libpython' not in text
    # No undefined Python C-API symbol: the library loads without CPython.
    undefined = [line.split()[-1] for line in text.splitlines()
                 if ' UND ' in line]
    assert not [s for s in undefined if s.startswith(('Py', '_Py'))]
    # The extension is the bindings only: it needs the library, and takes
    # the library's functions from it (undefined in the extension itself)
    # rather than carrying a copy of them.
    ext_text = _dynamic_section(_core().__file__)
    assert re.search(r'NEEDED.*\[libchainer_native\.so\]', ext_text)
    assert re.search(r' UND _ZN2cn5Array5emptyE', ext_text)


def test_builtin_rules_match_core():
    """The derivative rules compiled into the library (what a C++ program
    runs) are the core's: regenerate csrc/builtin_rules.cc when a rule
    changes."""
    out = _run([sys.executable, os.path.join(PLUGIN, 'tools',
                                             'gen_builtin_rules.py'),
                '--check'])
    assert out.returncode == 0, out.stderr


# -- training in C++ ---------------------------------------------------------

def test_train_mlp_loss_falls(programs):
    out = _run([programs['train_mlp'], '--steps', '200', '--seed', '0',
                '--threads', '1', '--print-every', '20'], timeout=300)
    assert out.returncode == 0, out.stdout + out.stderr
    losses = [float(m) for m in re.findall(r'^step\s+\d+\s+loss\s+(\S+)$',
                                           out.stdout, re.M)]
    assert len(losses) >= 5, out.stdout
    assert all(numpy.isfinite(losses))
    assert losses[-1] < losses[0] / 2, out.stdout
    assert re.search(r'^time per step: [0-9.]+ ms', out.stdout, re.M)
    accuracy = float(re.search(r'train accuracy (\S+)', out.stdout).group(1))
    assert accuracy > 0.8, out.stdout


def test_train_mlp_is_reproducible(programs):
    args = [programs['train_mlp'], '--steps', '30', '--seed', '3',
            '--threads', '1', '--print-every', '10']
    a = _run(args, timeout=300)
    b = _run(args, timeout=300)
    assert a.returncode == 0 and b.returncode == 0, a.stderr + b.stderr

    def losses(text):
        return re.findall(r'^step.*$', text, re.M)

    assert losses(a.stdout) == losses(b.stdout)


# -- a model trained in Python, run in C++ -----------------------------------

class MLP(chainer.Chain):

    def __init__(self, sizes):
        super().__init__()
        self.n_layers = len(sizes) - 1
        with self.init_scope():
            for i in range(self.n_layers):
                setattr(self, 'l{}'.format(i + 1),
                        L.Linear(sizes[i], sizes[i + 1]))

    def forward(self, x):
        for i in range(self.n_layers):
            x = getattr(self, 'l{}'.format(i + 1))(x)
            if i + 1 < self.n_layers:
                x = F.relu(x)
        return x


SIZES = (4, 32, 16, 3)


def _trained_model(device='@numpy'):
    rng = numpy.random.RandomState(0)
    model = MLP(SIZES)
    classifier = L.Classifier(model)
    classifier.to_device(device)
    opt = chainer.optimizers.Adam(alpha=0.01).setup(classifier)
    x = rng.randn(64, SIZES[0]).astype(numpy.float32)
    t = (x[:, 0] > 0).astype(numpy.int32) + (x[:, 1] > 0).astype(numpy.int32)
    dev = chainer.get_device(device)
    for _ in range(20):
        loss = classifier(dev.send(x), dev.send(t))
        classifier.cleargrads()
        loss.backward()
        opt.update()
    classifier.to_device('@numpy')
    return classifier


@pytest.fixture(scope='module')
def trained():
    return _trained_model()


def _inputs(path, n=10, dtype=numpy.float32):
    x = numpy.random.RandomState(1).randn(n, SIZES[0]).astype(dtype)
    numpy.savez_compressed(path, x=x)
    return x


def _sizes(sizes):
    return ','.join(str(s) for s in sizes)


@pytest.mark.parametrize('compression', [True, False])
def test_infer_npz_matches_python(programs, trained, tmp_path, compression):
    model = trained.predictor
    path = str(tmp_path / 'model.npz')
    chainer.serializers.save_npz(path, model, compression=compression)
    x = _inputs(str(tmp_path / 'x.npz'))
    out = str(tmp_path / 'y.npz')
    run = _run([programs['infer_npz'], path, str(tmp_path / 'x.npz'),
                '--sizes', _sizes(SIZES), '--out', out], timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
    with chainer.using_config('train', False):
        expected = model(x).array
    with numpy.load(out) as f:
        y = f['y']
    assert y.dtype == numpy.float32 and y.shape == expected.shape
    numpy.testing.assert_allclose(y, expected, rtol=1e-5, atol=1e-5)
    # The program prints the first rows too.
    assert 'y[0] =' in run.stdout


def test_infer_npz_classifier_prefix(programs, trained, tmp_path):
    """A model saved inside L.Classifier has its keys under predictor/."""
    path = str(tmp_path / 'classifier.npz')
    chainer.serializers.save_npz(path, trained)
    with numpy.load(path) as f:
        assert 'predictor/l1/W' in f.files
    x = _inputs(str(tmp_path / 'x.npz'))
    out = str(tmp_path / 'y.npz')
    run = _run([programs['infer_npz'], path, str(tmp_path / 'x.npz'),
                '--sizes', _sizes(SIZES), '--prefix', 'predictor/',
                '--out', out], timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
    with numpy.load(out) as f:
        numpy.testing.assert_allclose(
            f['y'], trained.predictor(x).array, rtol=1e-5, atol=1e-5)


def test_infer_npz_model_trained_on_native(programs, tmp_path):
    """Weights trained on the native device save and load the same way."""
    classifier = _trained_model('native:0')
    path = str(tmp_path / 'model.npz')
    chainer.serializers.save_npz(path, classifier.predictor)
    x = _inputs(str(tmp_path / 'x.npz'))
    out = str(tmp_path / 'y.npz')
    run = _run([programs['infer_npz'], path, str(tmp_path / 'x.npz'),
                '--sizes', _sizes(SIZES), '--out', out], timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
    with numpy.load(out) as f:
        numpy.testing.assert_allclose(
            f['y'], classifier.predictor(x).array, rtol=1e-5, atol=1e-5)


# -- bad input ----------------------------------------------------------------

def _params(model):
    return {name.lstrip('/'): p.array for name, p in model.namedparams()}


def _infer_error(programs, tmp_path, model_path, sizes=SIZES, extra=()):
    _inputs(str(tmp_path / 'x.npz'))
    run = _run([programs['infer_npz'], model_path, str(tmp_path / 'x.npz'),
                '--sizes', _sizes(sizes)] + list(extra), timeout=120)
    assert run.returncode == 1, run.stdout + run.stderr
    assert not os.path.exists(str(tmp_path / 'y.npz'))
    return run.stderr


def test_wrong_shape_names_key_and_shapes(programs, trained, tmp_path):
    path = str(tmp_path / 'model.npz')
    chainer.serializers.save_npz(path, trained.predictor)
    err = _infer_error(programs, tmp_path, path, sizes=(5, 32, 16, 3))
    assert 'does not match the model' in err
    assert ('l1/W: the model expects (32, 5) float32, the file holds '
            '(32, 4) float32') in err
    # Only what differs is listed.
    assert 'l2/W' not in err and 'l1/b' not in err


def test_missing_key_names_key(programs, trained, tmp_path):
    path = str(tmp_path / 'model.npz')
    chainer.serializers.save_npz(path, trained.predictor)
    err = _infer_error(programs, tmp_path, path, sizes=SIZES + (2,))
    assert 'l4/W: missing from the file (the model expects (2, 3) float32)' \
        in err
    assert 'l4/b: missing from the file (the model expects (2,) float32)' \
        in err


def test_wrong_dtype_names_key_and_dtypes(programs, trained, tmp_path):
    params = _params(trained.predictor)
    params['l2/W'] = params['l2/W'].astype(numpy.float64)
    path = str(tmp_path / 'model.npz')
    numpy.savez_compressed(path, **params)
    err = _infer_error(programs, tmp_path, path)
    assert ('l2/W: the model expects (16, 32) float32, the file holds '
            '(16, 32) float64') in err


def test_unused_array_is_reported(programs, trained, tmp_path):
    """A file with a layer the model lacks (a deeper network) is refused."""
    path = str(tmp_path / 'model.npz')
    chainer.serializers.save_npz(path, trained.predictor)
    err = _infer_error(programs, tmp_path, path, sizes=(4, 32, 16))
    assert 'l2/W: the model expects (16, 32) float32' not in err
    assert 'l3/W: in the file, but the model has no such parameter' in err


def test_wrong_prefix(programs, trained, tmp_path):
    path = str(tmp_path / 'model.npz')
    chainer.serializers.save_npz(path, trained)
    err = _infer_error(programs, tmp_path, path)
    assert "l1/W: missing from the file" in err
    assert 'predictor/l1/W' in err  # what the file has instead


def test_not_an_npz(programs, tmp_path):
    path = str(tmp_path / 'model.npz')
    with open(path, 'wb') as f:
        f.write(b'this is not a zip archive' * 10)
    err = _infer_error(programs, tmp_path, path)
    assert 'not a valid zip (npz) archive' in err


def test_truncated_npz(programs, trained, tmp_path):
    path = str(tmp_path / 'model.npz')
    chainer.serializers.save_npz(path, trained.predictor)
    with open(path, 'rb') as f:
        data = f.read()
    with open(path, 'wb') as f:
        f.write(data[:len(data) // 2])
    err = _infer_error(programs, tmp_path, path)
    assert 'zip' in err


def test_missing_file(programs, tmp_path):
    err = _infer_error(programs, tmp_path, str(tmp_path / 'nowhere.npz'))
    assert 'cannot open' in err and 'nowhere.npz' in err


# -- the library's .npz reader ------------------------------------------------

_DTYPES = [numpy.bool_, numpy.int8, numpy.int16, numpy.int32, numpy.int64,
           numpy.uint8, numpy.float16, numpy.float32, numpy.float64]


def _sample(dtype, shape, seed=0):
    rng = numpy.random.RandomState(seed)
    return (rng.randn(*shape) * 50).astype(dtype)


def _read(path):
    return {k: numpy.asarray(v) for k, v in _core()._read_npz(str(path)).items()}


def _check_same(got, expected):
    assert set(got) == set(expected)
    for k, v in expected.items():
        assert got[k].dtype == v.dtype, k
        assert got[k].shape == v.shape, k
        numpy.testing.assert_array_equal(got[k], v)


@pytest.mark.parametrize('save', [numpy.savez, numpy.savez_compressed])
@pytest.mark.parametrize('order', ['C', 'F'])
def test_reader_dtypes_and_orders(tmp_path, save, order):
    arrays = {'a{}'.format(i): numpy.asarray(_sample(d, (3, 4, 5), i),
                                              order=order)
              for i, d in enumerate(_DTYPES)}
    arrays['scalar'] = numpy.float32(3.5) * numpy.ones(())
    arrays['empty'] = numpy.zeros((0, 3), numpy.float32)
    arrays['nested/name/W'] = _sample(numpy.float32, (7,))
    path = tmp_path / 'a.npz'
    save(str(path), **arrays)
    got = _read(path)
    _check_same(got, arrays)
    if order == 'F':
        assert got['a7'].flags.f_contiguous


def test_reader_big_endian(tmp_path):
    arrays = {'f': _sample('>f4', (4, 3)), 'i': _sample('>i8', (5,)),
              'h': _sample('>f2', (2, 2))}
    path = tmp_path / 'be.npz'
    numpy.savez(str(path), **arrays)
    got = _read(path)
    for k, v in arrays.items():
        numpy.testing.assert_array_equal(got[k], v.astype(v.dtype.newbyteorder('=')))


@pytest.mark.parametrize('version', [(1, 0), (2, 0), (3, 0)])
def test_reader_npy_versions(tmp_path, version):
    a = _sample(numpy.float32, (6, 5))
    path = tmp_path / 'v.npz'
    with zipfile.ZipFile(str(path), 'w', compression=zipfile.ZIP_DEFLATED) as z:
        with z.open('a.npy', 'w') as f:
            numpy.lib.format.write_array(f, a, version=version)
    _check_same(_read(path), {'a': a})


@pytest.mark.parametrize('level', [0, 1, 6, 9])
def test_reader_deflate_levels(tmp_path, level):
    """Stored, fixed and dynamic Huffman blocks, long matches and runs."""
    rng = numpy.random.RandomState(level)
    arrays = {
        'noise': rng.randn(20000).astype(numpy.float32),
        'runs': numpy.repeat(rng.randint(0, 4, 3000), 37).astype(numpy.int8),
        'ramp': numpy.arange(50000, dtype=numpy.int64) % 1000,
        'zeros': numpy.zeros(70000, numpy.uint8),
        'tiny': numpy.arange(3, dtype=numpy.int16),
    }
    path = tmp_path / 'levels.npz'
    with zipfile.ZipFile(str(path), 'w', compression=zipfile.ZIP_DEFLATED,
                         compresslevel=level) as z:
        for name, a in arrays.items():
            with z.open(name + '.npy', 'w') as f:
                numpy.lib.format.write_array(f, a)
    _check_same(_read(path), arrays)


def test_reader_zip64(tmp_path):
    """numpy writes zip64 local headers; a zip64 end record is read too."""
    a = _sample(numpy.float64, (100,))
    path = tmp_path / 'z64.npz'
    with zipfile.ZipFile(str(path), 'w', compression=zipfile.ZIP_DEFLATED,
                         allowZip64=True) as z:
        with z.open('a.npy', 'w', force_zip64=True) as f:
            numpy.lib.format.write_array(f, a)
    _check_same(_read(path), {'a': a})
    # Rewrite the end of the archive with a zip64 end record and locator
    # in front of the classic one, whose fields say "see zip64".
    data = bytearray(path.read_bytes())
    end = data.rfind(b'PK\x05\x06')
    import struct
    (_, _, _, n_disk, n_total, cd_size, cd_offset, _) = struct.unpack(
        '<IHHHHIIH', bytes(data[end:end + 22]))
    z64_offset = end
    z64 = struct.pack('<IQHHIIQQQQ', 0x06064b50, 44, 45, 45, 0, 0,
                      n_disk, n_total, cd_size, cd_offset)
    locator = struct.pack('<IIQI', 0x07064b50, 0, z64_offset, 1)
    classic = struct.pack('<IHHHHIIH', 0x06054b50, 0, 0, 0xffff, 0xffff,
                          0xffffffff, 0xffffffff, 0)
    path.write_bytes(bytes(data[:end]) + z64 + locator + classic)
    _check_same(_read(path), {'a': a})


def test_reader_errors(tmp_path):
    core = _core()
    with pytest.raises(OSError, match='cannot open'):
        core._read_npz(str(tmp_path / 'missing.npz'))
    complex_path = tmp_path / 'c.npz'
    numpy.savez(str(complex_path), z=numpy.ones(3, numpy.complex64))
    with pytest.raises(TypeError, match=r"array 'z'.*complex"):
        core._read_npz(str(complex_path))
    wide = tmp_path / 'u.npz'
    numpy.savez(str(wide), u=numpy.ones(3, numpy.uint32))
    with pytest.raises(TypeError, match=r"array 'u'.*'<u4'"):
        core._read_npz(str(wide))
    # A flipped byte in the data: the CRC catches it.
    good = tmp_path / 'g.npz'
    numpy.savez(str(good), a=numpy.arange(100, dtype=numpy.float32))
    data = bytearray(good.read_bytes())
    data[200] ^= 0xff
    bad = tmp_path / 'bad.npz'
    bad.write_bytes(bytes(data))
    with pytest.raises(ValueError, match='CRC-32'):
        core._read_npz(str(bad))
    # A corrupt deflate stream.
    numpy.savez_compressed(str(good), a=numpy.arange(1000, dtype=numpy.int64))
    data = bytearray(good.read_bytes())
    start = data.find(b'a.npy') + len('a.npy') + 20
    for i in range(start, start + 40):
        data[i] ^= 0x5a
    bad.write_bytes(bytes(data))
    with pytest.raises(ValueError, match='deflate|CRC-32'):
        core._read_npz(str(bad))


_DAMAGE = """
import io, random, sys
import numpy
import chainer_native
read = chainer_native._load()._read_npz
rng = random.Random(0)
goods = []
for save in (numpy.savez, numpy.savez_compressed):
    buf = io.BytesIO()
    save(buf, a=numpy.arange(3000, dtype=numpy.float32).reshape(30, 100),
         f=numpy.asfortranarray(numpy.ones((3, 4), numpy.int16)))
    goods.append(buf.getvalue())
path = sys.argv[1]
for i in range(400):
    data = bytearray(rng.choice(goods))
    kind = i % 4
    p = rng.randrange(len(data))
    if kind == 0:
        for _ in range(rng.randrange(1, 8)):
            data[rng.randrange(len(data))] = rng.randrange(256)
    elif kind == 1:
        del data[p:]
    elif kind == 2:
        data[p:p] = bytes(rng.randrange(256) for _ in range(20))
    else:
        del data[p:p + rng.randrange(1, 50)]
    with open(path, 'wb') as f:
        f.write(data)
    try:
        read(path)
    except (ValueError, TypeError, KeyError):
        pass
print('done')
"""


def test_reader_never_crashes_on_damaged_files(tmp_path):
    """Flipped, cut, inserted and deleted bytes: an exception each time,
    never a crash (run in a subprocess, where a crash fails the test)."""
    out = _run([sys.executable, '-c', _DAMAGE, str(tmp_path / 'd.npz')],
               timeout=300)
    assert out.returncode == 0 and 'done' in out.stdout, out.stderr[-2000:]


def test_reader_refuses_pickled_objects(tmp_path):
    path = tmp_path / 'o.npz'
    numpy.savez(str(path), o=numpy.array([None, 1], dtype=object))
    with pytest.raises(TypeError, match="array 'o'.*Python objects"):
        _core()._read_npz(str(path))


def test_writer_round_trip(tmp_path):
    arrays = {'a{}'.format(i): _sample(d, (2, 3), i)
              for i, d in enumerate(_DTYPES)}
    arrays['layer/W'] = numpy.asfortranarray(_sample(numpy.float32, (3, 4)))
    path = tmp_path / 'w.npz'
    _core()._write_npz(str(path), {k: chainer_native.asarray(v)
                                   for k, v in arrays.items()})
    with numpy.load(str(path), allow_pickle=False) as f:
        _check_same({k: f[k] for k in f.files}, arrays)
    _check_same(_read(path), arrays)
    assert not os.path.exists(str(path) + '.tmp')
