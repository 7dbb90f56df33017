"""Whether the 'pure_nccl' communicator can be had here, and why not."""
import importlib.util


def unavailable_reason():
    """Why 'pure_nccl' cannot run in this process (what is missing)."""
    missing = []
    if importlib.util.find_spec('chainer_cuda') is None:
        missing.append('the chainer-cuda plugin (not installed: '
                       '`pip install chainer-cuda`)')
    if importlib.util.find_spec('cupy') is None:
        missing.append('CuPy (not installed)')
    else:
        try:
            import cupy
            if cupy.cuda.runtime.getDeviceCount() < 1:
                missing.append('a CUDA GPU (none found)')
        except Exception as e:
            missing.append('a CUDA GPU ({}: {})'.format(type(e).__name__, e))
        try:
            from cupy.cuda import nccl
            if not getattr(nccl, 'available', True):
                missing.append('NCCL (CuPy was built without it)')
        except Exception as e:
            missing.append('NCCL ({}: {})'.format(type(e).__name__, e))
    if missing:
        return 'it needs ' + ' and '.join(missing)
    return ('NCCL communication is not implemented by this version of '
            'chainer-mn; \'non_cuda_aware\' averages GPU gradients through '
            'host memory')
