#!/usr/bin/env python3
"""Emits a fusion that is a chain of N ops for fuser-preseg benchmarks.

  cast-view: alternating bf16 <-> f32 casts and views, starting and ending at
             the input's type and shape, so fuser-preseg reduces it to nothing.
  mixed:     casts, broadcasts, sets, squeezes, permutes and views in a repeating
             pattern that folds back to the input, exercising every rule family.
"""
import argparse


def cast_view(n):
    shapes = ["8x32", "256", "16x16", "4x64"]
    types = ["bf16", "f32"]
    lines, value, shape, ty = [], "%x", shapes[0], "bf16"
    for i in range(n):
        if i % 2 == 0:
            new_ty = types[(types.index(ty) + 1) % 2]
            lines.append(f"  %v{i} = fuser.cast {value} : tensor<{shape}x{ty}> to tensor<{shape}x{new_ty}>")
            ty = new_ty
        else:
            new_shape = shapes[(i // 2 + 1) % len(shapes)]
            lines.append(f"  %v{i} = fuser.view {value} : tensor<{shape}x{ty}> -> tensor<{new_shape}x{ty}>")
            shape = new_shape
        value = f"%v{i}"
    # Close the chain at the input's type and shape.
    if ty != "bf16":
        lines.append(f"  %c = fuser.cast {value} : tensor<{shape}x{ty}> to tensor<{shape}xbf16>")
        value, ty = "%c", "bf16"
    if shape != shapes[0]:
        lines.append(f"  %r = fuser.view {value} : tensor<{shape}xbf16> -> tensor<{shapes[0]}xbf16>")
        value = "%r"
    return "\n".join(lines), value


def mixed(n):
    block = [
        "fuser.cast {v} : tensor<8x32xbf16> to tensor<8x32xf32>",
        "fuser.broadcast {v} [0, 2] : tensor<8x32xf32> -> tensor<1x8x1x32xf32>",
        "fuser.set {v} cache_op = streaming : tensor<1x8x1x32xf32>",
        "fuser.squeeze {v} [0, 2] : tensor<1x8x1x32xf32> -> tensor<8x32xf32>",
        "fuser.permute {v} [1, 0] : tensor<8x32xf32> -> tensor<32x8xf32>",
        "fuser.permute {v} [1, 0] : tensor<32x8xf32> -> tensor<8x32xf32>",
        "fuser.cast {v} : tensor<8x32xf32> to tensor<8x32xbf16>",
    ]
    lines, value = [], "%x"
    for i in range(0, n - n % len(block)):
        lines.append(f"  %v{i} = " + block[i % len(block)].format(v=value))
        value = f"%v{i}"
    return "\n".join(lines), value


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("ops", type=int)
    parser.add_argument("--kind", choices=["cast-view", "mixed"], default="cast-view")
    args = parser.parse_args()
    body, result = (cast_view if args.kind == "cast-view" else mixed)(args.ops)
    print("func.func @chain(%x: tensor<8x32xbf16>) -> tensor<8x32xbf16> {")
    print(body)
    print(f"  return {result} : tensor<8x32xbf16>")
    print("}")


if __name__ == "__main__":
    main()
