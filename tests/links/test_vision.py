"""Vision models: architectures and layer shapes as Chainer's, one forward
pass per model (at a reduced input size where the architecture allows),
preprocessing, extract/predict, and pre-trained weights from local npz
files only."""
import os
import shutil

import numpy
import pytest

import chainer_core as chainer
import chainer_core.links as L
from chainer_core import serializers
from chainer_core.dataset import download
from chainer_core.links.model.vision import _util
from chainer_core.links.model.vision import googlenet, resnet, vgg


def _images(n, h=40, w=30, seed=0):
    rs = numpy.random.RandomState(seed)
    return [rs.randint(0, 256, (h, w, 3)).astype(numpy.uint8)
            for _ in range(n)]


def _run(model, x, layers):
    with chainer.using_config('train', False), \
            chainer.using_config('enable_backprop', False):
        return model(x, layers=layers)


@pytest.fixture
def dataset_root(tmp_path):
    """A fresh dataset root for the test (restored afterwards)."""
    old = download.get_dataset_root()
    root = str(tmp_path / 'dataset_root')
    download.set_dataset_root(root)
    yield root
    download.set_dataset_root(old)


@pytest.fixture(scope='module')
def googlenet_model():
    return L.GoogLeNet(pretrained_model=None)


@pytest.fixture(scope='module')
def resnet50_model():
    return L.ResNet50Layers(pretrained_model=None)


class TestVGG:

    def test_vgg16_full_forward(self):
        model = L.VGG16Layers(pretrained_model=None)
        assert model.available_layers == [
            'conv1_1', 'conv1_2', 'pool1', 'conv2_1', 'conv2_2', 'pool2',
            'conv3_1', 'conv3_2', 'conv3_3', 'pool3', 'conv4_1', 'conv4_2',
            'conv4_3', 'pool4', 'conv5_1', 'conv5_2', 'conv5_3', 'pool5',
            'fc6', 'fc7', 'fc8', 'prob']
        params = {n: p.shape for n, p in model.namedparams()}
        assert len(params) == 32
        assert params['/conv3_3/W'] == (256, 256, 3, 3)
        assert params['/fc6/W'] == (4096, 25088)
        assert params['/fc8/b'] == (1000,)
        assert abs(model.conv2_1.W.array.std() - 0.01) < 1e-3
        assert (model.fc7.b.array == 0).all()
        x = numpy.random.RandomState(0).uniform(
            -100, 100, (1, 3, 224, 224)).astype(numpy.float32)
        out = _run(model, x, ['conv1_1', 'pool5', 'fc7', 'prob'])
        assert out['conv1_1'].shape == (1, 64, 224, 224)
        assert out['pool5'].shape == (1, 512, 7, 7)
        assert out['fc7'].shape == (1, 4096)
        prob = out['prob'].array
        assert prob.shape == (1, 1000)
        numpy.testing.assert_allclose(prob.sum(), 1, rtol=1e-5)

    def test_vgg19_reduced_input(self):
        model = L.VGG19Layers(pretrained_model=None)
        names = model.available_layers
        assert names[names.index('pool2') + 1:names.index('pool3')] == [
            'conv3_1', 'conv3_2', 'conv3_3', 'conv3_4']
        assert 'conv5_4' in names and len(list(model.params())) == 38
        x = numpy.ones((1, 3, 64, 64), numpy.float32)
        out = _run(model, x, ['conv3_4', 'pool5'])
        assert out['conv3_4'].shape == (1, 256, 16, 16)
        assert out['pool5'].shape == (1, 512, 2, 2)

    def test_bad_n_layers(self):
        with pytest.raises(ValueError):
            vgg.VGGLayers(pretrained_model=None, n_layers=11)


class TestResNet:

    def test_resnet50_layer_shapes(self, resnet50_model):
        model = resnet50_model
        assert model.available_layers == [
            'conv1', 'pool1', 'res2', 'res3', 'res4', 'res5', 'pool5', 'fc6',
            'prob']
        x = numpy.random.RandomState(0).uniform(
            -50, 50, (2, 3, 64, 64)).astype(numpy.float32)
        out = _run(model, x, model.available_layers)
        assert {k: v.shape for k, v in out.items()} == {
            'conv1': (2, 64, 32, 32), 'pool1': (2, 64, 16, 16),
            'res2': (2, 256, 16, 16), 'res3': (2, 512, 8, 8),
            'res4': (2, 1024, 4, 4), 'res5': (2, 2048, 2, 2),
            'pool5': (2, 2048), 'fc6': (2, 1000), 'prob': (2, 1000)}
        numpy.testing.assert_allclose(out['pool5'].array,
                                      out['res5'].array.mean(axis=(2, 3)),
                                      rtol=1e-5, atol=1e-6)

    def test_resnet50_structure(self, resnet50_model):
        model = resnet50_model
        assert [len(list(getattr(model, 'res{}'.format(i)).children()))
                for i in range(2, 6)] == [3, 4, 6, 3]
        shapes = {n: p.shape for n, p in model.namedparams()}
        assert shapes['/conv1/W'] == (64, 3, 7, 7)
        assert shapes['/conv1/b'] == (64,)
        assert shapes['/res3/a/conv1/W'] == (128, 256, 1, 1)
        assert shapes['/res3/a/conv4/W'] == (512, 256, 1, 1)
        assert shapes['/res5/b2/conv3/W'] == (2048, 512, 1, 1)
        assert '/res2/a/conv1/b' not in shapes
        assert model.res3.a.conv1.stride == (2, 2)
        assert model.res3.a.conv2.stride == (1, 1)
        assert shapes['/fc6/W'] == (1000, 2048)

    def test_downsample_fb(self):
        model = L.ResNet50Layers(pretrained_model=None, downsample_fb=True)
        assert model.res3.a.conv1.stride == (1, 1)
        assert model.res3.a.conv2.stride == (2, 2)
        with pytest.raises(ValueError):
            L.ResNet50Layers(pretrained_model='auto', downsample_fb=True)

    @pytest.mark.parametrize('cls, blocks', [
        (L.ResNet101Layers, [3, 4, 23, 3]),
        (L.ResNet152Layers, [3, 8, 36, 3])])
    def test_deeper_models(self, cls, blocks):
        model = cls(pretrained_model=None)
        assert [len(list(getattr(model, 'res{}'.format(i)).children()))
                for i in range(2, 6)] == blocks
        out = _run(model, numpy.ones((1, 3, 32, 32), numpy.float32),
                   ['res5', 'prob'])
        assert out['res5'].shape == (1, 2048, 1, 1)
        assert out['prob'].shape == (1, 1000)

    def test_extract(self, resnet50_model):
        with chainer.using_config('train', False):
            feats = resnet50_model.extract(_images(2), size=(48, 48))
        assert list(feats) == ['pool5'] and feats['pool5'].shape == (2, 2048)
        with chainer.using_config('train', False):
            again = resnet50_model.extract(_images(2), layers=['res4'],
                                           size=(48, 48))
        assert again['res4'].shape == (2, 1024, 3, 3)

    def test_bad_n_layers(self):
        with pytest.raises(ValueError):
            resnet.ResNetLayers(None, 34)


class TestGoogLeNet:

    def test_layer_shapes(self, googlenet_model):
        model = googlenet_model
        x = numpy.random.RandomState(1).uniform(
            -50, 50, (1, 3, 224, 224)).astype(numpy.float32)
        out = _run(model, x, model.available_layers)
        shapes = {k: v.shape[1:] for k, v in out.items()}
        assert list(model.available_layers) == list(
            googlenet_model.functions)
        assert shapes == {
            'conv1': (64, 112, 112), 'pool1': (64, 56, 56),
            'conv2_reduce': (64, 56, 56), 'conv2': (192, 56, 56),
            'pool2': (192, 28, 28), 'inception_3a': (256, 28, 28),
            'inception_3b': (480, 28, 28), 'pool3': (480, 14, 14),
            'inception_4a': (512, 14, 14), 'inception_4b': (512, 14, 14),
            'inception_4c': (512, 14, 14), 'inception_4d': (528, 14, 14),
            'inception_4e': (832, 14, 14), 'pool4': (832, 7, 7),
            'inception_5a': (832, 7, 7), 'inception_5b': (1024, 7, 7),
            'pool5': (1024, 1, 1), 'loss3_fc': (1000,), 'prob': (1000,)}
        numpy.testing.assert_allclose(out['prob'].array.sum(), 1, rtol=1e-5)

    def test_parameters(self, googlenet_model):
        shapes = {n: p.shape for n, p in googlenet_model.namedparams()}
        assert shapes['/inc4e/conv5/W'] == (128, 32, 5, 5)
        assert shapes['/loss1_fc1/W'] == (1024, 2048)
        assert shapes['/loss2_conv/W'] == (128, 528, 1, 1)
        assert shapes['/loss3_fc/W'] == (1000, 1024)
        assert googlenet_model.count_params() == sum(
            int(numpy.prod(s)) for s in shapes.values())

    def test_save_and_load_pretrained_path(self, googlenet_model, tmp_path,
                                           dataset_root):
        path = str(tmp_path / 'googlenet.npz')
        serializers.save_npz(path, googlenet_model, compression=False)
        loaded = L.GoogLeNet(pretrained_model=path)
        for (n, p), (_, q) in zip(googlenet_model.namedparams(),
                                  loaded.namedparams()):
            numpy.testing.assert_array_equal(p.array, q.array, err_msg=n)
        images = _images(1, 230, 210, seed=3)
        expected = googlenet_model.predict(images, oversample=False)
        actual = loaded.predict(images, oversample=False)
        assert actual.shape == (1, 1000)
        numpy.testing.assert_array_equal(actual.array, expected.array)
        # 'auto' reads the same file from the models folder.
        target = os.path.join(_util.models_dir(), 'bvlc_googlenet.npz')
        os.makedirs(os.path.dirname(target))
        shutil.copy(path, target)
        auto = L.GoogLeNet()
        numpy.testing.assert_array_equal(auto.inc5b.conv1.W.array,
                                         googlenet_model.inc5b.conv1.W.array)

    def test_extract_pil_and_arrays(self, googlenet_model):
        PIL = pytest.importorskip('PIL.Image')
        images = _images(2, 50, 60)
        pil = PIL.fromarray(images[0])
        with chainer.using_config('train', False):
            feats = googlenet_model.extract([pil, images[0], images[1]],
                                            layers=['pool2'], size=(64, 64))
        h = feats['pool2'].array
        assert h.shape == (3, 192, 8, 8)
        numpy.testing.assert_array_equal(h[0], h[1])
        assert not numpy.array_equal(h[1], h[2])


class TestPretrainedFiles:

    def test_auto_missing_file(self, dataset_root):
        with pytest.raises(FileNotFoundError) as e:
            L.VGG16Layers()
        message = str(e.value)
        expected = os.path.join(dataset_root, 'pfnet', 'chainer', 'models',
                                'VGG_ILSVRC_16_layers.npz')
        assert expected in message
        assert 'CHAINER_DATASET_ROOT' in message
        assert 'save_npz' in message and 'convert_caffemodel_to_npz' in \
            message

    @pytest.mark.parametrize('make, filename', [
        (lambda: L.ResNet152Layers(), 'ResNet-152-model.npz'),
        (lambda: L.GoogLeNet(), 'bvlc_googlenet.npz'),
        (lambda: L.VGG19Layers(), 'VGG_ILSVRC_19_layers.npz')])
    def test_auto_file_names(self, make, filename, dataset_root):
        with pytest.raises(FileNotFoundError, match=filename):
            make()

    def test_missing_path(self, tmp_path):
        path = str(tmp_path / 'nothing.npz')
        with pytest.raises(FileNotFoundError, match='nothing.npz'):
            L.ResNet50Layers(pretrained_model=path)

    def test_models_dir_follows_the_dataset_root(self, dataset_root):
        assert _util.models_dir() == os.path.join(
            dataset_root, 'pfnet', 'chainer', 'models')


class TestForwardArguments:

    def test_unknown_layer(self, resnet50_model):
        with pytest.raises(ValueError, match='fc7'):
            resnet50_model(numpy.ones((1, 3, 32, 32), numpy.float32),
                           layers=['fc7'])

    def test_removed_test_argument(self, resnet50_model):
        with pytest.raises(ValueError, match='using_config'):
            resnet50_model(numpy.ones((1, 3, 32, 32), numpy.float32),
                           test=True)

    def test_stops_after_requested_layers(self, resnet50_model):
        calls = []
        resnet50_model.res3.add_hook(_Recorder(calls))
        try:
            _run(resnet50_model, numpy.ones((1, 3, 32, 32), numpy.float32),
                 ['res2'])
            assert calls == []
            _run(resnet50_model, numpy.ones((1, 3, 32, 32), numpy.float32),
                 ['res3'])
            assert calls == ['res3']
        finally:
            resnet50_model.res3.delete_hook('recorder')

    def test_default_layer_is_prob(self, resnet50_model):
        out = _run(resnet50_model, numpy.ones((1, 3, 32, 32),
                                              numpy.float32), None)
        assert list(out) == ['prob']


class _Recorder(chainer.link_hook.LinkHook):
    name = 'recorder'

    def __init__(self, calls):
        self.calls = calls

    def forward_preprocess(self, args):
        self.calls.append(args.link.name)


class TestPrepare:

    def test_mean_order_and_layout(self):
        image = numpy.zeros((2, 3, 3), numpy.uint8)
        image[..., 0] = 200
        image[..., 1] = 100
        image[..., 2] = 50
        x = vgg.prepare(image, size=None)
        assert x.shape == (3, 2, 3) and x.dtype == numpy.float32
        numpy.testing.assert_allclose(x[:, 0, 0], [50 - 103.939,
                                                   100 - 116.779,
                                                   200 - 123.68], rtol=1e-6)
        r = resnet.prepare(image, size=None)
        numpy.testing.assert_allclose(r[:, 1, 2], [50 - 103.063,
                                                   100 - 115.903,
                                                   200 - 123.152], rtol=1e-6)
        g = googlenet.prepare(image, size=None)
        numpy.testing.assert_allclose(g[:, 0, 1], [-54, -17, 77])

    def test_resize_is_width_height(self):
        x = vgg.prepare(_images(1, 40, 30)[0], size=(20, 10))
        assert x.shape == (3, 10, 20)
        assert vgg.prepare(_images(1)[0]).shape == (3, 224, 224)

    def test_resize_values(self):
        image = numpy.zeros((2, 2, 3), numpy.uint8)
        image[:, 1] = 200
        x = googlenet.prepare(image, size=(4, 2))
        # Along the width, pixel centres interpolate between 0 and 200.
        numpy.testing.assert_allclose(x[2, 0] + 123, [0, 50, 150, 200])
        constant = numpy.full((5, 7, 3), 90, numpy.uint8)
        numpy.testing.assert_allclose(
            googlenet.prepare(constant, size=(3, 11))[0] + 104, 90)

    def test_input_layouts(self):
        hwc = _images(1, 6, 5)[0]
        chw = hwc.transpose(2, 0, 1)
        numpy.testing.assert_array_equal(vgg.prepare(chw, None),
                                         vgg.prepare(hwc, None))
        rgba = numpy.concatenate([hwc, numpy.zeros((6, 5, 1), numpy.uint8)],
                                 axis=2)
        numpy.testing.assert_array_equal(vgg.prepare(rgba, None),
                                         vgg.prepare(hwc, None))
        gray = hwc[:, :, 0]
        x = vgg.prepare(gray, None) + numpy.array(
            [103.939, 116.779, 123.68], numpy.float32)[:, None, None]
        numpy.testing.assert_allclose(x[0], x[2])
        numpy.testing.assert_array_equal(vgg.prepare(gray[None], None),
                                         vgg.prepare(gray, None))
        numpy.testing.assert_array_equal(
            vgg.prepare(hwc.astype(numpy.float32), None),
            vgg.prepare(hwc, None))
        with pytest.raises(ValueError):
            vgg.prepare(numpy.zeros((2, 3, 4, 5)), None)

    def test_pil_image(self):
        PIL = pytest.importorskip('PIL.Image')
        hwc = _images(1, 6, 5)[0]
        numpy.testing.assert_array_equal(
            resnet.prepare(PIL.fromarray(hwc), (8, 8)),
            resnet.prepare(hwc, (8, 8)))


class TestOversampleAndPredict:

    def test_oversample_crops(self):
        images = numpy.arange(2 * 1 * 4 * 5, dtype=numpy.float32).reshape(
            2, 1, 4, 5)
        crops = _util.oversample(images, (2, 3))
        assert crops.shape == (20, 1, 2, 3)
        img = images[1, 0]
        numpy.testing.assert_array_equal(crops[10, 0], img[0:2, 0:3])
        numpy.testing.assert_array_equal(crops[11, 0], img[0:2, 2:5])
        numpy.testing.assert_array_equal(crops[12, 0], img[2:4, 0:3])
        numpy.testing.assert_array_equal(crops[13, 0], img[2:4, 2:5])
        numpy.testing.assert_array_equal(crops[14, 0], img[1:3, 1:4])
        numpy.testing.assert_array_equal(crops[15, 0], img[0:2, 0:3][:, ::-1])
        numpy.testing.assert_array_equal(crops[19, 0], img[1:3, 1:4][:, ::-1])
        with pytest.raises(ValueError):
            _util.oversample(images, (5, 5))

    def test_predict_averages_the_crops(self):
        seen = {}

        class Probe(chainer.Link):
            def forward(self, x, layers):
                seen['train'] = chainer.config.train
                seen['shape'] = x.shape
                # One "probability" per crop: its mean value.
                return {'prob': chainer.functions.mean(x, axis=(1, 2, 3),
                                                       keepdims=False)[:,
                                                                       None]}

        images = _images(2, 300, 280)
        y = _util.predict(Probe(), images, True, vgg.prepare)
        assert seen == {'train': False, 'shape': (20, 3, 224, 224)}
        x = numpy.stack([vgg.prepare(i, (256, 256)) for i in images])
        crops = _util.oversample(x, (224, 224))
        expected = crops.mean(axis=(1, 2, 3)).reshape(2, 10).mean(1)
        numpy.testing.assert_allclose(y.array[:, 0], expected, rtol=1e-5)
        y = _util.predict(Probe(), images, False, vgg.prepare)
        numpy.testing.assert_allclose(
            y.array[:, 0], x[:, :, 16:240, 16:240].mean(axis=(1, 2, 3)),
            rtol=1e-5)
        assert not y.requires_grad or y.creator is None

    def test_resnet_predict_center_crop(self, resnet50_model):
        y = resnet50_model.predict(_images(1, 260, 256), oversample=False)
        assert y.shape == (1, 1000)
        numpy.testing.assert_allclose(y.array.sum(), 1, rtol=1e-5)


class TestChainerSignatures:

    def test_available(self):
        from chainer_core.links.model.vision import googlenet, resnet, vgg
        assert googlenet.available and resnet.available and vgg.available

    def test_building_block_n_layers_and_former_name(self):
        from chainer_core.links.model.vision.resnet import BuildingBlock
        for block in (BuildingBlock(3, 4, 2, 8, 1),
                      BuildingBlock(n_layer=3, in_channels=4, mid_channels=2,
                                    out_channels=8, stride=1)):
            assert [n for n, _ in block.namedlinks(skipself=True)
                    if n.count('/') == 1] == ['/a', '/b1', '/b2']
        with pytest.raises(TypeError, match='not both'):
            BuildingBlock(2, 4, 2, 8, 1, n_layer=3)
        with pytest.raises(TypeError, match='stride'):
            BuildingBlock(2, 4, 2, 8)
        with pytest.raises(TypeError, match='foo'):
            BuildingBlock(2, 4, 2, 8, 1, foo=1)
