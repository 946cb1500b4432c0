"""The array libraries recur takes arrays from (NumPy, CuPy, PyTorch, JAX):
which one an array belongs to, and the few operations recur needs of each
(a new array in the caller's kind, a contiguous array of a dtype, the
caller's CUDA stream, the order of an array's memory)."""

import numpy as np

_DTYPES = {"float32": np.float32, "float64": np.float64}


def library(a):
    """'numpy', 'cupy', 'torch' or 'jax': whose array `a` is."""
    module = type(a).__module__.split(".")[0]
    if module in ("jax", "jaxlib"):
        return "jax"
    if module in ("cupy", "torch"):
        return module
    return "numpy"


def dtype_name(dtype):
    """'float32', 'float64' or another name, for NumPy, CuPy, PyTorch and JAX dtypes."""
    if dtype is None:
        return None
    text = str(dtype)
    if text.startswith("torch."):
        return text[len("torch."):]
    try:
        return np.dtype(dtype).name
    except TypeError:
        return text


def array_dtype(a):
    return dtype_name(a.dtype)


def _torch():
    import torch

    return torch


def _torch_dtype(name):
    return getattr(_torch(), name)


def asarray(a):
    """`a` itself when it is an array of a library recur takes; lists,
    scalars and other array-likes become NumPy arrays."""
    if library(a) != "numpy" or isinstance(a, np.ndarray):
        return a
    return np.asarray(a)


def contiguous(a, dtype):
    """`a` itself when it is contiguous and of `dtype` ('float32' or
    'float64'), else a contiguous copy in `dtype`, in `a`'s library."""
    lib = library(a)
    if lib == "numpy":
        return np.ascontiguousarray(a, dtype=_DTYPES[dtype])
    if lib == "cupy":
        import cupy

        return cupy.ascontiguousarray(a, dtype=_DTYPES[dtype])
    if lib == "torch":
        wanted = _torch_dtype(dtype)
        if a.dtype == wanted and a.is_contiguous():
            return a
        return a.to(wanted).contiguous()
    import jax.numpy as jnp

    return jnp.asarray(a, dtype=_DTYPES[dtype])


def empty(like, shape, dtype, order="C"):
    """A new array of `shape` and `dtype` in `like`'s library and device,
    in C or F order. For JAX (whose arrays are immutable) a CuPy or PyTorch
    array on the GPU, a NumPy array on the host: `finish` makes it JAX's."""
    lib = library(like)
    if lib == "jax":
        on_gpu = any(d.platform == "gpu" for d in like.devices())
        if not on_gpu:
            lib = "numpy"
        else:
            try:
                import cupy  # noqa: F401

                lib = "cupy"
            except ImportError:
                lib = "torch"
                like = None
    if lib == "numpy":
        return np.empty(shape, dtype=_DTYPES[dtype], order=order)
    if lib == "cupy":
        import cupy

        return cupy.empty(shape, dtype=_DTYPES[dtype], order=order)
    torch = _torch()
    device = like.device if like is not None else "cuda"
    if order == "F":
        return torch.empty(tuple(reversed(shape)), dtype=_torch_dtype(dtype), device=device).T
    return torch.empty(shape, dtype=_torch_dtype(dtype), device=device)


def finish(like, result):
    """`result` as an array of `like`'s library (JAX: through DLPack, no copy)."""
    if library(like) == "jax" and library(result) != "jax":
        import jax.dlpack

        return jax.dlpack.from_dlpack(result)
    return result


def order(a):
    """'C' or 'F' for an array whose memory is contiguous in that order, else None."""
    lib = library(a)
    if lib == "torch":
        if a.is_contiguous():
            return "C"
        return "F" if a.T.is_contiguous() else None
    if lib == "jax":
        return "C"
    if a.flags.c_contiguous:
        return "C"
    return "F" if a.flags.f_contiguous else None


def stream(a):
    """The caller's CUDA stream for `a` (an integer handle; 0: the default
    stream or none)."""
    lib = library(a)
    if lib == "torch" and a.is_cuda:
        torch = _torch()
        try:  # the raw handle, without making a torch.cuda.Stream (microseconds a call)
            return torch._C._cuda_getCurrentRawStream(a.device.index)
        except AttributeError:
            return torch.cuda.current_stream(a.device).cuda_stream
    if lib == "cupy":
        import cupy

        return cupy.cuda.get_current_stream().ptr
    return 0


def handle(a):
    """What recur's core is given for `a`: for CUDA arrays of PyTorch and
    CuPy, their DLPack capsule made without stream synchronization
    (stream=-1: recur runs on the caller's current stream, after the
    kernels that made the array, so none is needed); `a` itself otherwise."""
    lib = library(a)
    if lib == "torch" and a.is_cuda:
        torch = _torch()
        try:  # what __dlpack__ ends with, without its Python checks (microseconds a call)
            return torch._C._to_dlpack(a)
        except (AttributeError, RuntimeError, TypeError):
            return a
    if lib == "cupy":
        try:
            return a.__dlpack__(stream=-1)
        except (TypeError, ValueError, BufferError, RuntimeError):
            return a
    return a


def assign(target, source):
    """target[...] = source, in the target's library."""
    if library(target) == "torch":
        target.copy_(source)
    else:
        target[...] = source


def shape(a):
    return tuple(int(n) for n in a.shape)
