"""The Python package on a CUDA build, with PyTorch and CuPy device arrays:
results on the caller's device in the caller's kind of array, no copies
(data pointers), the caller's stream, host arrays staged. Skipped on CPU
builds and where neither library is installed."""

import math

import numpy as np
import pytest

import recur
from recur import _recur

pytestmark = pytest.mark.skipif(recur.info()["backend"] != "Cuda",
                                reason="recur is built for the host")


def reference(x, N):
    """He_n(x) / sqrt(n!) in float64 on the host."""
    V = np.polynomial.hermite_e.hermevander(np.asarray(x, dtype=np.float64), N - 1)
    return V / np.array([math.sqrt(math.factorial(n)) for n in range(N)])


def test_torch_in_and_out():
    torch = pytest.importorskip("torch")
    x = torch.linspace(-2, 2, 1000, device="cuda")
    V = recur.vander(recur.HermiteENormalized(), x, 16)
    assert isinstance(V, torch.Tensor) and V.device == x.device and V.dtype == torch.float32
    assert _recur.last_input_address() == x.data_ptr()
    np.testing.assert_allclose(V.cpu().numpy(), reference(x.cpu().numpy(), 16), rtol=2e-6,
                               atol=2e-6)
    # out=: a C block, an F block (a transposed tensor), a slice of a bigger tensor
    for out in (torch.empty(1000, 16, device="cuda"), torch.empty(16, 1000, device="cuda").T,
                torch.zeros(1000, 40, device="cuda")[:, 8:24]):
        pointer = out.data_ptr()
        got = recur.vander(recur.HermiteENormalized(), x, 16, out=out)
        assert got is out and out.data_ptr() == pointer
        assert torch.equal(out, V)
    V64, dV64 = recur.vander("hermite_e", x.double(), 8, derivative=True, order="F")
    assert V64.dtype == torch.float64 and V64.T.is_contiguous()
    np.testing.assert_allclose(dV64[:, 1:].cpu().numpy(),
                               (V64[:, :-1] * torch.arange(1, 8, device="cuda")).cpu().numpy(),
                               rtol=1e-13, atol=1e-12)


def test_torch_stream_order():
    # x made by a torch kernel on a side stream, recur on that stream (the
    # current one), then a torch kernel reading V: it sees finished data.
    torch = pytest.importorskip("torch")
    side = torch.cuda.Stream()
    with torch.cuda.stream(side):
        for _ in range(20):
            x = torch.rand(1 << 22, device="cuda") * 4 - 2
        V = recur.vander(recur.HermiteENormalized(), x, 32)
        total = V[:, 5].sum()
    side.synchronize()
    host = reference(x[:4096].cpu().numpy(), 32)
    np.testing.assert_allclose(V[:4096].cpu().numpy(), host, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(total.item(), V[:, 5].double().sum().item(), rtol=1e-4)


def test_cupy_in_and_out():
    cupy = pytest.importorskip("cupy")
    x = cupy.linspace(-1, 1, 777, dtype=cupy.float64)
    V = recur.vander(recur.Legendre(), x, 12, order="F")
    assert isinstance(V, cupy.ndarray) and V.flags.f_contiguous
    assert _recur.last_input_address() == x.data.ptr
    np.testing.assert_allclose(cupy.asnumpy(V),
                               np.polynomial.legendre.legvander(cupy.asnumpy(x), 11),
                               rtol=1e-13, atol=1e-13)
    out = cupy.empty((777, 12))
    assert recur.vander(recur.Legendre(), x, 12, out=out) is out
    c = np.arange(12.0)
    np.testing.assert_allclose(cupy.asnumpy(recur.series(recur.Legendre(), c, x)),
                               np.polynomial.legendre.legval(cupy.asnumpy(x), c), rtol=1e-12)


def test_host_arrays_are_staged():
    x = np.linspace(-1, 1, 100)
    V = recur.vander("legendre", x, 6)
    assert isinstance(V, np.ndarray)
    np.testing.assert_allclose(V, np.polynomial.legendre.legvander(x, 5), rtol=1e-14, atol=1e-14)
    nodes, weights = recur.gauss("legendre", 7)
    np.testing.assert_allclose(weights.sum(), 2.0, rtol=1e-15)


def test_device_errors():
    torch = pytest.importorskip("torch")
    x = torch.linspace(0, 1, 10, device="cuda")
    with pytest.raises(TypeError, match="out must hold float32 or float64, not int32"):
        recur.vander("legendre", x, 4, out=torch.empty(10, 4, dtype=torch.int32, device="cuda"))
    with pytest.raises(ValueError, match="out has shape \\(10, 3\\)"):
        recur.vander("legendre", x, 4, out=torch.empty(10, 3, device="cuda"))
