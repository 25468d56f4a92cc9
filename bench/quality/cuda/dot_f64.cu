// Double-precision dot product: per-thread partial sums, one atomic each.
#include "prelude.h"

extern "C" __global__ void dot_f64(const double *a, const double *b, double *result, int n) {
  double acc = 0.0;
  int stride = NTID_X * NCTA_X;
  for (int i = CTA_X * NTID_X + TID_X; i < (n & 2047); i += stride)
    acc += a[i] * b[i];
  __nvvm_atom_add_gen_d(result, acc);
}
