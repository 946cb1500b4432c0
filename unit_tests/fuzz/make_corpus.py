#!/usr/bin/env python3
"""Writes the seed corpus of the .npy header fuzzer into corpus/: small .npy
files NumPy writes (every header version, byte order, memory order, float32
and float64, several ranks) and broken ones (truncated, lying lengths,
unsupported dtypes and versions, malformed dictionaries, bad shapes).
Run once with a Python that has numpy; the corpus is kept in the repository.
"""

import io
import os

import numpy as np
from numpy.lib import format as npformat

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.join(HERE, "corpus")


def npy(array, version=None, allow_pickle=False):
    buffer = io.BytesIO()
    npformat.write_array(buffer, array, version=version, allow_pickle=allow_pickle)
    return buffer.getvalue()


def by_hand(dictionary, data=b"", major=1):
    prefix = 10 if major == 1 else 12
    total = (prefix + len(dictionary) + 1 + 63) // 64 * 64
    header = dictionary + " " * (total - prefix - len(dictionary) - 1) + "\n"
    length = len(header).to_bytes(prefix - 8, "little")
    return b"\x93NUMPY" + bytes([major, 0]) + length + header.encode("latin1") + data


def main():
    os.makedirs(CORPUS, exist_ok=True)
    files = {}
    x = np.linspace(-1, 1, 3)
    for dtype in ("<f4", ">f4", "<f8", ">f8"):
        for version in ((1, 0), (2, 0), (3, 0)):
            for shape in ((3,), (3, 1), (1, 3)):
                for order in ("C", "F"):
                    a = np.asarray(x.reshape(shape), dtype=dtype, order=order)
                    name = f"valid_{dtype[0] == '<' and 'le' or 'be'}{dtype[1:]}_v{version[0]}_{'x'.join(map(str, shape))}_{order}"
                    files[name] = npy(a, version)
    files["valid_rank0"] = npy(np.float64(1.5))
    files["valid_empty"] = npy(np.zeros(0))
    files["valid_matrix"] = npy(np.zeros((2, 3)))
    files["valid_zero_extent"] = npy(np.zeros((0, 3)))
    good = npy(x)
    files["truncated_prefix"] = good[:8]
    files["truncated_header"] = good[:40]
    files["truncated_data"] = good[:-4]
    files["longer_data"] = good + b"\0" * 8
    lying = bytearray(good)
    lying[8:10] = (60000).to_bytes(2, "little")
    files["lying_header_length"] = bytes(lying)
    short = bytearray(good)
    short[8:10] = (20).to_bytes(2, "little")
    files["short_header_length"] = bytes(short)
    version = bytearray(good)
    version[6] = 4
    files["version_4"] = bytes(version)
    files["bad_magic"] = b"\x93NUMPX" + good[6:]
    files["int64"] = npy(np.arange(3))
    files["complex"] = npy(np.ones(3, dtype=complex))
    files["float16"] = npy(np.ones(3, dtype=np.float16))
    files["bool"] = npy(np.ones(3, dtype=bool))
    files["unicode"] = npy(np.array(["ab", "c"]))
    files["structured"] = npy(np.zeros(2, dtype=[("a", "<f8"), ("b", "<i4", (2,))]))
    files["object"] = npy(np.array([1.0, "a"], dtype=object), allow_pickle=True)
    d = "{'descr': '<f8', 'fortran_order': False, 'shape': %s, }"
    files["negative_shape"] = by_hand(d % "(-3,)")
    files["huge_shape"] = by_hand(d % "(99999999999999999999999,)")
    files["overflowing_shape"] = by_hand(d % "(4294967296, 4294967296)")
    # Zero elements, yet the other extents' bytes overflow 64 bits (NumPy refuses it too).
    files["zero_extent_bytes_overflow"] = by_hand(d % "(01000000,00005000,048,57000000,00,5778)")
    files["python2_long"] = by_hand(d % "(3L,)", b"\0" * 24)
    files["double_quotes"] = by_hand('{"descr": "<f8", "fortran_order": false, "shape": (3,)}', b"\0" * 24)
    files["missing_key"] = by_hand("{'descr': '<f8', 'shape': (3,)}", b"\0" * 24)
    files["extra_key"] = by_hand("{'descr': '<f8', 'fortran_order': False, 'shape': (3,), 'x': 1}", b"\0" * 24)
    files["unterminated"] = by_hand("{'descr': '<f8")
    files["nested"] = by_hand("{'descr': " + "(" * 30 + ")" * 30 + "}")
    files["v2_by_hand"] = by_hand(d % "(3,)", b"\0" * 24, major=2)
    for name, data in sorted(files.items()):
        with open(os.path.join(CORPUS, name + ".npy"), "wb") as f:
            f.write(data)
    print(f"wrote {len(files)} files to {CORPUS}")


if __name__ == "__main__":
    main()
