import numpy

from chainer_core import backend


def compare_with_onnxruntime(onnx_model, inputs, outputs):
    """Run an exported model in ONNX Runtime (CPU) and measure how far its
    outputs are from ours.

    Args:
        onnx_model (onnx.ModelProto): what :func:`export` returned.
        inputs (dict): input name to Variable or array, on any device
            (:func:`export`'s named inputs with ``return_named_inout``).
        outputs (dict): output name to Variable or array: our outputs.

    Returns:
        float: the largest absolute difference over all outputs.

    Raises:
        ImportError: onnxruntime is not installed.

    Example:
        >>> model, ins, outs = chainer_core.onnx.export(
        ...     predictor, x, return_named_inout=True)
        >>> chainer_core.onnx.compare_with_onnxruntime(model, ins, outs)
    """
    try:
        import onnxruntime
    except ImportError as e:
        raise ImportError(
            'compare_with_onnxruntime needs onnxruntime ({}): pip install '
            'chainer-core[onnx]'.format(e)) from e
    host = backend.CpuDevice()

    def on_host(v):
        return numpy.asarray(host.send(getattr(v, 'array', v)))

    session = onnxruntime.InferenceSession(
        onnx_model.SerializeToString(), providers=['CPUExecutionProvider'])
    names = [o.name for o in session.get_outputs()]
    got = session.run(names, {k: on_host(v) for k, v in inputs.items()})
    return max((float(numpy.abs(g - on_host(outputs[n])).max(initial=0.0))
                for g, n in zip(got, names)), default=0.0)
