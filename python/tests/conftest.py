"""Shared setup of the fuser_mlir pytest suite (docs/Python.md, Tests).

The CUDA backend loads its driver once per process, at its first use; the
suite points it at a library that does not exist before any test runs, so
the CUDA cases test the no-driver error on every machine, GPU or not."""
import os

os.environ["FUSER_CUDA_DRIVER"] = "/nonexistent/libcuda.so.1"
