"""An independent numpy implementation of nvFuser's Philox4x32-10 stream and
its uniform transforms (runtime/random_numbers.cu), written from their
formulas; shared by the random-op tests (test_random_ops.py) and the
attention dropout tests (test_sdpfa_bias_mask_dropout.py). Only numpy."""
import numpy as np

__all__ = ["M0", "M1", "W0", "W1", "MASK", "philox", "uniform01_f32", "uniform01_f64",
           "uniform01_f32_at"]

M0, M1, W0, W1 = 0xD2511F53, 0xCD9E8D57, 0x9E3779B9, 0xBB67AE85
MASK = np.uint64(0xFFFFFFFF)


def philox(seed, subsequence, offset):
    """Philox4x32-10 on arrays of subsequences; returns 4 uint32 arrays."""
    sub = subsequence.astype(np.uint64)
    offset, seed = np.uint64(offset % 2**64), np.uint64(seed % 2**64)
    c = [np.full(sub.shape, offset & MASK), np.full(sub.shape, offset >> np.uint64(32)),
         sub & MASK, sub >> np.uint64(32)]
    k0, k1 = int(seed & MASK), int(seed >> np.uint64(32))
    for _ in range(10):
        p0 = np.uint64(M0) * c[0]
        p1 = np.uint64(M1) * c[2]
        c = [(p1 >> np.uint64(32)) ^ c[1] ^ np.uint64(k0), p1 & MASK,
             (p0 >> np.uint64(32)) ^ c[3] ^ np.uint64(k1), p0 & MASK]
        k0, k1 = (k0 + W0) % 2**32, (k1 + W1) % 2**32
    return [w.astype(np.uint32) for w in c]


def uniform01_f32(word, mapped=True):
    """nvFuser's uniformf: the word's float times 2^-32 plus half a step, in
    (0, 1]; `mapped` makes 1 into 0, giving [0, 1)."""
    scale = np.float32(2.0**-32)
    r = word.astype(np.float32) * scale + np.float32(0.5) * scale
    return np.where(r == np.float32(1), np.float32(0), r) if mapped else r


def uniform01_f64(x, y):
    z = x.astype(np.uint64) ^ (y.astype(np.uint64) << np.uint64(21))
    r = z.astype(np.float64) * 2.0**-53 + 0.5 * 2.0**-53
    return np.where(r == 1.0, 0.0, r)


def uniform01_f32_at(seed, offset, n):
    """The float32 uniform in [0, 1) of the elements 0 .. n-1 of a stream:
    element i takes word i % 4 of philox(seed, i // 4, offset), as
    fd.ops.uniform(0, 1, dtype=Float) draws them."""
    i = np.arange(n, dtype=np.uint64)
    words = np.stack(philox(seed, i // np.uint64(4), offset))
    return uniform01_f32(words[(i % np.uint64(4)).astype(np.int64), np.arange(n)])
