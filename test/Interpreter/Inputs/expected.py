"""Independent recomputation of fuser-run's deterministic inputs and
checksums, straight from docs PRODUCT.md ("Deterministic inputs"). For an
identity fusion the outputs are the inputs, so the checksums must match.

usage: expected.py SEED TYPE... prints one `result N: TYPE fnv1a64=0x...` line
per tensor type (e.g. tensor<2x3xf32>), as fuser-run does;
with --values, prints the values as a flat list too.
"""
import re
import struct
import sys

MASK = (1 << 64) - 1


def splitmix64(x):
    z = (x + 0x9E3779B97F4A7C15) & MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return z ^ (z >> 31)


def fnv1a64(data):
    h = 0xCBF29CE484222325
    for byte in data:
        h = ((h ^ byte) * 0x100000001B3) & MASK
    return h


def encode(value, dtype):
    if dtype == "f32":
        return struct.pack("<f", value)
    if dtype == "f64":
        return struct.pack("<d", value)
    if dtype == "f16":
        return struct.pack("<e", value)
    if dtype == "bf16":  # multiples of 1/8 in [-8, 8] are exact in bf16
        return struct.pack("<f", value)[2:]
    if dtype == "i32":
        return struct.pack("<i", value)
    if dtype == "i64":
        return struct.pack("<q", value)
    if dtype == "i1":
        return struct.pack("<B", value)
    raise ValueError(dtype)


def inputs(seed, k, count, dtype):
    for i in range(count):
        h = splitmix64((seed * 0x9E3779B97F4A7C15 + k * 0x100000001B3 + i) & MASK)
        if dtype in ("f16", "bf16", "f32", "f64"):
            yield ((h % 129) - 64) / 8.0
        elif dtype == "i1":
            yield h & 1
        else:
            yield (h % 201) - 100


def main():
    args = sys.argv[1:]
    show_values = "--values" in args
    args = [a for a in args if a != "--values"]
    seed = int(args[0])
    for k, type_text in enumerate(args[1:]):
        dims, dtype = re.fullmatch(r"tensor<((?:\d+x)*)(\w+)>", type_text).groups()
        count = 1
        for d in dims.split("x")[:-1]:
            count *= int(d)
        values = list(inputs(seed, k, count, dtype))
        data = b"".join(encode(v, dtype) for v in values)
        print("result %d: %s fnv1a64=0x%016x" % (k, type_text, fnv1a64(data)))
        if show_values:
            print("  " + repr(values))


if __name__ == "__main__":
    main()
