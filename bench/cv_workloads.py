"""chainer-cv inference workloads and their PyTorch reference.

``ssd300_predict`` and ``faster_rcnn_vgg16_predict`` time ``predict`` on
``batch`` random 3x300x300 images (20 foreground classes);
``resnet50_infer`` times ResNet-50's forward pass (softmax included) on a
``(batch, 3, 224, 224)`` array in test mode without backprop.

The PyTorch side is a module per model written here, layer for layer the
chainer-cv architecture (same pooling rounding, dilations, heads, default
boxes and anchors), whose weights are copied from the chainer-cv model built
with the same seed, so both sides compute the same detections. What each
side does per ``predict``:

- both resize with Pillow channel by channel (SSD: to 300x300; Faster
  R-CNN: the shorter side to 600) and subtract the mean, in NumPy;
- the networks run in the framework (PyTorch: ``torch.no_grad``); Faster
  R-CNN's RoI max pooling is chainer-core's ``F.roi_pooling_2d`` on one
  side and, torchvision being absent, one ``adaptive_max_pool2d`` per
  region of a ``-inf``-padded crop on the other (the same bins);
- softmax and box decoding run in the framework on the PyTorch side, in
  NumPy in chainer-cv;
- the greedy non-maximum suppression (RPN: 6000 boxes before it, 300 after,
  IoU 0.7; per class: IoU 0.45 for SSD, 0.3 for Faster R-CNN) runs in NumPy
  on both sides, the same algorithm.

With random weights the class scores sit near 1/21, so the presets'
thresholds would keep no box or every box; ``SCORE_THRESH`` instead keeps
about 1750 (SSD) and 600 (Faster R-CNN) class-box pairs before the
per-class suppression, the same on both sides.
"""
import numpy
import PIL.Image

N_FG_CLASS = 20
SCORE_THRESH = {'ssd300_predict': 0.28,
                'faster_rcnn_vgg16_predict': 0.077}
CV_WORKLOADS = ('ssd300_predict', 'faster_rcnn_vgg16_predict',
                'resnet50_infer')


def _images(batch, size=300):
    rng = numpy.random.RandomState(1)
    return [rng.uniform(0, 255, (3, size, size)).astype(numpy.float32)
            for _ in range(batch)]


def _chainer_cv_model(name):
    """The chainer-cv model of ``name`` with seeded random weights."""
    import chainer_core
    import chainer_cv.links as C
    numpy.random.seed(0)
    if name == 'ssd300_predict':
        model = C.SSD300(n_fg_class=N_FG_CLASS)
    elif name == 'faster_rcnn_vgg16_predict':
        # With the default Normal(0.01) weights the features reaching the
        # head are about 1e-4, so the class logits spread by 3e-6 and every
        # score rounds to 1/21; scores' weights 3e5 times larger spread the
        # logits by about one.
        model = C.FasterRCNNVGG16(
            n_fg_class=N_FG_CLASS,
            score_initialW=chainer_core.initializers.Normal(3000.))
    elif name == 'resnet50_infer':
        model = C.ResNet50(n_class=1000)
        # Freshly initialized statistics (mean 0, variance 1) would leave
        # the activations unnormalized; a spread of values keeps the
        # normalization's arithmetic honest.
        rng = numpy.random.RandomState(2)
        for link in model.links():
            if hasattr(link, 'avg_var'):
                link.avg_mean[...] = rng.normal(0, 0.1, link.avg_mean.shape)
                link.avg_var[...] = rng.uniform(0.5, 2, link.avg_var.shape)
    else:
        raise ValueError('unknown workload {!r}'.format(name))
    # Layers of inferred input size draw their weights at the first call:
    # made here, right after the seed, both sides get the same ones.
    if name == 'resnet50_infer':
        with chainer_core.using_config('train', False):
            model(numpy.zeros((1, 3, 224, 224), numpy.float32))
    else:
        model.predict(_images(1))
        model.score_thresh = SCORE_THRESH[name]
    return model


def build(chainer, name, batch, device):
    model = _chainer_cv_model(name)
    model.to_device(device)
    if name == 'resnet50_infer':
        rng = numpy.random.RandomState(1)
        x = device.send(rng.uniform(-1, 1, (batch, 3, 224, 224))
                        .astype(numpy.float32))

        def step():
            with chainer.using_config('train', False), \
                    chainer.no_backprop_mode():
                return model(x)

        return step
    imgs = _images(batch)

    def step():
        return model.predict(imgs)

    return step


# ---- the PyTorch reference ----

def _resize(img, size):
    H, W = size
    return numpy.stack([numpy.asarray(PIL.Image.fromarray(c, mode='F').resize(
        (W, H), resample=PIL.Image.BILINEAR)) for c in img])


def _nms(bbox, thresh, score=None, limit=None):
    """Greedy NMS in NumPy, the algorithm of chainer_cv.utils'."""
    bbox = bbox.astype(numpy.float64)
    order = numpy.arange(len(bbox)) if score is None else \
        numpy.argsort(-score, kind='stable')
    area = (bbox[:, 2] - bbox[:, 0]) * (bbox[:, 3] - bbox[:, 1])
    suppressed = numpy.zeros(len(bbox), dtype=bool)
    keep = []
    for i in order:
        if suppressed[i]:
            continue
        keep.append(i)
        if limit is not None and len(keep) >= limit:
            break
        tl = numpy.maximum(bbox[i, :2], bbox[:, :2])
        br = numpy.minimum(bbox[i, 2:], bbox[:, 2:])
        extent = numpy.maximum(br - tl, 0)
        inter = extent[:, 0] * extent[:, 1]
        union = area[i] + area - inter
        suppressed |= inter / numpy.where(union > 0, union, 1) >= thresh
    return numpy.asarray(keep, dtype=numpy.int64)


def _suppress(bbox, prob, score_thresh, nms_thresh, strict=False):
    """Per-class thresholding and NMS: ``bbox`` (R, L, 4) or (R, 4) and
    ``prob`` (R, L + 1) NumPy arrays, class 0 the background; ``strict``
    keeps only scores above the threshold (Faster R-CNN's rule) rather
    than at least it (SSD's)."""
    bboxes, labels, scores = [], [], []
    for lb in range(1, prob.shape[1]):
        mask = prob[:, lb] > score_thresh if strict else \
            prob[:, lb] >= score_thresh
        bbox_l = bbox[mask] if bbox.ndim == 2 else bbox[mask, lb - 1]
        prob_l = prob[mask, lb]
        keep = _nms(bbox_l, nms_thresh, prob_l)
        bboxes.append(bbox_l[keep])
        labels.append(numpy.full(len(keep), lb - 1, numpy.int32))
        scores.append(prob_l[keep])
    return (numpy.concatenate(bboxes).astype(numpy.float32),
            numpy.concatenate(labels),
            numpy.concatenate(scores).astype(numpy.float32))


def _modules(torch):
    nn = torch.nn
    F = torch.nn.functional

    def conv(cin, cout, k, **kw):
        return nn.Conv2d(cin, cout, k, **kw)

    class VGG16SSD(nn.Module):
        """chainer_cv's VGG16Extractor300."""

        def __init__(self):
            super().__init__()
            cin = 3
            for stage, (n, c) in enumerate(
                    ((2, 64), (2, 128), (3, 256), (3, 512), (3, 512)), 1):
                for i in range(1, n + 1):
                    self.add_module('conv{}_{}'.format(stage, i),
                                    conv(cin, c, 3, padding=1))
                    cin = c
            self.norm4 = nn.Module()
            self.norm4.scale = nn.Parameter(torch.empty(512))
            self.conv6 = conv(512, 1024, 3, padding=6, dilation=6)
            self.conv7 = conv(1024, 1024, 1)
            extras = ((8, 1024, 256, 512, dict(stride=2, padding=1)),
                      (9, 512, 128, 256, dict(stride=2, padding=1)),
                      (10, 256, 128, 256, {}), (11, 256, 128, 256, {}))
            for i, cin, mid, out, kw in extras:
                self.add_module('conv{}_1'.format(i), conv(cin, mid, 1))
                self.add_module('conv{}_2'.format(i), conv(mid, out, 3, **kw))

        def _stage(self, h, stage, n):
            for i in range(1, n + 1):
                h = F.relu(getattr(self, 'conv{}_{}'.format(stage, i))(h))
            return h

        def forward(self, x):
            h = x
            for stage, n in ((1, 2), (2, 2), (3, 3)):
                h = F.max_pool2d(self._stage(h, stage, n), 2, ceil_mode=True)
            h = self._stage(h, 4, 3)
            norm = h.pow(2).sum(1, keepdim=True).sqrt() + 1e-5
            ys = [h / norm * self.norm4.scale[:, None, None]]
            h = self._stage(F.max_pool2d(h, 2, ceil_mode=True), 5, 3)
            h = F.max_pool2d(h, 3, stride=1, padding=1, ceil_mode=True)
            h = F.relu(self.conv6(h))
            ys.append(F.relu(self.conv7(h)))
            for i in (8, 9, 10, 11):
                h = F.relu(getattr(self, 'conv{}_1'.format(i))(ys[-1]))
                ys.append(F.relu(getattr(self, 'conv{}_2'.format(i))(h)))
            return ys

    class Multibox(nn.Module):
        def __init__(self, n_class, aspect_ratios, channels):
            super().__init__()
            self.n_class = n_class
            self.loc = nn.ModuleList()
            self.conf = nn.ModuleList()
            for ar, c in zip(aspect_ratios, channels):
                n = (len(ar) + 1) * 2
                self.loc.append(conv(c, n * 4, 3, padding=1))
                self.conf.append(conv(c, n * n_class, 3, padding=1))

        def forward(self, xs):
            def flat(head, width):
                return torch.cat([c(x).permute(0, 2, 3, 1).reshape(
                    x.shape[0], -1, width) for c, x in zip(head, xs)], 1)
            return flat(self.loc, 4), flat(self.conf, self.n_class)

    class SSD300(nn.Module):
        def __init__(self, default_bbox, mean):
            super().__init__()
            self.extractor = VGG16SSD()
            self.multibox = Multibox(
                N_FG_CLASS + 1, ((2,), (2, 3), (2, 3), (2, 3), (2,), (2,)),
                (512, 1024, 512, 256, 256, 256))
            # (center_y, center_x, height, width), as MultiboxCoder's.
            self.default_bbox = torch.from_numpy(default_bbox).double()
            self.mean = mean
            self.nms_thresh = 0.45
            self.score_thresh = SCORE_THRESH['ssd300_predict']

        def predict(self, imgs):
            x, sizes = [], []
            for img in imgs:
                sizes.append(img.shape[1:])
                x.append(_resize(img.astype(numpy.float32), (300, 300)) -
                         self.mean)
            with torch.no_grad():
                locs, confs = self.multibox(self.extractor(
                    torch.from_numpy(numpy.stack(x).astype(numpy.float32))))
                out = ([], [], [])
                d = self.default_bbox
                for loc, conf, size in zip(locs.double(), confs.double(),
                                           sizes):
                    center = d[:, :2] + loc[:, :2] * 0.1 * d[:, 2:]
                    hw = d[:, 2:] * torch.exp(loc[:, 2:] * 0.2)
                    bbox = torch.cat((center - hw / 2, center + hw / 2), 1)
                    bbox, label, score = _suppress(
                        bbox.numpy(), torch.softmax(conf, 1).numpy(),
                        self.score_thresh, self.nms_thresh)
                    scale = numpy.array(size, numpy.float32) / 300
                    out[0].append(bbox * numpy.tile(scale, 2))
                    out[1].append(label)
                    out[2].append(score)
            return out

    class Conv2DActiv(nn.Module):
        def __init__(self, cin, cout):
            super().__init__()
            self.conv = conv(cin, cout, 3, padding=1)

        def forward(self, x):
            return F.relu(self.conv(x))

    def loc2bbox(src, loc):
        h = (src[:, 2] - src[:, 0])[:, None]
        w = (src[:, 3] - src[:, 1])[:, None]
        cy = src[:, 0:1] + 0.5 * h
        cx = src[:, 1:2] + 0.5 * w
        y = loc[:, 0::4] * h + cy
        x = loc[:, 1::4] * w + cx
        hh = 0.5 * torch.exp(loc[:, 2::4]) * h
        hw = 0.5 * torch.exp(loc[:, 3::4]) * w
        return torch.stack((y - hh, x - hw, y + hh, x + hw), 2).reshape(
            loc.shape[0], -1)

    def roi_pool(x, rois, size, spatial_scale):
        """chainer-core's roi_pooling_2d bins for the one image ``x``
        (C, H, W) and rois (R, 4) as (y_min, x_min, y_max, x_max)."""
        box = torch.floor(rois * spatial_scale + 0.5).long().tolist()
        _, H, W = x.shape
        ends = [(b[2] + 1, b[3] + 1) for b in box]
        pad_h = max([0] + [e[0] - H for e in ends])
        pad_w = max([0] + [e[1] - W for e in ends])
        padded = F.pad(x, (0, pad_w, 0, pad_h), value=-float('inf'))
        out = torch.stack([F.adaptive_max_pool2d(
            padded[:, y0:max(y1 + 1, y0 + 1), x0:max(x1 + 1, x0 + 1)], size)
            for y0, x0, y1, x1 in box])
        # A bin wholly outside the map holds -inf; chainer-core gives 0.
        return out.masked_fill_(out == -float('inf'), 0)

    class FasterRCNNVGG16(nn.Module):
        def __init__(self, anchor_base, mean):
            super().__init__()
            self.extractor = nn.Module()
            cin = 3
            self.vgg = []
            for stage, (n, c) in enumerate(
                    ((2, 64), (2, 128), (3, 256), (3, 512), (3, 512)), 1):
                for i in range(1, n + 1):
                    name = 'conv{}_{}'.format(stage, i)
                    self.extractor.add_module(name, Conv2DActiv(cin, c))
                    self.vgg.append(getattr(self.extractor, name))
                    cin = c
                if stage < 5:
                    self.vgg.append(lambda h: F.max_pool2d(
                        h, 2, ceil_mode=True))
            self.rpn = nn.Module()
            self.rpn.conv1 = conv(512, 512, 3, padding=1)
            n_anchor = len(anchor_base)
            self.rpn.score = conv(512, n_anchor * 2, 1)
            self.rpn.loc = conv(512, n_anchor * 4, 1)
            self.head = nn.Module()
            self.n_class = N_FG_CLASS + 1
            self.head.fc6 = nn.Linear(512 * 7 * 7, 4096)
            self.head.fc7 = nn.Linear(4096, 4096)
            self.head.cls_loc = nn.Linear(4096, self.n_class * 4)
            self.head.score = nn.Linear(4096, self.n_class)
            self.anchor_base = torch.from_numpy(anchor_base)
            self.mean = mean
            self.nms_thresh = 0.3
            self.score_thresh = SCORE_THRESH['faster_rcnn_vgg16_predict']
            self.std = torch.tensor((0.1, 0.1, 0.2, 0.2)).repeat(
                self.n_class)

        def proposals(self, loc, fg, img_size, scale, hh, ww):
            sy = torch.arange(0, hh * 16, 16, dtype=torch.float32)
            sx = torch.arange(0, ww * 16, 16, dtype=torch.float32)
            sy, sx = torch.meshgrid(sy, sx, indexing='ij')
            shift = torch.stack((sy.ravel(), sx.ravel(), sy.ravel(),
                                 sx.ravel()), 1)
            anchor = (self.anchor_base[None] + shift[:, None]).reshape(-1, 4)
            roi = loc2bbox(anchor, loc)
            roi[:, 0::2] = roi[:, 0::2].clamp(0, img_size[0])
            roi[:, 1::2] = roi[:, 1::2].clamp(0, img_size[1])
            min_size = 16 * scale
            keep = ((roi[:, 2] - roi[:, 0] >= min_size) &
                    (roi[:, 3] - roi[:, 1] >= min_size)).nonzero()[:, 0]
            roi, fg = roi[keep], fg[keep]
            order = torch.argsort(-fg, stable=True)[:6000]
            roi = roi[order].numpy()
            return torch.from_numpy(roi[_nms(roi, 0.7, limit=300)])

        def predict(self, imgs):
            out = ([], [], [])
            for img in imgs:
                size = img.shape[1:]
                s = 600 / min(size)
                if s * max(size) > 1000:
                    s = 1000 / max(size)
                prepared = (_resize(img.astype(numpy.float32),
                                    (int(size[0] * s), int(size[1] * s))) -
                            self.mean).astype(numpy.float32)
                scale = prepared.shape[2] / size[1]
                with torch.no_grad():
                    h = torch.from_numpy(prepared[None])
                    for layer in self.vgg:
                        h = layer(h)
                    _, _, hh, ww = h.shape
                    r = F.relu(self.rpn.conv1(h))
                    loc = self.rpn.loc(r).permute(0, 2, 3, 1).reshape(-1, 4)
                    fg = self.rpn.score(r).permute(0, 2, 3, 1).reshape(
                        hh, ww, -1, 2)[..., 1].reshape(-1)
                    roi = self.proposals(loc, fg, prepared.shape[1:], scale,
                                         hh, ww)
                    pool = roi_pool(h[0], roi, 7, 1 / 16)
                    fc7 = F.relu(self.head.fc7(F.relu(
                        self.head.fc6(pool.flatten(1)))))
                    cls_loc = self.head.cls_loc(fc7) * self.std
                    prob = torch.softmax(self.head.score(fc7), 1)
                    roi = roi / scale
                    cls_bbox = loc2bbox(
                        roi.repeat_interleave(self.n_class, 0),
                        cls_loc.reshape(-1, 4)).reshape(-1, self.n_class, 4)
                    cls_bbox[..., 0::2] = cls_bbox[..., 0::2].clamp(
                        0, size[0])
                    cls_bbox[..., 1::2] = cls_bbox[..., 1::2].clamp(
                        0, size[1])
                bbox, label, score = _suppress(
                    cls_bbox[:, 1:].numpy(), prob.numpy(),
                    self.score_thresh, self.nms_thresh, strict=True)
                for o, v in zip(out, (bbox, label, score)):
                    o.append(v)
            return out

    class CBA(nn.Module):
        """Conv2DBNActiv."""

        def __init__(self, cin, cout, k, stride, pad, activ=True):
            super().__init__()
            self.conv = conv(cin, cout, k, stride=stride, padding=pad,
                             bias=False)
            self.bn = nn.BatchNorm2d(cout, eps=2e-5)
            self.activ = activ

        def forward(self, x):
            h = self.bn(self.conv(x))
            return F.relu(h) if self.activ else h

    class Bottleneck(nn.Module):
        """Facebook's variant (the stride in the 3x3 convolution)."""

        def __init__(self, cin, mid, cout, stride, residual_conv):
            super().__init__()
            self.conv1 = CBA(cin, mid, 1, 1, 0)
            self.conv2 = CBA(mid, mid, 3, stride, 1)
            self.conv3 = CBA(mid, cout, 1, 1, 0, activ=False)
            self.residual_conv = CBA(cin, cout, 1, stride, 0, activ=False) \
                if residual_conv else None

        def forward(self, x):
            h = self.conv3(self.conv2(self.conv1(x)))
            s = x if self.residual_conv is None else self.residual_conv(x)
            return F.relu(h + s)

    class ResNet50(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv1 = CBA(3, 64, 7, 2, 3)
            cin = 64
            for stage, (n, mid, out, stride) in enumerate(zip(
                    (3, 4, 6, 3), (64, 128, 256, 512), (256, 512, 1024, 2048),
                    (1, 2, 2, 2)), 2):
                block = nn.Module()
                block.a = Bottleneck(cin, mid, out, stride, True)
                for i in range(1, n):
                    block.add_module('b{}'.format(i),
                                     Bottleneck(out, mid, out, 1, False))
                self.add_module('res{}'.format(stage), block)
                cin = out
            self.fc6 = nn.Linear(2048, 1000)

        def forward(self, x):
            h = F.max_pool2d(self.conv1(x), 3, 2, ceil_mode=True)
            for stage in (2, 3, 4, 5):
                for block in getattr(self, 'res{}'.format(stage)).children():
                    h = block(h)
            return torch.softmax(self.fc6(h.mean((2, 3))), 1)

    return SSD300, FasterRCNNVGG16, ResNet50


_TORCH_NAMES = {'W': 'weight', 'b': 'bias', 'gamma': 'weight',
                'beta': 'bias', 'avg_mean': 'running_mean',
                'avg_var': 'running_var', 'scale': 'scale'}


def _copy_weights(torch, chainer_model, module):
    """Copy every parameter and statistic of ``chainer_model`` into the
    same-named one of ``module``; every tensor of ``module`` must be
    covered."""
    tensors = dict(module.named_parameters())
    tensors.update(module.named_buffers())
    done = set()
    for link_name, link in chainer_model.namedlinks():
        for attr, torch_attr in _TORCH_NAMES.items():
            value = getattr(link, attr, None)
            if value is None or attr == 'scale' and link_name != \
                    '/extractor/norm4':
                continue
            array = value.array if hasattr(value, 'array') else value
            if not isinstance(array, numpy.ndarray):
                continue
            key = (link_name.strip('/').replace('/', '.') + '.' +
                   torch_attr).lstrip('.')
            with torch.no_grad():
                tensors[key].copy_(torch.from_numpy(numpy.asarray(array)))
            done.add(key)
    left = {k for k in tensors if not k.endswith('num_batches_tracked')}
    if left - done:
        raise RuntimeError('not copied: {}'.format(sorted(left - done)))


def build_torch(torch, name, batch):
    SSD300, FasterRCNNVGG16, ResNet50 = _modules(torch)
    cv_model = _chainer_cv_model(name)
    if name == 'ssd300_predict':
        module = SSD300(cv_model.coder._default_bbox,
                        numpy.asarray(cv_model.mean, numpy.float32))
    elif name == 'faster_rcnn_vgg16_predict':
        module = FasterRCNNVGG16(cv_model.rpn.anchor_base, cv_model.mean)
    else:
        module = ResNet50()
    _copy_weights(torch, cv_model, module)
    module.eval()
    if name == 'resnet50_infer':
        rng = numpy.random.RandomState(1)
        x = torch.from_numpy(rng.uniform(-1, 1, (batch, 3, 224, 224))
                             .astype(numpy.float32))

        def step():
            with torch.no_grad():
                return module(x)

        return step
    imgs = _images(batch)

    def step():
        return module.predict(imgs)

    return step
