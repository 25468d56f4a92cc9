// Element-wise addition with a grid-stride loop.
#include "prelude.h"

extern "C" __global__ void vec_add(const float *a, const float *b, float *c, int n) {
  int stride = NTID_X * NCTA_X;
  for (int i = CTA_X * NTID_X + TID_X; i < (n & 1023); i += stride)
    c[i] = a[i] + b[i];
}
