"""Drives bench/gpu_bench.py's --against-interp pieces without a GPU
(gpu-bench-against-interp.test): argv[1] is bench/, argv[2] the output of
fuser-run every-dtype.mlir --json."""
import json
import sys

sys.path.insert(0, sys.argv[1])
import gpu_bench  # noqa: E402
import numpy as np  # noqa: E402

results = json.load(open(sys.argv[2]))["results"]
dtypes = [r["dtype"] for r in results]
inputs = [gpu_bench.deterministic_numpy(r["shape"], r["dtype"], k).tolist()
          for k, r in enumerate(results)]
same = all(x == r["values"] for x, r in zip(inputs, results))
print(f"inputs: {' '.join(dtypes)} {'equal' if same else 'DIFFER FROM'} fuser-run's")

raw = [gpu_bench.interp_bits(r).tobytes() for r in results]
print("same bits:", "yes" if gpu_bench.compare_with_interp(raw, results, 0)[1] else "no")

bf16 = bytearray(raw[3])
bf16[0:2] = (int.from_bytes(bf16[0:2], "little") + 1).to_bytes(2, "little")
nudged = raw[:3] + [bytes(bf16)] + raw[4:]
print("\n".join(gpu_bench.compare_with_interp(nudged, results, 0)[0]))
print("1 ulp, tolerance 1:", "yes" if gpu_bench.compare_with_interp(nudged, results, 1)[1] else "no")

zero = {"index": 0, "type": "tensor<3xf64>", "dtype": "f64", "shape": [3], "values": [0.0, 1.5, 2.0]}
print(gpu_bench.compare_with_interp([np.array([-0.0, 1.5, 2.0]).tobytes()], [zero], 0)[0][0])
nan = {"index": 0, "type": "tensor<2xf32>", "dtype": "f32", "shape": [2], "values": [float("nan"), 1.0]}
print(gpu_bench.compare_with_interp([np.array([np.nan, 1.0], np.float32).tobytes()], [nan], 0)[0][0])
i1 = {"index": 0, "type": "tensor<2xi1>", "dtype": "i1", "shape": [2], "values": [True, False]}
print(gpu_bench.compare_with_interp([bytes([1, 1])], [i1], 0)[0][0])
